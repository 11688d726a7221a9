"""Stack snapshots in heat's database (docs/rpc-and-convergence.md §5.8).

Getters take the caller's ``tenant`` (None: an admin) and raise Heat's NotFound for a
snapshot of another project, as heat/db/api.py ``_snapshot_get`` does;
``snapshot_get_by_stack`` also wants the snapshot to belong to the given stack.

    snap = snapshot_create({'stack_id': sid, 'name': 's1', 'tenant': 'p1',
                            'status': 'IN_PROGRESS', 'data': {...}})
    snapshot_update(snap.id, {'status': 'COMPLETE', 'data': {...}})
    snapshot_get_all('<stack id>')                # oldest first
"""

import sqlalchemy as sa

from heat_lite.common import exception
from heat_lite.db import models, retry, session
from heat_lite.db.models import utcnow

T_SNAPSHOT = models.Snapshot.__table__


def _not_found(snapshot_id):
    return exception.NotFound("Snapshot with id %s not found" % snapshot_id)


@retry.retry_on_db_error
def snapshot_create(values):
    session.stamp_id(values)
    if retry.retrying():  # the first attempt's row, if it was stored
        row = session.select_one(sa.select(T_SNAPSHOT).where(T_SNAPSHOT.c.id == values["id"]))
        if row is not None:
            return row
    values = dict(values, created_at=utcnow())
    with session.transaction() as conn:
        conn.execute(T_SNAPSHOT.insert().values(**values))
    return snapshot_get(values["id"])


@retry.retry_on_db_error
def snapshot_get(snapshot_id, tenant=None):
    """:raises: NotFound when there is none, or it is another project's."""
    row = session.select_one(sa.select(T_SNAPSHOT).where(T_SNAPSHOT.c.id == snapshot_id))
    if row is None or (tenant is not None and row.tenant != tenant):
        raise _not_found(snapshot_id)
    return row


@retry.retry_on_db_error
def snapshot_get_by_stack(snapshot_id, stack_id, stack_name, tenant=None):
    """:raises: NotFound as snapshot_get; SnapshotNotFound when it is another stack's."""
    row = snapshot_get(snapshot_id, tenant)
    if row.stack_id != stack_id:
        raise exception.SnapshotNotFound(snapshot=snapshot_id, stack=stack_name)
    return row


@retry.retry_on_db_error
def snapshot_get_all(stack_id):
    """The stack's snapshots, oldest first."""
    return session.select_all(
        sa.select(T_SNAPSHOT)
        .where(T_SNAPSHOT.c.stack_id == stack_id)
        .order_by(T_SNAPSHOT.c.created_at, T_SNAPSHOT.c.id)
    )


@retry.retry_on_db_error
def snapshot_count_all_by_stack(stack_id):
    stmt = sa.select(sa.func.count(T_SNAPSHOT.c.id)).where(T_SNAPSHOT.c.stack_id == stack_id)
    return session.select_one(stmt)[0]


@retry.retry_on_db_error
def snapshot_update(snapshot_id, values, expected_status=None):
    """Returns whether the snapshot (still in ``expected_status``, if given) was updated."""
    values = dict(values, updated_at=utcnow())
    stmt = T_SNAPSHOT.update().where(T_SNAPSHOT.c.id == snapshot_id).values(**values)
    if expected_status is not None:
        stmt = stmt.where(T_SNAPSHOT.c.status == expected_status)
    return session.write(stmt) > 0


@retry.retry_on_db_error
def snapshot_delete(snapshot_id):
    session.write(T_SNAPSHOT.delete().where(T_SNAPSHOT.c.id == snapshot_id))


@retry.retry_on_db_error
def snapshot_delete_all_by_stack(stack_id):
    session.write(T_SNAPSHOT.delete().where(T_SNAPSHOT.c.stack_id == stack_id))
