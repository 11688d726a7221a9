"""Quota: a project's hard limit on a resource (only ``Cluster`` today)."""

from magnum_lite.db import api as dbapi
from magnum_lite.objects import base, fields


@base.MagnumObjectRegistry.register
class Quota(base.MagnumPersistentObject, base.MagnumObject):
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "project_id": fields.StringField(nullable=False),
        "resource": fields.StringField(nullable=False),
        "hard_limit": fields.IntegerField(nullable=False),
        **base.MagnumPersistentObject.fields,
    }

    @classmethod
    def get_quota_by_project_id_resource(cls, context, project_id, resource):
        row = dbapi.quota_get_by_project_id_resource(project_id, resource)
        return cls._from_db_object(cls(context), row)

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None, sort_dir=None, filters=None):
        rows = dbapi.quota_get_all(
            context, filters, limit=limit, marker=marker, sort_key=sort_key, sort_dir=sort_dir
        )
        return cls._from_db_object_list(context, rows)

    def create(self, context=None):
        self._from_db_object(self, dbapi.quota_create(self._db_changes()))

    def delete(self, context=None):
        dbapi.quota_destroy(self.project_id, self.resource)
        self.obj_reset_changes()

    destroy = delete

    @classmethod
    def update_quota(cls, context, project_id, quota):
        row = dbapi.quota_update(project_id, quota["resource"], {"hard_limit": quota["hard_limit"]})
        return cls._from_db_object(cls(context), row)
