"""heat_lite.db on the real PostgreSQL when its connections are cut (issue 29).

A worker's state writes and sync point reports go on the prepared-statement fast path
(ResourceWrite.run, its group commit, the report batches). After the heat database's
backends are terminated, between writes or while one waits in the server, each write
and read is retried on a new connection, which prepares its statements again. A write
whose commit reached the server but whose answer was lost with the connection is not
taken for a conflict by its retry: it answers what the lost answer said (db.retry).
"""

import threading
import time
import uuid

import pytest
import sqlalchemy as sa

from heat_lite.cmd import manage
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.db import models
from heat_lite.engine import sync_point
from tests.fixtures import services
from tests.functional.db import relay

pytestmark = pytest.mark.functional

TERMINATE = (
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
    "WHERE datname = current_database() AND pid <> pg_backend_pid()"
)


@pytest.fixture(scope="module")
def database():
    name, url = services.create_database()
    try:
        manage.db_sync(url)
        yield url
    finally:
        db_api.dispose()
        services.drop_database(name)


@pytest.fixture(autouse=True)
def quick_retries():
    CONF([], project="heat", default_config_files=[])
    CONF.set_override("db_retry_interval", 0.01, group="database")
    yield
    CONF.clear_override("db_retry_interval", group="database")
    CONF.reset()


@pytest.fixture
def db(database):
    db_api.configure(database)
    yield database
    _empty(database)


@pytest.fixture
def relayed(database):
    """heat_lite.db on one pooled connection through a relay that can lose an answer."""
    with relay.Relay() as proxy:
        db_api.configure(proxy.url(database), max_pool_size=1)
        yield proxy
        db_api.dispose()
    _empty(database)


def _empty(url):
    db_api.configure(url)
    with db_api.transaction() as conn:
        for table in reversed(models.Base.metadata.sorted_tables):
            conn.execute(table.delete())
    db_api.dispose()


def _terminate(url):
    """The heat database's backends, but this one's, terminated; how many."""
    killer = sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with killer.connect() as conn:
        return len(conn.exec_driver_sql(TERMINATE).all())


def _pool_of(count):
    """``count`` pooled connections opened (held at once, then returned)."""
    conns = [db_api.get_engine().connect() for _ in range(count)]
    for conn in conns:
        conn.exec_driver_sql("SELECT 1")
        conn.close()


def _stack():
    template_id = db_api.raw_template_create({"heat_template_version": "2015-04-30"}, {})
    stack_id = str(uuid.uuid4())
    db_api.stack_create(
        {
            "id": stack_id,
            "name": "s-" + stack_id[:8],
            "raw_template_id": template_id,
            "disable_rollback": True,
            "current_traversal": "t1",
        }
    )
    return stack_id


def _resource(stack_id, name="r"):
    (rsrc_id,) = db_api.resource_create_many(
        [{"name": name, "stack_id": stack_id, "action": "INIT", "status": "COMPLETE"}]
    )
    return rsrc_id


def _event(stack_id, status):
    return {
        "stack_id": stack_id,
        "resource_action": "CREATE",
        "resource_status": status,
        "resource_name": "r",
        "physical_resource_id": "",
        "resource_status_reason": "state changed",
        "resource_type": "OS::Heat::None",
    }


def _start(rsrc_id, stack_id):
    """A worker's CREATE IN_PROGRESS write: takes the lock (engine e1), with its event."""
    values = {"action": "CREATE", "status": "IN_PROGRESS", "engine_id": "e1"}
    return db_api.ResourceWrite(rsrc_id, values, 0, None, _event(stack_id, "IN_PROGRESS"), None)


def _complete(rsrc_id, stack_id):
    """Its deferred CREATE COMPLETE write, which releases the lock."""
    values = {"action": "CREATE", "status": "COMPLETE", "engine_id": None}
    return db_api.ResourceWrite(rsrc_id, values, 1, "e1", _event(stack_id, "COMPLETE"), None)


def _state(rsrc_id):
    row = db_api.resource_get_with_stack(rsrc_id)[0]
    return row.action, row.status, row.engine_id, row.atomic_key


def _events(stack_id):
    return [e.resource_status for e in db_api.event_get_all_by_stacks([stack_id])]


