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
_AUTOCOMMIT_ENGINE = None
_SQLITE_LOCK = None

utcnow = models.utcnow


def configure(url, max_pool_size=8, max_overflow=4):
    """Create the process-wide engines for ``url`` (replacing any previous ones)."""
    global _ENGINE, _AUTOCOMMIT_ENGINE, _SQLITE_LOCK
    dispose()
    if url.startswith("sqlite"):
        _ENGINE = sa.create_engine(
            url, connect_args={"check_same_thread": False}, poolclass=pool.StaticPool
        )
        _AUTOCOMMIT_ENGINE = _ENGINE
        _SQLITE_LOCK = threading.RLock()
    else:
        # the connections stay open once made (a connection per request churned, and
        # failed with "too many clients" on a PostgreSQL near its max_connections)
        _ENGINE = sa.create_engine(
            url, pool_size=max_pool_size, max_overflow=max_overflow, pool_recycle=3600
        )
        _AUTOCOMMIT_ENGINE = sa.create_engine(
            url,
            isolation_level="AUTOCOMMIT",
            pool_size=max_pool_size,
            max_overflow=max_overflow,
            pool_recycle=3600,
        )
        _SQLITE_LOCK = None
    return _ENGINE


def get_engine():
    if _ENGINE is None:
        from simcloud.conf import CONF

        configure(CONF.database.connection, CONF.database.max_pool_size)
    return _ENGINE


def dispose():
    global _ENGINE, _AUTOCOMMIT_ENGINE
    for engine in {_ENGINE, _AUTOCOMMIT_ENGINE} - {None}:
        engine.dispose()
    _ENGINE = _AUTOCOMMIT_ENGINE = None


def create_schema():
    """Create every table directly (tests and SQLite; alembic elsewhere)."""
    models.Base.metadata.create_all(get_engine())


@contextlib.contextmanager
def transaction():
    engine = get_engine()
    lock = _SQLITE_LOCK
    if lock is not None:
        with lock, engine.begin() as conn:
            yield conn
    else:
        with engine.begin() as conn:
            yield conn


@contextlib.contextmanager
def autocommit():
    """A connection for one statement: no BEGIN/COMMIT round trips on PostgreSQL."""
    get_engine()
    lock = _SQLITE_LOCK
    if lock is not None:
        with lock, _ENGINE.begin() as conn:
            yield conn
    else:
        with _AUTOCOMMIT_ENGINE.connect() as conn:
            yield conn


def one(stmt, params=None):
    """The first row of ``stmt`` (``params``: for a statement built once with bindparams)."""
    with autocommit() as conn:
        return conn.execute(stmt, params).first()


def all_rows(stmt, params=None):
    with autocommit() as conn:
        return conn.execute(stmt, params).all()


def write(stmt, params=None):
    with autocommit() as conn:
        return conn.execute(stmt, params).rowcount
