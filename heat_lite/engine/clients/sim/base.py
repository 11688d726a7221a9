"""What every simulated service shares: objects in ``sim_object``, states, failure on purpose.

An object is created in its building state (``BUILD``, ``creating``, ``PENDING_CREATE``)
with ``ready_at = now + [simulated_cloud] build_time``; the first read after that moment
moves it to its ready state (``ACTIVE``, ``available``), or to its error state when it
was made to fail:

* ``[simulated_cloud] fail_objects``: ``<kind>:<name glob>`` entries, e.g.
  ``nova.server:*-master-0`` or ``cinder.volume:*``;
* ``[simulated_cloud] fail_marker`` (default ``sim-fail``) inside the object's name.

A failed object carries ``fault: {'message': ..., 'code': 500}`` as Nova's servers do.
Objects that are ready at once in the real service (networks, ports, ...) fail at
create with a BadRequest instead.

    svc = SimService(context)
    obj = svc.create('server', 'vm1', {'flavor': {'id': '2'}}, building='BUILD',
                     ready='ACTIVE', failed='ERROR')
    svc.show('server', obj['id'])['status']        # 'ACTIVE' (build_time 0)
"""

import datetime
import fnmatch

from heat_lite.conf import CONF
from heat_lite.db import sim as sim_db
from heat_lite.engine.clients import client_exception

# keys kept in the row but not shown to callers
_NEXT_STATUS, _FAILED = "_next_status", "_failed"


def _now():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


def should_fail(kind, name):
    """Whether an object of ``kind`` named ``name`` is configured to fail."""
    name = name or ""
    marker = CONF.simulated_cloud.fail_marker
    if marker and marker in name:
        return True
    for entry in CONF.simulated_cloud.fail_objects:
        entry_kind, _, pattern = entry.partition(":")
        if entry_kind == kind and fnmatch.fnmatchcase(name, pattern or "*"):
            return True
    return False


def _visible(obj):
    return {k: v for k, v in obj.items() if not k.startswith("_") and k != "ready_at"}


class SimService:
    """A simulated service; ``service`` is the prefix of its kinds ('nova' -> 'nova.server')."""

    service = None
    # entity -> the name the service uses in its "not found" message
    entity_names = {}

    def __init__(self, context):
        self.context = context
        self.project_id = getattr(context, "project_id", None)

    def kind(self, entity):
        return "%s.%s" % (self.service, entity)

    def not_found(self, entity, name_or_id):
        label = self.entity_names.get(entity, entity)
        return client_exception.NotFound("%s %s could not be found." % (label, name_or_id))

    # -- generic operations --------------------------------------------------------------

    def create(
        self, entity, name, props, building=None, ready="ACTIVE", failed="ERROR", obj_id=None
    ):
        """Store a new object; with ``building`` it becomes ready (or fails) on a later read."""
        kind = self.kind(entity)
        fail = should_fail(kind, name)
        props = dict(props)
        if building is None:
            if fail:
                raise client_exception.BadRequest(
                    "Simulated failure of %s %s (failure on purpose)." % (kind, name)
                )
            status, ready_at = ready, None
        else:
            status = building
            ready_at = _now() + datetime.timedelta(seconds=CONF.simulated_cloud.build_time)
            props[_NEXT_STATUS] = failed if fail else ready
            props[_FAILED] = fail
        obj = sim_db.sim_object_create(
            kind, self.project_id, name, status, props, ready_at, obj_id=obj_id
        )
        return _visible(obj)

    def transition(self, entity, obj_id, building, ready, **props):
        """Put an existing object through a building state again (resize, attach, ...)."""
        ready_at = _now() + datetime.timedelta(seconds=CONF.simulated_cloud.build_time)
        props[_NEXT_STATUS] = ready
        obj = sim_db.sim_object_update(obj_id, status=building, properties=props, ready_at=ready_at)
        if obj is None:
            raise self.not_found(entity, obj_id)
        return _visible(obj)

    def _refresh(self, obj):
        ready_at = obj.get("ready_at")
        if ready_at is None or ready_at > _now():
            return obj
        props = {}
        if obj.get(_FAILED):
            props["fault"] = {
                "message": "Simulated failure of %s %s (failure on purpose)."
                % (obj["kind"], obj["name"]),
                "code": 500,
            }
        updated = sim_db.sim_object_update(
            obj["id"], status=obj[_NEXT_STATUS], properties=props, ready_at=None
        )
        return updated or obj

    def get(self, entity, obj_id):
        """The object, or None."""
        obj = sim_db.sim_object_get(obj_id, self.kind(entity))
        return None if obj is None else _visible(self._refresh(obj))

    def show(self, entity, obj_id):
        """The object; NotFound if there is none."""
        obj = self.get(entity, obj_id) if obj_id else None
        if obj is None:
            raise self.not_found(entity, obj_id)
        return obj

    def list(self, entity, **filters):
        objs = sim_db.sim_object_get_all(self.kind(entity), **filters)
        return [_visible(self._refresh(o)) for o in objs]

    def update(self, entity, obj_id, name=None, **props):
        obj = sim_db.sim_object_update(obj_id, properties=props, name=name)
        if obj is None:
            raise self.not_found(entity, obj_id)
        return _visible(obj)

    def set_status(self, entity, obj_id, status):
        return sim_db.sim_object_update(obj_id, status=status)

    def delete(self, entity, obj_id):
        """Remove the object; NotFound if it was gone already."""
        if not obj_id or not sim_db.sim_object_delete(obj_id):
            raise self.not_found(entity, obj_id)

    def find(self, entity, name_or_id, shared=None):
        """The object with that id, else the only one of this project with that name.

        ``shared(obj)`` marks other projects' objects that are visible too (e.g. external
        networks); without a project (no context) every object is visible.
        """
        obj = self.get(entity, name_or_id) if name_or_id else None
        if obj is not None:
            return obj
        matches = [
            o
            for o in self.list(entity, name=name_or_id)
            if self.project_id is None
            or o["project_id"] in (self.project_id, None)
            or (shared is not None and shared(o))
        ]
        if len(matches) > 1:
            raise client_exception.Conflict(
                "Multiple %s matches found for name '%s', use an ID to be more specific."
                % (self.entity_names.get(entity, entity), name_or_id)
            )
        if not matches:
            raise self.not_found(entity, name_or_id)
        return matches[0]
