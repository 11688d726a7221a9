"""heat_lite.db.prepared on the real PostgreSQL: a Core statement PREPAREd once per pooled
connection, its parameters and columns processed by their types, ``IN`` over a list as
``= ANY(array)``, SQLAlchemy's errors, and a connection lost meanwhile replaced."""

import pytest
import sqlalchemy as sa

from heat_lite.db import models, prepared
from tests.fixtures import services

pytestmark = pytest.mark.functional

ROWS = sa.Table(
    "prepared_rows",
    sa.MetaData(),
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(32), nullable=False),
    sa.Column("data", models.Json),
    sa.Column("kind", sa.String(16), default="plain"),
    sa.Column("counter", sa.Integer, default=lambda: next(_COUNTER)),
)
_COUNTER = iter(range(100, 10**6))

INSERT = prepared.Prepared(
    ROWS.insert().values(
        id=sa.bindparam("id"), name=sa.bindparam("name"), data=sa.bindparam("data")
    )
)
BY_IDS = prepared.Prepared(
    sa.select(ROWS.c.id, ROWS.c.data)
    .where(ROWS.c.id.in_(sa.bindparam("ids", expanding=True)))
    .order_by(ROWS.c.id)
)
RENAME = prepared.Prepared(
    ROWS.update().where(ROWS.c.name == sa.bindparam("old")).values(name=sa.bindparam("new"))
)


@pytest.fixture(scope="module")
def engine():
    name, url = services.create_database()
    engine = sa.create_engine(url, isolation_level="AUTOCOMMIT", pool_size=1, max_overflow=0)
    ROWS.create(engine)
    try:
        yield engine
    finally:
        engine.dispose()
        services.drop_database(name)


@pytest.fixture
def rows(engine):
    yield engine
    with engine.connect() as conn:
        conn.execute(ROWS.delete())


def _server_prepared(engine):
    with engine.connect() as conn:
        return {row.name for row in conn.exec_driver_sql("SELECT name FROM pg_prepared_statements")}


def test_statements_run_prepared_with_their_types(rows):
    assert INSERT.execute(rows, {"id": 1, "name": "a", "data": {"x": [1]}}) == (None, 1)
    INSERT.execute(rows, {"id": 2, "name": "b", "data": None})
    INSERT.execute(rows, {"id": 3, "name": "b", "data": []})
    # Json columns are encoded on the way in and decoded on the way out
    assert BY_IDS.execute(rows, {"ids": [3, 1, 9]})[0] == [(1, {"x": [1]}), (3, [])]
    assert BY_IDS.execute(rows, {"ids": []})[0] == []
    assert RENAME.execute(rows, {"old": "b", "new": "c"}) == (None, 2)
    # the pool's one connection holds each statement once, however often it ran
    held = _server_prepared(rows)
    for statement in (INSERT, BY_IDS, RENAME):
        assert statement.name in held


def test_errors_are_sqlalchemys_and_the_connection_stays_usable(rows):
    INSERT.execute(rows, {"id": 1, "name": "a", "data": None})
    with pytest.raises(sa.exc.IntegrityError):
        INSERT.execute(rows, {"id": 1, "name": "again", "data": None})
    with pytest.raises(sa.exc.IntegrityError):
        INSERT.execute(rows, {"id": 2, "name": None, "data": None})
    assert BY_IDS.execute(rows, {"ids": [1, 2]})[0] == [(1, None)]


def test_a_lost_connection_is_replaced_and_prepares_again(rows):
    INSERT.execute(rows, {"id": 1, "name": "a", "data": None})
    with rows.connect() as conn:
        backend = conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()
    killer = sa.create_engine(rows.url, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    with killer.connect() as conn:
        conn.exec_driver_sql("SELECT pg_terminate_backend(%s)" % backend)
    with pytest.raises(sa.exc.DBAPIError) as failure:
        BY_IDS.execute(rows, {"ids": [1]})
    assert failure.value.connection_invalidated
    # the pool's new connection has no prepared statements: the next run prepares it
    assert BY_IDS.execute(rows, {"ids": [1]})[0] == [(1, None)]


def test_a_lost_connection_takes_the_pools_older_ones_with_it(rows):
    """A restarted server drops every connection: after the first statement that finds
    its connection gone, the pool's other old connections are replaced at checkout, as
    an ordinary execution's disconnect does (not one error per pooled connection)."""
    engine = sa.create_engine(rows.url, isolation_level="AUTOCOMMIT", pool_size=3, max_overflow=0)
    try:
        INSERT.execute(engine, {"id": 1, "name": "a", "data": None})
        held = [engine.raw_connection() for _ in range(3)]  # three connections pooled
        for conn in held:
            conn.close()
        killer = sa.create_engine(rows.url, poolclass=sa.pool.NullPool)
        with killer.connect() as conn:
            conn.exec_driver_sql(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        with pytest.raises(sa.exc.DBAPIError) as failure:
            BY_IDS.execute(engine, {"ids": [1]})
        assert failure.value.connection_invalidated
        for _ in range(3):  # each pooled connection in turn: new ones
            assert BY_IDS.execute(engine, {"ids": [1]})[0] == [(1, None)]
    finally:
        engine.dispose()
        rows.dispose()  # its connection was cut too


def test_statements_the_session_lost_are_prepared_again(rows):
    INSERT.execute(rows, {"id": 1, "name": "a", "data": None})
    assert BY_IDS.execute(rows, {"ids": [1]})[0] == [(1, None)]
    with rows.connect() as conn:  # the pool's one connection
        conn.exec_driver_sql("DEALLOCATE ALL")
    assert BY_IDS.execute(rows, {"ids": [1]})[0] == [(1, None)]
    assert BY_IDS.name in _server_prepared(rows)


def test_statements_run_together_commit_together(rows):
    together = [
        (INSERT, {"id": 1, "name": "a", "data": None}),
        (RENAME, {"old": "a", "new": "b"}),
        (BY_IDS, {"ids": [1]}),
    ]
    # one round trip; the last statement's rows, which see the earlier ones' writes
    assert prepared.execute_together(rows, together)[0] == [(1, None)]
    with pytest.raises(sa.exc.IntegrityError):
        prepared.execute_together(
            rows,
            [(INSERT, {"id": 2, "name": "c", "data": None}), (RENAME, {"old": "b", "new": None})],
        )
    # the failing second statement took the first one's insert with it
    assert BY_IDS.execute(rows, {"ids": [1, 2]})[0] == [(1, None)]


def test_an_inserts_left_out_columns_take_their_defaults(rows):
    """As an ordinary execution: a scalar default, a callable one called per execution."""
    prepared.execute_together(rows, [(INSERT, {"id": 1, "name": "a", "data": None})])
    prepared.execute_together(rows, [(INSERT, {"id": 2, "name": "b", "data": None})])
    with rows.connect() as conn:
        got = conn.execute(sa.select(ROWS.c.kind, ROWS.c.counter).order_by(ROWS.c.id)).all()
    assert [r.kind for r in got] == ["plain", "plain"]
    assert got[1].counter == got[0].counter + 1
