"""Stack and resource events in heat's database.

    event_create({'stack_id': sid, 'resource_name': 'r', 'resource_action': 'CREATE',
                  'resource_status': 'COMPLETE', ...})
    event_get_all_by_stacks([sid], sort_keys=['created_at'], limit=20)
    event_purge_oldest(sid, 200)      # and the properties rows only they used

A state change's event is usually written with the state (stacks.stack_update,
resources.ResourceWrite), in the same transaction.
"""

import uuid

import sqlalchemy as sa

from heat_lite.db import resource_data, retry, session
from heat_lite.db.models import T_EVENT, utcnow
from heat_lite.db.retry import retry_on_db_error


def event_values(event):
    """The row of ``event``: a uuid and a time unless it has them, the reason cut to its
    column."""
    values = dict(event)
    values.setdefault("uuid", str(uuid.uuid4()))
    values.setdefault("created_at", utcnow())
    reason = values.get("resource_status_reason") or ""
    values["resource_status_reason"] = reason[:255]
    return values


def event_exists(event_uuid):
    return (
        session.select_one(sa.select(T_EVENT.c.id).where(T_EVENT.c.uuid == event_uuid)) is not None
    )


@retry_on_db_error
def event_create(event):
    event.setdefault("uuid", str(uuid.uuid4()))  # the same in every attempt
    if retry.retrying() and event_exists(event["uuid"]):
        return
    session.write(T_EVENT.insert(), event_values(event))


@retry_on_db_error
def event_count_all_by_stack(stack_id):
    stmt = sa.select(sa.func.count(T_EVENT.c.id)).where(T_EVENT.c.stack_id == stack_id)
    return session.select_one(stmt)[0]


@retry_on_db_error
def event_purge_oldest(stack_id, count):
    """Delete the stack's ``count`` oldest events (and the properties rows only they used)."""
    with session.transaction() as conn:
        oldest = conn.execute(
            sa.select(T_EVENT.c.id, T_EVENT.c.rsrc_prop_data_id)
            .where(T_EVENT.c.stack_id == stack_id)
            .order_by(T_EVENT.c.id)
            .limit(count)
        ).all()
        conn.execute(T_EVENT.delete().where(T_EVENT.c.id.in_([row.id for row in oldest])))
        prop_ids = {row.rsrc_prop_data_id for row in oldest if row.rsrc_prop_data_id}
        if prop_ids:
            resource_data.delete_unreferenced_props(conn, prop_ids)


_EVENT_SORT_KEYS = {
    "event_time": T_EVENT.c.created_at,
    "created_at": T_EVENT.c.created_at,
    "resource_type": T_EVENT.c.resource_type,
}
_EVENT_FILTER_COLUMNS = {
    "resource_status": T_EVENT.c.resource_status,
    "resource_action": T_EVENT.c.resource_action,
    "resource_name": T_EVENT.c.resource_name,
    "resource_type": T_EVENT.c.resource_type,
    "uuid": T_EVENT.c.uuid,
}


@retry_on_db_error
def event_get_all_by_stacks(
    stack_ids, filters=None, limit=None, marker=None, sort_keys=None, sort_dir=None
):
    stmt = sa.select(T_EVENT).where(T_EVENT.c.stack_id.in_(list(stack_ids)))
    for key, value in (filters or {}).items():
        column = _EVENT_FILTER_COLUMNS.get(key)
        if column is not None:
            stmt = stmt.where(column.in_(value if isinstance(value, list) else [value]))
    keys = [_EVENT_SORT_KEYS[k] for k in (sort_keys or []) if k in _EVENT_SORT_KEYS]
    if not keys:
        keys = [T_EVENT.c.created_at]
    direction = sort_dir or ("asc" if sort_keys else "desc")
    keys.append(T_EVENT.c.id)
    stmt = stmt.order_by(*[k.desc() if direction == "desc" else k.asc() for k in keys])
    return session.page(session.select_all(stmt), marker, limit, "uuid")
