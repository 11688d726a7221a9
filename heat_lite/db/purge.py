"""Purge of soft-deleted stacks (``heat-lite-manage purge_deleted``), as heat-manage has.

Stacks deleted longer ago than ``age`` go for good with everything that belongs to them:
tags, locks, sync points, resources and their data, events, snapshots, the resource
properties data only they used, their raw templates (and files) and user credentials once
no remaining stack or resource refers to them. Each batch of stacks is one transaction,
children before nothing else depends on them, so the foreign keys hold on PostgreSQL at
every step; live stacks are never touched.

    purge_deleted(90)                                   # deleted more than 90 days ago
    purge_deleted(2, granularity="hours", project_id="p1", batch_size=50)
"""

import datetime

import sqlalchemy as sa

from heat_lite.common import exception
from heat_lite.db import models, resource_data, retry, session
from heat_lite.db.models import (
    T_CREDS,
    T_EVENT,
    T_FILES,
    T_RAW,
    T_RDATA,
    T_RSRC,
    T_SERVICE,
    T_STACK,
    T_SYNC,
    T_TAG,
    utcnow,
)

GRANULARITY = {"days": 86400, "hours": 3600, "minutes": 60, "seconds": 1}

T_LOCK = models.T_STACK_LOCK
T_SNAPSHOT = models.Snapshot.__table__


def _positive_integer(value, name):
    try:
        value = int(value)
    except (TypeError, ValueError):
        raise exception.Error(message="%s should be an integer" % name)
    if value < 0:
        raise exception.Error(message="%s should be a positive integer" % name)
    return value


@retry.retry_on_db_error
def purge_deleted(age, granularity="days", project_id=None, batch_size=20):
    """Delete the stacks soft-deleted more than ``age`` ``granularity`` ago, and
    the service rows of engines stopped that long ago. Returns the purged stack ids.

    :raises: heat_lite.common.exception.Error for a bad age, granularity or batch size
    """
    age = _positive_integer(age, "age")
    batch_size = _positive_integer(batch_size, "batch_size")
    if granularity not in GRANULARITY:
        raise exception.Error(message="granularity should be days, hours, minutes, or seconds")
    if batch_size == 0:
        raise exception.Error(message="batch_size should be a positive integer")
    time_line = utcnow() - datetime.timedelta(seconds=age * GRANULARITY[granularity])
    session.write(T_SERVICE.delete().where(T_SERVICE.c.deleted_at < time_line))
    stmt = sa.select(T_STACK.c.id).where(T_STACK.c.deleted_at < time_line)
    if project_id:
        stmt = stmt.where(T_STACK.c.tenant == project_id)
    stack_ids = [row.id for row in session.select_all(stmt.order_by(T_STACK.c.deleted_at))]
    for start in range(0, len(stack_ids), batch_size):
        with session.transaction() as conn:
            _purge_stacks(conn, stack_ids[start : start + batch_size])
    return stack_ids


def _purge_stacks(conn, stack_ids):
    stacks = conn.execute(
        sa.select(
            T_STACK.c.raw_template_id, T_STACK.c.prev_raw_template_id, T_STACK.c.user_creds_id
        ).where(T_STACK.c.id.in_(stack_ids))
    ).all()
    resources = conn.execute(
        sa.select(
            T_RSRC.c.rsrc_prop_data_id, T_RSRC.c.attr_data_id, T_RSRC.c.current_template_id
        ).where(T_RSRC.c.stack_id.in_(stack_ids))
    ).all()
    events = conn.execute(
        sa.select(T_EVENT.c.rsrc_prop_data_id).where(T_EVENT.c.stack_id.in_(stack_ids))
    ).all()
    prop_ids = {r.rsrc_prop_data_id for r in resources} | {r.attr_data_id for r in resources}
    prop_ids |= {e.rsrc_prop_data_id for e in events}
    template_ids = {s.raw_template_id for s in stacks} | {s.prev_raw_template_id for s in stacks}
    template_ids |= {r.current_template_id for r in resources}

    rsrc_ids = sa.select(T_RSRC.c.id).where(T_RSRC.c.stack_id.in_(stack_ids))
    conn.execute(T_RDATA.delete().where(T_RDATA.c.resource_id.in_(rsrc_ids)))
    for table in (T_LOCK, T_TAG, T_SYNC, T_EVENT, T_RSRC, T_SNAPSHOT):
        conn.execute(table.delete().where(table.c.stack_id.in_(stack_ids)))
    prop_ids.discard(None)
    if prop_ids:
        resource_data.delete_unreferenced_props(conn, prop_ids)
    conn.execute(T_STACK.delete().where(T_STACK.c.id.in_(stack_ids)))
    template_ids.discard(None)
    _delete_unreferenced_templates(conn, template_ids)
    creds_ids = {s.user_creds_id for s in stacks} - {None}
    if creds_ids:
        conn.execute(
            T_CREDS.delete().where(
                T_CREDS.c.id.in_(creds_ids),
                ~sa.exists().where(T_STACK.c.user_creds_id == T_CREDS.c.id),
            )
        )


def _delete_unreferenced_templates(conn, template_ids):
    """Delete those raw templates (and then their files) no stack or resource uses."""
    if not template_ids:
        return
    unused = sa.and_(
        T_RAW.c.id.in_(template_ids),
        ~sa.exists().where(T_STACK.c.raw_template_id == T_RAW.c.id),
        ~sa.exists().where(T_STACK.c.prev_raw_template_id == T_RAW.c.id),
        ~sa.exists().where(T_RSRC.c.current_template_id == T_RAW.c.id),
    )
    files_ids = {row.files_id for row in conn.execute(sa.select(T_RAW.c.files_id).where(unused))}
    conn.execute(T_RAW.delete().where(unused))
    files_ids.discard(None)
    if files_ids:
        conn.execute(
            T_FILES.delete().where(
                T_FILES.c.id.in_(files_ids),
                ~sa.exists().where(T_RAW.c.files_id == T_FILES.c.id),
            )
        )
