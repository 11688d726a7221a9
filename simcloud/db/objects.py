"""The cloud's table (``sim_object``): one row per server, port, volume, image, ...

Rows come back as dicts: the stored ``properties`` plus ``id``, ``name``, ``status``,
``project_id``, ``ready_at`` and ``kind``.

    obj = objects.create('nova.server', 'p1', 'vm1', 'BUILD', {'flavor': {'id': '2'}})
    objects.get(obj['id'])                       # {'id': ..., 'status': 'BUILD', ...}
    objects.get_all('neutron.port', network_id=net_id)
"""

import functools
import json
import uuid

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from simcloud.db import api as db_api
from simcloud.db import models, retry

T_SIM = models.SimObject.__table__
T_SETTING = models.SimSetting.__table__


# The statements of every request, built once: building a select and its cache key took
# 60 % of a lookup by id (514 us built each time, 186 us built once, 99 us in psycopg2).
_ORDER = (T_SIM.c.created_at, T_SIM.c.id)
_BY_ID = sa.select(T_SIM).where(T_SIM.c.id == sa.bindparam("w_id"))
_BY_ID_AND_KIND = _BY_ID.where(T_SIM.c.kind == sa.bindparam("w_kind"))
_LOCKED_BY_ID = _BY_ID.with_for_update()
_UPDATE = T_SIM.update().where(T_SIM.c.id == sa.bindparam("w_id"))
_DELETE = T_SIM.delete().where(T_SIM.c.id == sa.bindparam("w_id"))
_INSERT = T_SIM.insert()

# an object's keys that are its row's columns (the rest is its ``properties``); those no
# property filter of get_all looks for in the stored JSON
_ROW_KEYS = ("id", "name", "status", "project_id", "ready_at", "kind", "created_at", "updated_at")
_COLUMN_KEYS = frozenset(_ROW_KEYS) - {"name", "project_id"}


def _as_dict(row):
    return None if row is None else _view(row._mapping)


def _view(values):
    """An object's dict from its column values (``properties`` merged in)."""
    obj = dict(values.get("properties") or {})
    obj.update((key, values.get(key)) for key in _ROW_KEYS)
    return obj


def _stored(properties):
    """``properties`` as a read of the row returns them (through JSON)."""
    return json.loads(json.dumps(properties))


@retry.retry_on_db_error
def create(kind, project_id, name, status, properties, ready_at=None, obj_id=None):
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
        db_api.write(_INSERT, values)
    except sa_exc.IntegrityError:
        if obj_id is None:
            raise
        return get(values["id"])  # taken already: the existing row
    # what a read would return, without the read
    return _view(dict(values, properties=_stored(properties)))


@retry.retry_on_db_error
def get(obj_id, kind=None):
    if kind is None:
        return _as_dict(db_api.one(_BY_ID, {"w_id": obj_id}))
    return _as_dict(db_api.one(_BY_ID_AND_KIND, {"w_id": obj_id, "w_kind": kind}))


@retry.retry_on_db_error
def get_all(kind=None, project_id=None, name=None, **props):
    """Objects of ``kind`` (all kinds when None), filtered by columns and properties."""
    columns = {"kind": kind, "project_id": project_id, "name": name}
    columns = {key: value for key, value in columns.items() if value is not None}
    params = {"w_" + key: value for key, value in columns.items()}
    # a first cut in SQL: the rows whose stored JSON text holds ``"key": "value"`` (the
    # exact test on the decoded properties follows; a listener's load balancer, a port's
    # network were found by decoding every row of the kind)
    texts = [
        "%s: %s" % (json.dumps(key), json.dumps(value))
        for key, value in props.items()
        if isinstance(value, str) and key not in _COLUMN_KEYS
    ]
    params.update(_like_params(texts))
    stmt = _select_where(tuple(columns), len(texts))
    rows = [_as_dict(r) for r in db_api.all_rows(stmt, params)]
    return [r for r in rows if all(r.get(k) == v for k, v in props.items())]


@retry.retry_on_db_error
def get_all_mentioning(kind, value):
    """Objects of ``kind`` whose stored properties hold the string ``value`` somewhere
    (a first cut in SQL for a test on a list, e.g. a port's security groups)."""
    params = dict(_like_params([json.dumps(value)]), w_kind=kind)
    return [_as_dict(r) for r in db_api.all_rows(_select_where(("kind",), 1), params)]


@functools.lru_cache(maxsize=64)
def _select_where(columns, likes):
    """The rows (in creation order) whose ``columns`` equal the parameters ``w_<column>``
    and whose stored JSON text is LIKE each of ``w_like0``...``w_like<likes - 1>``."""
    stmt = sa.select(T_SIM).order_by(*_ORDER)
    for column in columns:
        stmt = stmt.where(T_SIM.c[column] == sa.bindparam("w_" + column))
    text = sa.type_coerce(T_SIM.c.properties, sa.Text)
    for i in range(likes):
        stmt = stmt.where(text.like(sa.bindparam("w_like%d" % i), escape="\\"))
    return stmt


def _like_params(texts):
    """``w_like<i>``: a LIKE pattern for the stored text containing ``texts[i]``."""
    return {
        "w_like%d" % i: "%" + t.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        for i, t in enumerate(texts)
    }


@retry.retry_on_db_error
def update(obj_id, status=None, properties=None, ready_at=False, name=None, remove=()):
    """Change the status, merge ``properties`` in (``remove``: keys to drop), set
    ``ready_at`` (False: unchanged); the object as it is now, or None if there is none."""
    with db_api.transaction() as conn:
        row = conn.execute(_LOCKED_BY_ID, {"w_id": obj_id}).first()
        if row is None:
            return None
        values = {"updated_at": db_api.utcnow()}
        if status is not None:
            values["status"] = status
        if name is not None:
            values["name"] = name
        if properties or remove:
            merged = dict(row.properties or {}, **(properties or {}))
            values["properties"] = {k: v for k, v in merged.items() if k not in remove}
        if ready_at is not False:
            values["ready_at"] = ready_at
        conn.execute(_UPDATE, dict(values, w_id=obj_id))
    if "properties" in values:
        values["properties"] = _stored(values["properties"])
    return _view(dict(row._mapping, **values))


@retry.retry_on_db_error
def delete(obj_id):
    """Remove an object; False when it was gone already."""
    return db_api.write(_DELETE, {"w_id": obj_id}) > 0


@retry.retry_on_db_error
def next_counter(obj_id, key):
    """Atomically increment the integer property ``key`` of an object; the old value.

    (PostgreSQL: the row is locked for the update, so two requests allocating addresses
    from one subnet never get the same number.)
    """
    with db_api.transaction() as conn:
        row = conn.execute(_LOCKED_BY_ID, {"w_id": obj_id}).first()
        if row is None:
            return None
        props = dict(row.properties or {})
        value = int(props.get(key, 0))
        props[key] = value + 1
        conn.execute(_UPDATE, {"w_id": obj_id, "properties": props})
    return value


# sim_setting: injection set at run time ---------------------------------------------


@retry.retry_on_db_error
def settings_get():
    """{name: value} of every setting stored at run time."""
    return {row.name: row.value for row in db_api.all_rows(sa.select(T_SETTING))}


@retry.retry_on_db_error
def settings_set(values):
    """Store each ``name: value`` (None removes the setting)."""
    with db_api.transaction() as conn:
        for name, value in values.items():
            conn.execute(T_SETTING.delete().where(T_SETTING.c.name == name))
            if value is not None:
                conn.execute(T_SETTING.insert().values(name=name, value=value))


@retry.retry_on_db_error
def settings_clear():
    db_api.write(T_SETTING.delete())