def test_fast_path_writes_and_reads_after_the_backends_were_terminated(db):
    stack_id = _stack()
    first, second = _resource(stack_id, "a"), _resource(stack_id, "b")
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(9, True)]))
    _pool_of(4)

    assert _terminate(db) >= 4
    assert _start(first, stack_id).run()  # the group commit's write, then its read
    assert _terminate(db) >= 1
    assert _state(first) == ("CREATE", "IN_PROGRESS", "e1", 1)
    assert _start(second, stack_id).run()

    assert _terminate(db) >= 1
    report = db_api.sync_point_add_input([9], "t1", True, "a", {}, write=_complete(first, stack_id))
    assert report == {"9": 1}
    assert _terminate(db) >= 1
    report = db_api.sync_point_add_input(
        [9], "t1", True, "b", {}, write=_complete(second, stack_id)
    )
    assert report == {"9": 2}
    assert _terminate(db) >= 1
    assert db_api.sync_point_inputs([9], "t1", True)["9"][0] == {"a": {}, "b": {}}
    for rsrc_id in (first, second):
        assert _state(rsrc_id) == ("CREATE", "COMPLETE", None, 2)
    assert sorted(_events(stack_id)) == ["COMPLETE"] * 2 + ["IN_PROGRESS"] * 2


def _wait_for_lock_wait(url):
    """Until a backend of the database waits for a lock (the write in flight)."""
    deadline = time.monotonic() + 30
    query = (
        "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
        "AND wait_event_type = 'Lock'"
    )
    watcher = sa.create_engine(url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with watcher.connect() as conn:
        while not conn.exec_driver_sql(query).scalar():
            assert time.monotonic() < deadline, "the write never waited for the row"
            time.sleep(0.02)


def test_a_write_whose_backend_is_terminated_while_it_waits_lands(db):
    stack_id = _stack()
    rsrc_id = _resource(stack_id)
    _start(rsrc_id, stack_id).run()
    outcome = []

    def complete():
        try:
            outcome.append(_complete(rsrc_id, stack_id).run())
        except Exception as exc:  # the test's answer
            outcome.append(exc)

    holder = sa.create_engine(db, poolclass=sa.pool.NullPool)
    with holder.connect() as conn:
        conn.execute(sa.text("SELECT id FROM resource WHERE id = :id FOR UPDATE"), {"id": rsrc_id})
        writer = threading.Thread(target=complete)
        writer.start()
        _wait_for_lock_wait(db)
        assert conn.exec_driver_sql(TERMINATE).all()  # from the lock holder's backend
        conn.rollback()
    writer.join(timeout=60)
    assert outcome == [True]
    assert _state(rsrc_id) == ("CREATE", "COMPLETE", None, 2)
    assert sorted(_events(stack_id)) == ["COMPLETE", "IN_PROGRESS"]


def test_a_state_write_whose_answer_was_lost_is_not_a_conflict(relayed):
    stack_id = _stack()
    warm, lost = _resource(stack_id, "warm"), _resource(stack_id, "lost")
    assert _start(warm, stack_id).run()  # its statement is prepared on the connection

    relayed.lose_next_answer()
    assert _start(lost, stack_id).run()
    assert relayed.lost.is_set()
    assert _state(lost) == ("CREATE", "IN_PROGRESS", "e1", 1)
    assert _events(stack_id) == ["IN_PROGRESS"] * 2  # one event for each write

    # without an event: the row holds the write's values at the next atomic_key
    relayed.lose_next_answer()
    assert db_api.resource_update(lost, {"nova_instance": "phys-1"}, 1, "e1")
    assert relayed.lost.is_set()
    assert db_api.resource_get_with_stack(lost)[0].nova_instance == "phys-1"


def test_a_report_whose_answer_was_lost_still_completes_its_sync_point(relayed):
    stack_id = _stack()
    first, second = _resource(stack_id, "a"), _resource(stack_id, "b")
    for rsrc_id in (first, second):
        assert _start(rsrc_id, stack_id).run()
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(9, True)]))
    # the statements of a report with its write, prepared on the connection
    report = db_api.sync_point_add_input([9], "t1", True, "a", {}, write=_complete(first, stack_id))
    assert report == {"9": 1}

    relayed.lose_next_answer()
    counts = db_api.sync_point_add_input(
        [9], "t1", True, "b", {}, write=_complete(second, stack_id)
    )
    assert relayed.lost.is_set()
    assert counts == {"9": 2}  # the report that completed the sync point knows it
    assert db_api.sync_point_get(9, "t1", True).atomic_key == 2
    assert _state(second) == ("CREATE", "COMPLETE", None, 2)


def test_a_traversal_start_whose_answer_was_lost_is_stored(relayed):
    stack_id = _stack()
    relayed.lose_next_answer()
    assert db_api.stack_update(stack_id, {"current_traversal": "t2"}, exp_trvsl="t1")
    assert relayed.lost.is_set()
    assert db_api.stack_get(stack_id).current_traversal == "t2"
    # a stack lock taken likewise is this engine's
    relayed.lose_next_answer()
    assert db_api.stack_lock_take(stack_id, "e1")
    assert relayed.lost.is_set()
    assert db_api.stack_lock_get_all() == [(stack_id, "e1")]
