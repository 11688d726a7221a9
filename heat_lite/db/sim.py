"""The simulated cloud's table (``sim_object``): one row per server, port, volume, ...

Rows come back as dicts: the stored ``properties`` plus ``id``, ``name``, ``status``,
``project_id`` and ``ready_at``. The engine's simulated services
(heat_lite.engine.clients.sim) are the only callers.

    obj = sim.sim_object_create('nova.server', 'p1', 'vm1', 'BUILD', {'flavor': '2'})
    sim.sim_object_get(obj['id'])                       # {'id': ..., 'status': 'BUILD', ...}
    sim.sim_object_get_all('neutron.port', network_id=net_id)
"""

import uuid

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from heat_lite.db import api as db_api
from heat_lite.db import models

T_SIM = models.SimObject.__table__


def _as_dict(row):
    if row is None:
        return None
    obj = dict(row.properties or {})
    obj.update(
        id=row.id,
        name=row.name,
        status=row.status,
        project_id=row.project_id,
        ready_at=row.ready_at,
        kind=row.kind,
    )
    return obj


def sim_object_create(kind, project_id, name, status, properties, ready_at=None, obj_id=None):
    """Insert an object; ``obj_id`` given and taken already -> the existing row is kept."""
    values = dict(
        id=obj_id or str(uuid.uuid4()),
        kind=kind,
        project_id=project_id,
        name=name,
        status=status,
        properties=properties,
        ready_at=ready_at,
        created_at=db_api.utcnow(),
    )
    try:
        with db_api.transaction() as conn:
            conn.execute(T_SIM.insert().values(**values))
    except sa_exc.IntegrityError:
        if obj_id is None:
            raise
    return sim_object_get(values["id"])


def sim_object_get(obj_id, kind=None):
    stmt = sa.select(T_SIM).where(T_SIM.c.id == obj_id)
    if kind is not None:
        stmt = stmt.where(T_SIM.c.kind == kind)
    with db_api.autocommit() as conn:
        return _as_dict(conn.execute(stmt).first())


def sim_object_get_all(kind=None, project_id=None, name=None, **props):
    """Objects of ``kind`` (all kinds when None), filtered by columns and properties."""
    stmt = sa.select(T_SIM).order_by(T_SIM.c.created_at, T_SIM.c.id)
    if kind is not None:
        stmt = stmt.where(T_SIM.c.kind == kind)
    if project_id is not None:
        stmt = stmt.where(T_SIM.c.project_id == project_id)
    if name is not None:
        stmt = stmt.where(T_SIM.c.name == name)
    with db_api.autocommit() as conn:
        rows = [_as_dict(r) for r in conn.execute(stmt).all()]
    return [r for r in rows if all(r.get(k) == v for k, v in props.items())]


def sim_object_update(obj_id, status=None, properties=None, ready_at=False, name=None):
    """Change the status, merge ``properties`` in, set ``ready_at`` (False: unchanged)."""
    with db_api.transaction() as conn:
        row = conn.execute(sa.select(T_SIM).where(T_SIM.c.id == obj_id)).first()
        if row is None:
            return None
        values = {"updated_at": db_api.utcnow()}
        if status is not None:
            values["status"] = status
        if name is not None:
            values["name"] = name
        if properties:
            values["properties"] = dict(row.properties or {}, **properties)
        if ready_at is not False:
            values["ready_at"] = ready_at
        conn.execute(T_SIM.update().where(T_SIM.c.id == obj_id).values(**values))
    return sim_object_get(obj_id)


def sim_object_delete(obj_id):
    """Remove an object; False when it was gone already."""
    with db_api.autocommit() as conn:
        return conn.execute(T_SIM.delete().where(T_SIM.c.id == obj_id)).rowcount > 0


def sim_object_next_counter(obj_id, key):
    """Atomically increment the integer property ``key`` of an object; the old value.

    (PostgreSQL: the row is locked for the update, so two workers allocating addresses
    from one subnet never get the same number.)
    """
    with db_api.transaction() as conn:
        row = conn.execute(
            sa.select(T_SIM.c.properties).where(T_SIM.c.id == obj_id).with_for_update()
        ).first()
        if row is None:
            return None
        props = dict(row.properties or {})
        value = int(props.get(key, 0))
        props[key] = value + 1
        conn.execute(T_SIM.update().where(T_SIM.c.id == obj_id).values(properties=props))
    return value


db_api.retry_public_functions(globals())
