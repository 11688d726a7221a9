"""What every simulated service shares: objects in ``sim_object``, states, failure on purpose,
project scoping.

An object is created in its building state (``BUILD``, ``creating``, ``PENDING_CREATE``)
with ``ready_at = now + build_time``; the first read after that moment moves it to its
ready state (``ACTIVE``, ``available``), or to its error state when it was made to fail
(cloud/injection.py). A failed object carries ``fault: {'message': ..., 'code': 500}`` as
Nova's servers do. Objects that are ready at once in the real service (networks, ports,
...) fail at create with a BadRequest instead.

Scoping: ``show`` and ``list_visible`` see the caller's project's objects and shared ones
(``shared(obj)``); an admin sees every object by id; another project's object is "not
found", as the real services answer.

    svc = SimService(ctx)
    obj = svc.create('server', 'vm1', {'flavor': {'id': '2'}}, building='BUILD')
    svc.show('server', obj['id'])['status']        # 'ACTIVE' (build_time 0)
    svc.list_visible('server')                     # the caller's project's servers
"""

import datetime
import uuid

from simcloud.cloud import injection
from simcloud.common import exception
from simcloud.db import objects as db

# keys kept in the row but not shown to callers
_NEXT_STATUS, _FAILED = "_next_status", "_failed"
_HIDDEN = ("ready_at", "kind")

# ids of seeded objects are derived from their names: every process agrees on them
SIM_NAMESPACE = uuid.UUID("3f1c7d2e-5b8a-4c6f-9e21-6a0d4b8c2f11")


def seeded_id(kind, name):
    return str(uuid.uuid5(SIM_NAMESPACE, "%s:%s" % (kind, name)))


def _now():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


def _visible(obj):
    return {k: v for k, v in obj.items() if not k.startswith("_") and k not in _HIDDEN}


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
        return exception.NotFound("%s %s could not be found." % (label, name_or_id), kind=entity)

    def shared(self, obj):
        """Whether another project's object is visible to every project."""
        return False

    def can_see(self, obj):
        ctx = self.context
        return (
            ctx is None
            or ctx.is_admin
            or obj.get("project_id") in (ctx.project_id, None)
            or self.shared(obj)
        )

    # -- generic operations --------------------------------------------------------------

    def create(
        self, entity, name, props, building=None, ready="ACTIVE", failed="ERROR", obj_id=None
    ):
        """Store a new object; with ``building`` it becomes ready (or fails) on a later read."""
        kind = self.kind(entity)
        fail = injection.should_fail(kind, name)
        props = dict(props)
        if building is None:
            if fail:
                raise exception.BadRequest(
                    "Simulated failure of %s %s (failure on purpose)." % (kind, name)
                )
            status, ready_at = ready, None
        else:
            status = building
            ready_at = _now() + datetime.timedelta(seconds=injection.current()["build_time"])
            props[_NEXT_STATUS] = failed if fail else ready
            props[_FAILED] = fail
        obj = db.create(kind, self.project_id, name, status, props, ready_at, obj_id=obj_id)
        return _visible(obj)

    def transition(self, entity, obj_id, building, ready, **props):
        """Put an existing object through a building state again (resize, attach, ...)."""
        build_time = injection.current()["build_time"]
        ready_at = _now() + datetime.timedelta(seconds=build_time)
        props[_NEXT_STATUS] = ready
        obj = db.update(obj_id, status=building, properties=props, ready_at=ready_at)
        if obj is None:
            raise self.not_found(entity, obj_id)
        return _visible(self._refresh(obj))

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
        updated = db.update(obj["id"], status=obj[_NEXT_STATUS], properties=props, ready_at=None)
        return updated or obj

    def get(self, entity, obj_id):
        """The object whatever its project, or None."""
        obj = db.get(obj_id, self.kind(entity)) if obj_id else None
        return None if obj is None else _visible(self._refresh(obj))

    def show(self, entity, obj_id):
        """The object if the caller may see it; NotFound otherwise."""
        obj = self.get(entity, obj_id)
        if obj is None or not self.can_see(obj):
            raise self.not_found(entity, obj_id)
        return obj

    def list(self, entity, **filters):
        """Every object of ``entity`` matching ``filters``, whatever its project."""
        objs = db.get_all(self.kind(entity), **filters)
        return [_visible(self._refresh(o)) for o in objs]

    def list_mentioning(self, entity, value):
        """Every object of ``entity`` whose properties hold the string ``value`` somewhere
        (e.g. in a list); the caller tests where."""
        return [_visible(self._refresh(o)) for o in db.get_all_mentioning(self.kind(entity), value)]

    def list_visible(self, entity, all_projects=False, **filters):
        """The caller's (and shared) objects; an admin's ``all_projects``: every object."""
        objs = self.list(entity, **filters)
        if all_projects and self.context is not None and self.context.is_admin:
            return objs
        ctx = self.context
        return [
            o
            for o in objs
            if ctx is None or o.get("project_id") in (ctx.project_id, None) or self.shared(o)
        ]

    def update(self, entity, obj_id, name=None, remove=(), **props):
        obj = db.update(obj_id, properties=props, name=name, remove=remove)
        if obj is None:
            raise self.not_found(entity, obj_id)
        return _visible(obj)

    def set_status(self, entity, obj_id, status, **props):
        """The object's status, and ``props`` merged in, in one write (not a set_status and
        an update: two transactions); the object as it is now, NotFound if it is gone."""
        obj = db.update(obj_id, status=status, properties=props)
        if obj is None:
            raise self.not_found(entity, obj_id)
        return _visible(obj)

    def delete(self, entity, obj_id):
        """Remove the object; NotFound if it was gone already."""
        if not obj_id or not db.delete(obj_id):
            raise self.not_found(entity, obj_id)
