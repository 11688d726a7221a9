"""simcloud's database engine: ``configure`` once per process, then ``transaction()`` for
several statements or ``autocommit()`` for one.

    db_api.configure('postgresql+psycopg2://postgres@127.0.0.1/simcloud')
    with db_api.transaction() as conn:
        conn.execute(...)

SQLite serialises every transaction through one lock (green or native threads of one
process never meet "database is locked").
"""

import contextlib
import threading

import sqlalchemy as sa
from sqlalchemy import pool

from simcloud.db import models

_ENGINE = None
_SQLITE_LOCK = None

utcnow = models.utcnow


def configure(url, max_pool_size=16, max_overflow=0):
    """Create the process-wide engine for ``url`` (replacing any previous one).

    On PostgreSQL its connections run in autocommit mode (a single statement is one round
    trip) and transaction() sends BEGIN itself; the one pool keeps the connections it
    opens (a connection per request churned, and failed with "too many clients" on a
    PostgreSQL near its max_connections; two pools opened twice as many).
    """
    global _ENGINE, _SQLITE_LOCK
    dispose()
    if url.startswith("sqlite"):
        _ENGINE = sa.create_engine(
            url, connect_args={"check_same_thread": False}, poolclass=pool.StaticPool
        )
        _SQLITE_LOCK = threading.RLock()
    else:
        _ENGINE = sa.create_engine(
            url,
            isolation_level="AUTOCOMMIT",
            pool_size=max_pool_size,
            max_overflow=max_overflow,
            pool_recycle=3600,
            # a pooled connection is pinged when taken, and replaced (with every other
            # one opened before) when the server lost it, as oslo.db's engine does
            pool_pre_ping=True,
        )
        _SQLITE_LOCK = None
    return _ENGINE


def get_engine():
    if _ENGINE is None:
        from simcloud.conf import CONF

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


def create_schema():
    """Create every table directly (tests and the embedded default; alembic elsewhere)."""
    models.Base.metadata.create_all(get_engine())


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


def one(stmt, params=None):
    """The first row of ``stmt`` (``params``: for a statement built once with bindparams)."""
    with autocommit() as conn:
        return conn.execute(stmt, params).first()


def all_rows(stmt, params=None):
    with autocommit() as conn:
        return conn.execute(stmt, params).all()


def write(stmt, params=None):
    """Run a write on its own; how many rows it matched."""
    with autocommit() as conn:
        return conn.execute(stmt, params).rowcount
