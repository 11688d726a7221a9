"""ClusterTemplate: the blueprint a cluster is created from."""

from magnum_lite.common import utils
from magnum_lite.db import api as dbapi
from magnum_lite.objects import base, fields


@base.MagnumObjectRegistry.register
class ClusterTemplate(base.MagnumPersistentObject, base.MagnumObject):
    VERSION = "1.21"

    fields = {
        "id": fields.IntegerField(),
        "uuid": fields.UUIDField(nullable=True),
        "project_id": fields.StringField(nullable=True),
        "user_id": fields.StringField(nullable=True),
        "name": fields.StringField(nullable=True),
        "image_id": fields.StringField(nullable=True),
        "flavor_id": fields.StringField(nullable=True),
        "master_flavor_id": fields.StringField(nullable=True),
        "keypair_id": fields.StringField(nullable=True),
        "dns_nameserver": fields.StringField(nullable=True),
        "external_network_id": fields.StringField(nullable=True),
        "fixed_network": fields.StringField(nullable=True),
        "fixed_subnet": fields.StringField(nullable=True),
        "network_driver": fields.StringField(nullable=True),
        "volume_driver": fields.StringField(nullable=True),
        "apiserver_port": fields.IntegerField(nullable=True),
        "docker_volume_size": fields.IntegerField(nullable=True),
        "docker_storage_driver": fields.StringField(nullable=True),
        "cluster_distro": fields.StringField(nullable=True),
        "coe": fields.StringField(nullable=True),
        "http_proxy": fields.StringField(nullable=True),
        "https_proxy": fields.StringField(nullable=True),
        "no_proxy": fields.StringField(nullable=True),
        "registry_enabled": fields.BooleanField(default=False),
        "labels": fields.DictOfStringsField(nullable=True),
        "tls_disabled": fields.BooleanField(default=False),
        "public": fields.BooleanField(default=False),
        "server_type": fields.StringField(nullable=True),
        "insecure_registry": fields.StringField(nullable=True),
        "master_lb_enabled": fields.BooleanField(default=False),
        "floating_ip_enabled": fields.BooleanField(default=True),
        "hidden": fields.BooleanField(default=False),
        "tags": fields.StringField(nullable=True),
        "driver": fields.StringField(nullable=True),
        **base.MagnumPersistentObject.fields,
    }

    @classmethod
    def get(cls, context, cluster_template_id):
        """By id (int), uuid or name."""
        if isinstance(cluster_template_id, int) or str(cluster_template_id).isdigit():
            return cls.get_by_id(context, int(cluster_template_id))
        if utils.is_uuid_like(cluster_template_id):
            return cls.get_by_uuid(context, cluster_template_id)
        return cls.get_by_name(context, cluster_template_id)

    @classmethod
    def get_by_id(cls, context, cluster_template_id):
        row = dbapi.cluster_template_get_by_id(context, cluster_template_id)
        return cls._from_db_object(cls(context), row)

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._from_db_object(cls(context), dbapi.cluster_template_get_by_uuid(context, uuid))

    @classmethod
    def get_by_name(cls, context, name):
        return cls._from_db_object(cls(context), dbapi.cluster_template_get_by_name(context, name))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None, sort_dir=None, filters=None):
        rows = dbapi.cluster_template_get_all(
            context, filters, limit=limit, marker=marker, sort_key=sort_key, sort_dir=sort_dir
        )
        return cls._from_db_object_list(context, rows)

    def create(self, context=None):
        row = dbapi.cluster_template_create(self._db_changes())
        self._from_db_object(self, row)

    def destroy(self, context=None):
        dbapi.cluster_template_destroy(self.id)
        self.obj_reset_changes()

    def save(self, context=None):
        updates = self._db_changes()
        if updates:
            self._from_db_object(self, dbapi.cluster_template_update(self.id, updates))

    def refresh(self, context=None):
        self._refresh_from(self.get_by_uuid(None, self.uuid))

    def is_referenced(self):
        return dbapi.cluster_template_is_referenced(self.uuid)
