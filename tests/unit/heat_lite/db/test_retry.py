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
from heat_lite.db import purge, retry, snapshots, software

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


# the engine and session plumbing, and what only builds an object whose method is retried
NOT_DECORATED = {
    "configure",
    "generation",
    "get_engine",
    "dispose",
    "create_schema",
    "transaction",
    "autocommit",
    "stamp_id",
    "sync_point_add_input",  # _Report.send
}


@pytest.mark.parametrize("module", [db_api, software, snapshots, purge])
def test_every_database_function_says_it_is_retried(module):
    """The decorator is written where each function is defined (as heat/db/api.py)."""
    tree = ast.parse(inspect.getsource(module))
    undecorated = [
        node.name
        for node in tree.body
        if isinstance(node, ast.FunctionDef)
        and not node.name.startswith("_")
        and node.name not in NOT_DECORATED
        and not any("retry_on_db_error" in ast.unparse(d) for d in node.decorator_list)
    ]
    assert undecorated == []
    assert db_api.stack_get.__wrapped__.__name__ == "stack_get"


def test_the_fast_path_writes_are_retried():
    assert db_api.ResourceWrite.run.__wrapped__.__name__ == "run"
    assert db_api._Report.send.__wrapped__.__name__ == "send"


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
