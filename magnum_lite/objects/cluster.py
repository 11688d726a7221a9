"""Cluster: one Kubernetes cluster; node counts and addresses live on its nodegroups.

cluster = Cluster.get_by_uuid(ctx, uuid)
cluster.cluster_template.coe          # loaded on first use
cluster.default_ng_worker.node_count
cluster.node_addresses                # all worker nodegroups' addresses
"""

from magnum_lite.common import exception, utils
from magnum_lite.db import api as dbapi
from magnum_lite.objects import base, fields
from magnum_lite.objects.cluster_template import ClusterTemplate
from magnum_lite.objects.nodegroup import NodeGroup


@base.MagnumObjectRegistry.register
class Cluster(base.MagnumPersistentObject, base.MagnumObject):
    VERSION = "1.23"

    _db_exclude = ("cluster_template",)

    fields = {
        "id": fields.IntegerField(),
        "uuid": fields.UUIDField(nullable=True),
        "name": fields.StringField(nullable=True),
        "project_id": fields.StringField(nullable=True),
        "user_id": fields.StringField(nullable=True),
        "cluster_template_id": fields.StringField(nullable=True),
        "keypair": fields.StringField(nullable=True),
        "docker_volume_size": fields.IntegerField(nullable=True),
        "labels": fields.DictOfStringsField(nullable=True),
        "master_flavor_id": fields.StringField(nullable=True),
        "flavor_id": fields.StringField(nullable=True),
        "stack_id": fields.StringField(nullable=True),
        "status": fields.StringField(nullable=True),
        "status_reason": fields.StringField(nullable=True),
        "health_status": fields.StringField(nullable=True),
        "health_status_reason": fields.DictOfStringsField(nullable=True),
        "create_timeout": fields.IntegerField(nullable=True),
        "api_address": fields.StringField(nullable=True),
        "discovery_url": fields.StringField(nullable=True),
        "ca_cert_ref": fields.StringField(nullable=True),
        "magnum_cert_ref": fields.StringField(nullable=True),
        "etcd_ca_cert_ref": fields.StringField(nullable=True),
        "front_proxy_ca_cert_ref": fields.StringField(nullable=True),
        "cluster_template": fields.ObjectField("ClusterTemplate"),
        "trustee_username": fields.StringField(nullable=True),
        "trustee_password": fields.StringField(nullable=True),
        "trustee_user_id": fields.StringField(nullable=True),
        "trust_id": fields.StringField(nullable=True),
        "coe_version": fields.StringField(nullable=True),
        "container_version": fields.StringField(nullable=True),
        "fixed_network": fields.StringField(nullable=True),
        "fixed_subnet": fields.StringField(nullable=True),
        "floating_ip_enabled": fields.BooleanField(default=True),
        "master_lb_enabled": fields.BooleanField(default=False),
        **base.MagnumPersistentObject.fields,
    }

    def obj_load_attr(self, attrname):
        if attrname != "cluster_template":
            raise NotImplementedError("Cannot load '%s' of a Cluster" % attrname)
        # the template of a cluster stays readable to it, whatever the template's visibility
        template = ClusterTemplate.get_by_uuid(None, self.cluster_template_id)
        template._context = self._context
        self.cluster_template = template
        self.obj_reset_changes(["cluster_template"])

    # ---- nodegroups -----------------------------------------------------------------------

    @property
    def nodegroups(self):
        return NodeGroup.list(self._context, self.uuid)

    def _default_ng(self, role):
        ngs = NodeGroup.list(self._context, self.uuid, filters={"role": role, "is_default": True})
        return ngs[0] if ngs else None

    @property
    def default_ng_worker(self):
        return self._default_ng("worker")

    @property
    def default_ng_master(self):
        return self._default_ng("master")

    @property
    def node_count(self):
        return _node_fields(self.nodegroups, False)["node_count"]

    @property
    def master_count(self):
        return _node_fields(self.nodegroups, True)["master_count"]

    @property
    def node_addresses(self):
        return _node_fields(self.nodegroups, False)["node_addresses"]

    @property
    def master_addresses(self):
        return _node_fields(self.nodegroups, True)["master_addresses"]

    # ---- lookups --------------------------------------------------------------------------

    @classmethod
    def get(cls, context, cluster_id):
        """By id (int) or uuid."""
        if isinstance(cluster_id, int) or str(cluster_id).isdigit():
            return cls.get_by_id(context, int(cluster_id))
        if utils.is_uuid_like(cluster_id):
            return cls.get_by_uuid(context, cluster_id)
        raise exception.InvalidIdentity(identity=cluster_id)

    @classmethod
    def get_by_id(cls, context, cluster_id):
        return cls._from_db_object(cls(context), dbapi.cluster_get_by_id(context, cluster_id))

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._from_db_object(cls(context), dbapi.cluster_get_by_uuid(context, uuid))

    @classmethod
    def get_by_name(cls, context, name):
        return cls._from_db_object(cls(context), dbapi.cluster_get_by_name(context, name))

    @classmethod
    def list(cls, context, limit=None, marker=None, sort_key=None, sort_dir=None, filters=None):
        rows = dbapi.cluster_get_all(
            context, filters, limit=limit, marker=marker, sort_key=sort_key, sort_dir=sort_dir
        )
        return cls._from_db_object_list(context, rows)

    @staticmethod
    def uuids_of_stack(stack_id):
        """The uuids of the clusters whose stack, or a nodegroup's, is ``stack_id``."""
        return dbapi.cluster_uuids_of_stack(stack_id)

    @classmethod
    def get_count_all(cls, context, filters=None):
        return dbapi.cluster_count_all(context, filters)

    @staticmethod
    def get_stats(context, project_id=None):
        return dbapi.cluster_get_stats(context, project_id)

    # ---- writes ---------------------------------------------------------------------------

    def create(self, context=None, nodegroups=None, check_quota=False):
        """Store the cluster; ``nodegroups`` (new NodeGroup objects) in the same transaction;
        ``check_quota``: refused at the project's cluster quota (db_api.cluster_create)."""
        if not nodegroups:
            row = dbapi.cluster_create(self._db_changes(), check_quota=check_quota)
            self._from_db_object(self, row)
            return
        row, ng_rows = dbapi.cluster_create(
            self._db_changes(), [ng._db_changes() for ng in nodegroups], check_quota=check_quota
        )
        self._from_db_object(self, row)
        for ng, ng_row in zip(nodegroups, ng_rows, strict=True):
            ng._from_db_object(ng, ng_row)

    def destroy(self, context=None):
        dbapi.cluster_destroy(self.id)
        self.obj_reset_changes()

    def save(self, context=None):
        updates = self._db_changes()
        if updates:
            self._from_db_object(self, dbapi.cluster_update(self.id, updates))

    def save_if_status(self, status, without_stack=False):
        """Store the changes only while the stored status is ``status`` (and, with
        ``without_stack``, no stack is recorded): False, storing nothing, when the row is
        gone or changed (a delete took it over, the create recorded its stack)."""
        row = dbapi.cluster_update_if_status(self.id, self._db_changes(), status, without_stack)
        if row is None:
            return False
        self._from_db_object(self, row)
        return True

    def store_certificates(self, refs, replaced=()):
        """Store the new key pairs of ``refs`` ({ref field: X509KeyPair not created yet})
        with this cluster's refs to them, and delete the rows ``replaced``, at once and
        only while the stored status is this cluster's: False, storing nothing, when the
        row is gone or changed (a delete took it over)."""
        rows = {field: pair.db_values() for field, pair in refs.items()}
        row = dbapi.cluster_certificates_store(self.id, self.status, rows, replaced)
        if row is None:
            return False
        self._from_db_object(self, row)
        return True

    def refresh(self, context=None):
        self._refresh_from(self.get_by_uuid(None, self.uuid))

    def as_dict(self, nodegroups=None):
        """The fields, with the counts and addresses of ``nodegroups`` (the cluster's,
        read once, when not given)."""
        d = {k: getattr(self, k) for k in self.fields if k != "cluster_template"}
        ngs = self.nodegroups if nodegroups is None else nodegroups
        d.update(_node_fields(ngs, False), **_node_fields(ngs, True))
        return d


def _node_fields(nodegroups, master):
    """node_count and node_addresses of the worker nodegroups (master: master_count and
    master_addresses of the master ones)."""
    ngs = [ng for ng in nodegroups if (ng.role == "master") == master]
    prefix = "master" if master else "node"
    return {
        prefix + "_count": sum(ng.node_count for ng in ngs),
        prefix + "_addresses": [a for ng in ngs for a in ng.node_addresses or []],
    }
