"""Locks in heat's database: the stack lock (which engine is starting a stack's traversal,
engine/recovery.py) and the locks a transaction holds until it ends.

    stack_lock_take(stack_id, engine_id)       # True: this engine holds it now
    stack_lock_steal(stack_id, dead_engine_id, engine_id)
    stack_lock_release(stack_id, engine_id)
    with session.transaction() as conn:
        transaction_lock(conn, PROJECT_STACKS, tenant)    # until COMMIT
"""

import functools

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from heat_lite.db import retry, session
from heat_lite.db.models import T_STACK_LOCK, utcnow
from heat_lite.db.retry import retry_on_db_error

# kinds of transaction-scoped locks (the first key of a PostgreSQL advisory lock)
PROJECT_STACKS = 1
ROOT_RESOURCES = 2


@session.postgresql_fast_path
def transaction_lock(conn, kind, key):
    """Lock ``(kind, key)`` until ``conn``'s transaction ends. SQLite's transactions are
    serialised already: nothing to do. PostgreSQL: an advisory lock
    (postgresql.transaction_lock)."""


@retry_on_db_error
def stack_lock_set(stack_id, engine_id):
    """Record that ``engine_id`` is starting the stack's traversal (replacing any holder):
    one statement, the lock row inserted or taken over. IntegrityError: the stack is gone."""
    session.write(lock_set(), lock_values(stack_id, engine_id))


def lock_values(stack_id, engine_id):
    """The parameters of lock_set()."""
    return {"stack_id": stack_id, "engine_id": engine_id, "created_at": utcnow()}


@functools.lru_cache(maxsize=2)
def lock_set_statement(dialect_name):
    """stack_lock_set's upsert in the dialect's terms (parameters: lock_values)."""
    insert = {"postgresql": postgresql, "sqlite": sqlite}[dialect_name].insert(T_STACK_LOCK)
    return insert.on_conflict_do_update(
        index_elements=[T_STACK_LOCK.c.stack_id],
        set_={"engine_id": insert.excluded.engine_id, "updated_at": insert.excluded.created_at},
    )


def lock_set():
    """stack_lock_set's upsert for the configured database (other writes run it in theirs)."""
    return lock_set_statement(session.get_engine().dialect.name)


@retry_on_db_error
def stack_lock_take(stack_id, engine_id):
    """Take the lock if nobody holds it; whether this caller got it."""
    try:
        session.write(T_STACK_LOCK.insert(), lock_values(stack_id, engine_id))
    except sa.exc.IntegrityError:
        # a retry meets the lock its first attempt took
        return retry.retrying() and _holder(stack_id) == engine_id
    return True


def _holder(stack_id):
    stmt = sa.select(T_STACK_LOCK.c.engine_id).where(T_STACK_LOCK.c.stack_id == stack_id)
    row = session.select_one(stmt)
    return row.engine_id if row is not None else None


_RELEASE = T_STACK_LOCK.delete().where(T_STACK_LOCK.c.stack_id == sa.bindparam("stack_id"))
_RELEASE_OWN = _RELEASE.where(T_STACK_LOCK.c.engine_id == sa.bindparam("engine_id"))


@retry_on_db_error
def stack_lock_release(stack_id, engine_id):
    """Drop the lock if ``engine_id`` (None: anyone) still holds it; whether it did."""
    if engine_id is None:
        released = session.write(_RELEASE, {"stack_id": stack_id}) > 0
    else:
        params = {"stack_id": stack_id, "engine_id": engine_id}
        released = session.write(_RELEASE_OWN, params) > 0
    # a retry finds the lock its first attempt dropped gone
    return released or (retry.retrying() and _holder(stack_id) is None)


@retry_on_db_error
def stack_lock_get_all():
    return session.select_all(sa.select(T_STACK_LOCK.c.stack_id, T_STACK_LOCK.c.engine_id))


@retry_on_db_error
def stack_lock_steal(stack_id, old_engine_id, new_engine_id):
    """Compare-and-swap of the holder; whether this caller got it."""
    stmt = (
        T_STACK_LOCK.update()
        .where(T_STACK_LOCK.c.stack_id == stack_id, T_STACK_LOCK.c.engine_id == old_engine_id)
        .values(engine_id=new_engine_id, updated_at=utcnow())
    )
    # a retry finds the lock its first attempt took
    stolen = session.write(stmt) > 0
    return stolen or (retry.retrying() and _holder(stack_id) == new_engine_id)
