"""What heat keeps beside a resource's row: its data (resource_data: key/value, hooks),
its cached attribute values and the properties its events show (both rows of
resource_properties_data).

    resource_data_set(rsrc_id, 'password', secret, redact=True)
    resource_data_get_all(rsrc_id)                    # {'password': ...}
    resource_attr_data_set(rsrc_id, {'first_address': '10.0.0.3'})
    resource_attr_data_get(stack_id, ['server'])      # {'server': {...}}
"""

import sqlalchemy as sa

from heat_lite.db import prepared, session
from heat_lite.db.models import T_EVENT, T_PROPS, T_RDATA, T_RSRC, utcnow
from heat_lite.db.retry import retry_on_db_error


@retry_on_db_error
def resource_data_get_all(resource_id):
    rows = session.select_all(sa.select(T_RDATA).where(T_RDATA.c.resource_id == resource_id))
    return {r.key: r.value for r in rows}


@retry_on_db_error
def resource_data_set(resource_id, key, value, redact=False):
    with session.transaction() as conn:
        updated = conn.execute(
            T_RDATA.update()
            .where(T_RDATA.c.resource_id == resource_id, T_RDATA.c.key == key)
            .values(value=value, redact=redact, updated_at=utcnow())
        ).rowcount
        if not updated:
            conn.execute(
                T_RDATA.insert().values(
                    resource_id=resource_id,
                    key=key,
                    value=value,
                    redact=redact,
                    created_at=utcnow(),
                )
            )


@retry_on_db_error
def resource_data_delete(resource_id, key):
    """Remove one resource_data entry (nothing happens when there is none)."""
    where = (T_RDATA.c.resource_id == resource_id, T_RDATA.c.key == key)
    session.write(T_RDATA.delete().where(*where))


@retry_on_db_error
@session.postgresql_fast_path
def resource_attr_data_set(resource_id, data):
    """Store cached attribute values of a resource (``None`` clears them); the row of
    the values they replace is deleted. PostgreSQL: one statement
    (postgresql.resource_attr_data_set)."""
    with session.transaction() as conn:
        row = conn.execute(
            sa.select(T_RSRC.c.attr_data_id).where(T_RSRC.c.id == resource_id)
        ).first()
        if row is None:
            return
        old_id = row.attr_data_id
        prop_id = None
        if data:
            prop_id = session.inserted_id(conn, T_PROPS, {"data": data, "created_at": utcnow()})
        conn.execute(T_RSRC.update().where(T_RSRC.c.id == resource_id).values(attr_data_id=prop_id))
        if old_id is not None:
            conn.execute(T_PROPS.delete().where(T_PROPS.c.id == old_id))


def delete_unreferenced_props(conn, prop_ids):
    """Delete those resource_properties_data rows that no resource or event refers to."""
    conn.execute(
        T_PROPS.delete().where(
            T_PROPS.c.id.in_(prop_ids),
            ~sa.exists().where(T_RSRC.c.rsrc_prop_data_id == T_PROPS.c.id),
            ~sa.exists().where(T_RSRC.c.attr_data_id == T_PROPS.c.id),
            ~sa.exists().where(T_EVENT.c.rsrc_prop_data_id == T_PROPS.c.id),
        )
    )


def _attr_data_get_statement(by_names):
    """resource_attr_data_get's join, of the named resources (``names``) or of all."""
    where = [T_RSRC.c.stack_id == sa.bindparam("stack_id"), T_RSRC.c.replaced_by.is_(None)]
    if by_names:
        where.append(T_RSRC.c.name.in_(sa.bindparam("names", expanding=True)))
    return prepared.Prepared(
        sa.select(T_RSRC.c.name, T_PROPS.c.data)
        .join(T_PROPS, T_PROPS.c.id == T_RSRC.c.attr_data_id)
        .where(*where)
    )


_ATTR_DATA_BY_NAMES = _attr_data_get_statement(True)
_ATTR_DATA_ALL = _attr_data_get_statement(False)


@retry_on_db_error
def resource_attr_data_get(stack_id, names=None):
    """{name: cached attribute values} of the stack's live resources that have some (of
    ``names`` only, if given), in one statement."""
    if names is None:
        rows = session.run_prepared(_ATTR_DATA_ALL, {"stack_id": stack_id})[0]
    else:
        params = {"stack_id": stack_id, "names": list(names)}
        rows = session.run_prepared(_ATTR_DATA_BY_NAMES, params)[0]
    return dict(rows)


@retry_on_db_error
def resource_properties_data_get(prop_id):
    """The data of a resource_properties_data row (None when there is none)."""
    row = session.select_one(sa.select(T_PROPS.c.data).where(T_PROPS.c.id == prop_id))
    return row.data if row is not None else None
