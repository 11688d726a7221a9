"""MagnumService: the heartbeat row of a conductor (``openstack coe service list``)."""

from magnum_lite.db import api as dbapi
from magnum_lite.db import models
from magnum_lite.objects import base, fields


@base.MagnumObjectRegistry.register
class MagnumService(base.MagnumPersistentObject, base.MagnumObject):
    VERSION = "1.0"

    fields = {
        "id": fields.IntegerField(),
        "host": fields.StringField(nullable=True),
        "binary": fields.StringField(nullable=True),
        "disabled": fields.BooleanField(default=False),
        "disabled_reason": fields.StringField(nullable=True),
        "last_seen_up": fields.DateTimeField(nullable=True),
        "forced_down": fields.BooleanField(default=False),
        "report_count": fields.IntegerField(default=0),
        **base.MagnumPersistentObject.fields,
    }

    @classmethod
    def get_by_host_and_binary(cls, context, host, binary):
        row = dbapi.magnum_service_get_by_host_and_binary(host, binary)
        return cls._from_db_object(cls(context), row) if row else None

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None, sort_dir=None):
        rows = dbapi.magnum_service_get_all(
            limit=limit, marker=marker, sort_key=sort_key, sort_dir=sort_dir
        )
        return cls._from_db_object_list(context, rows)

    def create(self, context=None):
        self._from_db_object(self, dbapi.magnum_service_create(self._db_changes()))

    def destroy(self, context=None):
        dbapi.magnum_service_destroy(self.id)

    def save(self, context=None):
        updates = self._db_changes()
        if updates:
            self._from_db_object(self, dbapi.magnum_service_update(self.id, updates))

    def report_state_up(self, context=None):
        self.report_count += 1
        self.last_seen_up = models.utcnow()
        self.save()
