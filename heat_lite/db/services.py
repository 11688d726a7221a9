"""The engines and workers alive (the ``service`` table: engine/liveness.py's heartbeat).

service_id = service_create({'engine_id': eid, 'host': ..., 'binary': 'heat-engine', ...})
service_update(service_id)                 # False: reaped as stale meanwhile
"""

import uuid

import sqlalchemy as sa

from heat_lite.db import retry, session
from heat_lite.db.models import T_SERVICE, utcnow
from heat_lite.db.retry import retry_on_db_error


@retry_on_db_error
def service_create(values):
    values.setdefault("id", str(uuid.uuid4()))
    values.setdefault("created_at", utcnow())
    if retry.retrying() and service_get_by_id(values["id"]) is not None:
        return values["id"]  # the first attempt's row
    with session.transaction() as conn:
        conn.execute(T_SERVICE.insert().values(**values))
    return values["id"]


@retry_on_db_error
def service_update(service_id):
    """Record a heartbeat; False when the row is gone (reaped as stale meanwhile)."""
    stmt = T_SERVICE.update().where(T_SERVICE.c.id == service_id).values(updated_at=utcnow())
    return session.write(stmt) > 0


@retry_on_db_error
def service_delete(service_id):
    session.write(T_SERVICE.delete().where(T_SERVICE.c.id == service_id))


@retry_on_db_error
def service_get_all():
    return session.select_all(sa.select(T_SERVICE).where(T_SERVICE.c.deleted_at.is_(None)))


@retry_on_db_error
def service_get_by_id(service_id):
    return session.select_one(sa.select(T_SERVICE).where(T_SERVICE.c.id == service_id))


@retry_on_db_error
def service_get_by_engine_id(engine_id):
    return session.select_one(sa.select(T_SERVICE).where(T_SERVICE.c.engine_id == engine_id))
