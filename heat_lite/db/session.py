"""heat's database engine, its connections and transactions: what every db module uses.

    session.configure('postgresql+psycopg2://postgres@127.0.0.1/heat')
    with session.transaction() as conn:          # BEGIN ... COMMIT (rolled back on error)
        conn.execute(...)
    session.select_one(stmt, params)             # one statement, no BEGIN/COMMIT

On PostgreSQL the connections run in autocommit mode: the single statements that make up
most of the traffic take one round trip each, and transaction() sends BEGIN itself.
SQLite (the embedded default) serialises every transaction through one lock, so green or
native threads of one process never meet a "database is locked" error.

A function with a PostgreSQL version (``@postgresql_fast_path``; the version, in
heat_lite.db.postgresql, is marked ``@fast_path_of(<function>)``; db/api.py imports that
module, so every process using the db api has them) runs the version the configured
database takes, chosen once (at its first call on the engine configured), not
forked at each call. The tests of tests/functional/db run both, on SQLite and PostgreSQL.
"""

import contextlib
import functools
import threading
import uuid

import sqlalchemy as sa
from sqlalchemy import pool

from heat_lite.db import models

_ENGINE = None
_GENERATION = 0
_SQLITE_LOCK = None
_FAST_PATHS = []  # the functions with a PostgreSQL version (postgresql_fast_path)


def configure(url, max_pool_size=16, max_overflow=0):
    """Create the process-wide engine for ``url`` (replacing any previous one).

    One pool serves single statements and transactions, sized for every RPC handler
    thread to hold a connection, and keeps what it opens (a connection made per burst
    costs PostgreSQL a backend start-up: 3 of 7 s of its CPU in a 10-cluster create, with
    two pools).
    """
    global _ENGINE, _SQLITE_LOCK, _GENERATION
    dispose()
    _GENERATION += 1
    if url.startswith("sqlite"):
        _ENGINE = sa.create_engine(
            url, connect_args={"check_same_thread": False}, poolclass=pool.StaticPool
        )
        sa.event.listen(_ENGINE, "connect", _sqlite_foreign_keys)
        _SQLITE_LOCK = threading.RLock()
    else:
        _ENGINE = sa.create_engine(
            url,
            isolation_level="AUTOCOMMIT",
            pool_size=max_pool_size,
            max_overflow=max_overflow,
            pool_recycle=3600,
        )
        _SQLITE_LOCK = None
    for chosen in _FAST_PATHS:
        _choose(chosen)
    return _ENGINE


