"""Magnum's versioned objects (oslo.versionedobjects): rows with change tracking that
travel over RPC as themselves.

    cluster = objects.Cluster.get_by_uuid(ctx, uuid)
    cluster.status = fields.ClusterStatus.CREATE_COMPLETE
    cluster.save()                        # writes only the changed fields
"""

from oslo_versionedobjects import base as ovo_base
from oslo_versionedobjects import fields as ovo_fields


class MagnumObjectRegistry(ovo_base.VersionedObjectRegistry):
    pass


class MagnumObject(ovo_base.VersionedObject):
    OBJ_SERIAL_NAMESPACE = "magnum_object"
    OBJ_PROJECT_NAMESPACE = "magnum"

    # fields not stored in this object's own table (loaded lazily or derived)
    _db_exclude = ()

    def as_dict(self):
        return {k: getattr(self, k) for k in self.fields if self.obj_attr_is_set(k)}

    @classmethod
    def _from_db_object(cls, obj, db_row):
        """Copy a db row (dict) into ``obj`` and forget the changes."""
        for name in obj.fields:
            if name not in obj._db_exclude and name in db_row:
                setattr(obj, name, db_row[name])
        obj.obj_reset_changes()
        return obj

    @classmethod
    def _from_db_object_list(cls, context, rows):
        return [cls._from_db_object(cls(context), row) for row in rows]

    def _db_changes(self):
        return {k: v for k, v in self.obj_get_changes().items() if k not in self._db_exclude}

    def _refresh_from(self, fresh):
        for name in self.fields:
            if name not in self._db_exclude and fresh.obj_attr_is_set(name):
                setattr(self, name, getattr(fresh, name))
        self.obj_reset_changes()


class MagnumPersistentObject:
    """created_at / updated_at on every stored object."""

    fields = {
        "created_at": ovo_fields.DateTimeField(nullable=True),
        "updated_at": ovo_fields.DateTimeField(nullable=True),
    }


class MagnumObjectSerializer(ovo_base.VersionedObjectSerializer):
    OBJ_BASE_CLASS = MagnumObject
