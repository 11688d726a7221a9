"""Transient database errors are retried with backoff (as oslo.db's wrap_db_retry);
anything else is raised at once."""

import ast
import inspect

import psycopg2
import psycopg2.errors
import pytest
import sqlalchemy as sa

from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.db import (
    events,
    locks,
    purge,
    resource_data,
    resources,
    retry,
    services,
    snapshots,
    software,
    stacks,
    sync_points,
    templates,
    user_creds,
)

DB_MODULES = [
    events,
    locks,
    purge,
    resource_data,
    resources,
    services,
    snapshots,
    software,
    stacks,
    sync_points,
    templates,
    user_creds,
]

pytestmark = pytest.mark.unit


@pytest.fixture(autouse=True)
def quick_retries():
    CONF([], project="heat", default_config_files=[])
    CONF.set_override("db_retry_interval", 0.001, group="database")
    CONF.set_override("db_max_retries", 3, group="database")
    yield
    CONF.clear_override("db_retry_interval", group="database")
    CONF.clear_override("db_max_retries", group="database")
    CONF.reset()


def _operational(orig):
    return sa.exc.OperationalError("SELECT 1", {}, orig)


TRANSIENT = [
    _operational(psycopg2.OperationalError("FATAL:  sorry, too many clients already")),
    _operational(psycopg2.errors.DeadlockDetected("deadlock detected")),
    _operational(psycopg2.errors.SerializationFailure("could not serialize access")),
    _operational(psycopg2.OperationalError("server closed the connection unexpectedly")),
    sa.exc.DBAPIError("SELECT 1", {}, Exception("gone"), connection_invalidated=True),
]


@pytest.mark.parametrize("error", TRANSIENT)
def test_transient_errors_are_retried(error):
    calls = []

    @db_api.retry_on_db_error
    def flaky():
        calls.append(1)
        if len(calls) < 3:
            raise error
        return "done"

    assert flaky() == "done"
    assert len(calls) == 3


def test_other_errors_are_not_retried():
    calls = []

    @db_api.retry_on_db_error
    def broken():
        calls.append(1)
        raise sa.exc.IntegrityError("INSERT", {}, Exception("duplicate key"))

    with pytest.raises(sa.exc.IntegrityError):
        broken()
    assert len(calls) == 1


def test_gives_up_after_db_max_retries():
    calls = []

    @db_api.retry_on_db_error
    def down():
        calls.append(1)
        raise TRANSIENT[0]

    with pytest.raises(sa.exc.OperationalError):
        down()
    assert len(calls) == 4  # the call and 3 retries


def test_a_call_inside_a_retried_call_is_retried_by_the_outer_one():
    inner_calls, outer_calls = [], []

    @db_api.retry_on_db_error
    def inner():
        inner_calls.append(1)
        if len(inner_calls) == 1:
            raise TRANSIENT[1]

    @db_api.retry_on_db_error
    def outer():
        outer_calls.append(1)
        inner()

    outer()
    assert (len(outer_calls), len(inner_calls)) == (2, 2)


# the engine and session plumbing (no statement of its own), and what only builds an
# object whose method is retried
NOT_RETRIED = {
    "configure",
    "generation",
    "get_engine",
    "dispose",
    "create_schema",
    "transaction",
    "autocommit",
    "stamp_id",
    "utcnow",
    "sync_point_add_input",  # sync_points.Report.send
}


def _defined_in_source(func):
    """Whether ``func`` is decorated with retry_on_db_error where it is defined."""
    func = inspect.unwrap(func)
    tree = ast.parse(inspect.getsource(inspect.getmodule(func)))
    (node,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == func.__name__]
    return any("retry_on_db_error" in ast.unparse(d) for d in node.decorator_list)


@pytest.mark.parametrize(
    "func",
    [getattr(db_api, name) for name in db_api.__all__ if name not in NOT_RETRIED]
    + [f for module in (software, snapshots, purge) for f in vars(module).values()],
)
def test_every_database_function_says_it_is_retried(func):
    """The decorator is written where each function is defined (as heat/db/api.py)."""
    if not inspect.isfunction(func) or func.__name__.startswith("_"):
        return
    if func.__module__ not in {m.__name__ for m in DB_MODULES}:
        return  # imported from elsewhere (sqlalchemy, the common package)
    assert hasattr(func, "__wrapped__"), func.__qualname__
    assert _defined_in_source(func), func.__qualname__


@pytest.mark.parametrize(
    "cls, method", [(resources.ResourceWrite, "run"), (sync_points.Report, "send")]
)
def test_the_fast_path_sends_are_retried(cls, method):
    """A worker's state write and sync point report, sent alone or in a group commit."""
    tree = ast.parse(inspect.getsource(cls)).body[0]
    (node,) = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == method]
    assert [ast.unparse(d) for d in node.decorator_list] == ["retry_on_db_error"]
    assert getattr(cls, method).__wrapped__.__name__ == method


def test_an_attempt_knows_it_repeats_a_failed_one():
    seen = []

    @db_api.retry_on_db_error
    def write():
        seen.append(retry.retrying())
        if len(seen) == 1:
            raise TRANSIENT[3]

    assert not retry.retrying()
    write()
    assert seen == [False, True]
    assert not retry.retrying()