def _sqlite_foreign_keys(dbapi_connection, connection_record):
    """SQLite checks foreign keys only when asked, per connection: ask, as PostgreSQL does."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def generation():
    """Changes whenever the database is reconfigured: part of every cache key of ids."""
    return _GENERATION


def get_engine():
    if _ENGINE is None:
        from heat_lite.conf import CONF

        configure(
            CONF.database.connection,
            CONF.database.max_pool_size,
            CONF.database.max_overflow,
        )
    return _ENGINE


def dispose():
    global _ENGINE
    if _ENGINE is not None:
        _ENGINE.dispose()
    _ENGINE = None
    for chosen in _FAST_PATHS:
        _choose(chosen)


def create_schema():
    """Create every table directly (tests and the embedded default; alembic elsewhere)."""
    models.Base.metadata.create_all(get_engine())


# -- the PostgreSQL fast path: chosen once per function ------------------------------------


def postgresql_fast_path(portable):
    """Decorate ``portable`` (the version every database takes) as having a PostgreSQL
    version: the configured engine's runs (see the module's docstring)."""

    @functools.wraps(portable)
    def chosen(*args, **kwargs):
        return chosen.run(*args, **kwargs)

    chosen.portable, chosen.fast = portable, None
    _FAST_PATHS.append(chosen)
    _choose(chosen)
    return chosen


def fast_path_of(func):
    """Decorate the PostgreSQL version of ``func`` (a postgresql_fast_path function, maybe
    under other decorators: retry_on_db_error)."""
    chosen = func
    while chosen not in _FAST_PATHS:
        chosen = chosen.__wrapped__

    def register(fast):
        chosen.fast = fast
        _choose(chosen)
        return fast

    return register


def _choose(chosen):
    """Make the next call of ``chosen`` choose its version (on the engine it configures)."""
    chosen.run = functools.partial(_choose_and_run, chosen)


def _choose_and_run(chosen, *args, **kwargs):
    get_engine()
    if _SQLITE_LOCK is not None:
        chosen.run = chosen.portable
    elif chosen.fast is None:
        raise RuntimeError("no PostgreSQL version of %s" % chosen.__qualname__)
    else:
        chosen.run = chosen.fast
    return chosen.run(*args, **kwargs)


# -- connections and statements -------------------------------------------------------------


@contextlib.contextmanager
def transaction():
    """A connection inside BEGIN ... COMMIT, rolled back if the block raises."""
    get_engine()
    lock = _SQLITE_LOCK
    if lock is not None:
        with lock, _ENGINE.begin() as conn:
            yield conn
        return
    with _ENGINE.connect() as conn:
        conn.exec_driver_sql("BEGIN")
        try:
            yield conn
        except BaseException:
            _rollback(conn)
            raise
        conn.exec_driver_sql("COMMIT")


def _rollback(conn):
    # the driver does not roll back on its own a transaction begun by hand (it is in
    # autocommit mode): a connection that cannot is dropped, never pooled mid-transaction
    try:
        conn.exec_driver_sql("ROLLBACK")
    except Exception:
        conn.invalidate()


@contextlib.contextmanager
def autocommit():
    """A connection for one statement: no BEGIN/COMMIT round trips on PostgreSQL."""
    get_engine()
    lock = _SQLITE_LOCK
    if lock is not None:
        with lock, _ENGINE.begin() as conn:
            yield conn
    else:
        with _ENGINE.connect() as conn:
            yield conn


def select_one(stmt, params=None):
    """The first row of ``stmt`` (run with bound ``params``, for statements built once)."""
    with autocommit() as conn:
        return conn.execute(stmt, params).first()


def select_all(stmt, params=None):
    with autocommit() as conn:
        return conn.execute(stmt, params).all()


def write(stmt, params=None):
    """Run a write on its own; how many rows it matched."""
    with autocommit() as conn:
        return conn.execute(stmt, params).rowcount


def inserted_id(conn, table, values):
    """Insert ``values`` into ``table`` on ``conn``; the new row's id."""
    return conn.execute(table.insert().values(**values)).inserted_primary_key[0]


@postgresql_fast_path
def run_prepared(stmt, params):
    """(rows or None, rowcount) of a prepared.Prepared statement, run the ordinary way
    (PostgreSQL: PREPAREd, postgresql.run_prepared)."""
    with autocommit() as conn:
        result = conn.execute(stmt.stmt, params)
        return (result.all() if result.returns_rows else None), result.rowcount


def first_prepared(stmt, params):
    """The first row of a prepared.Prepared select, or None."""
    rows = run_prepared(stmt, params)[0]
    return rows[0] if rows else None


def page(rows, marker, limit, key):
    """The rows after the one whose ``key`` is ``marker``, at most ``limit`` of them."""
    if marker:
        ids = [getattr(r, key) for r in rows]
        if marker in ids:
            rows = rows[ids.index(marker) + 1 :]
    if limit is not None:
        rows = rows[: int(limit)]
    return rows


# -- what a retried write recognises (db.retry) ---------------------------------------------


def stamp_id(values):
    """Give ``values`` (the caller's dict) a new ``id`` unless it has one: the row's id
    stays the same in every attempt of a retried create."""
    if not values.get("id"):
        values["id"] = str(uuid.uuid4())
    return values["id"]


def holds(table, where, values):
    """Whether the row of ``table`` that ``where`` selects holds ``values``: how a write
    retried after a transient error finds its first attempt stored."""
    columns = [table.c[name] for name in values]
    # JSON columns compared as the text the write stored
    read = [sa.type_coerce(c, sa.Text) if isinstance(c.type, models.Json) else c for c in columns]
    row = select_one(sa.select(*read).where(*where))
    if row is None:
        return False
    for column, value, stored in zip(columns, values.values(), row, strict=True):
        if isinstance(column.type, models.Json):
            value = column.type.process_bind_param(value, None)
        if stored != value:
            return False
    return True
