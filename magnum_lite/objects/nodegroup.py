"""NodeGroup: a group of identical nodes of a cluster (default-master, default-worker, ...).

default_nodegroups(ctx, cluster, master_count=1, node_count=2)   # a new cluster's two
"""

from magnum_lite.common import utils
from magnum_lite.db import api as dbapi
from magnum_lite.objects import base, fields


@base.MagnumObjectRegistry.register
class NodeGroup(base.MagnumPersistentObject, base.MagnumObject):
    VERSION = "1.1"

    fields = {
        "id": fields.IntegerField(),
        "uuid": fields.UUIDField(),
        "name": fields.StringField(),
        "cluster_id": fields.StringField(),
        "project_id": fields.StringField(),
        "docker_volume_size": fields.IntegerField(nullable=True),
        "labels": fields.DictOfStringsField(nullable=True),
        "flavor_id": fields.StringField(nullable=True),
        "image_id": fields.StringField(nullable=True),
        "node_addresses": fields.ListOfStringsField(nullable=True),
        "node_count": fields.IntegerField(nullable=False, default=1),
        "role": fields.StringField(),
        "max_node_count": fields.IntegerField(nullable=True),
        "min_node_count": fields.IntegerField(nullable=False, default=0),
        "is_default": fields.BooleanField(default=False),
        "stack_id": fields.StringField(nullable=True),
        "status": fields.StringField(nullable=True),
        "status_reason": fields.StringField(nullable=True),
        "version": fields.StringField(nullable=True),
        "node_labels": fields.DictOfStringsField(nullable=True),
        "node_taints": fields.ListOfDictOfNullableStringsField(nullable=True),
        **base.MagnumPersistentObject.fields,
    }

    @classmethod
    def get(cls, context, cluster_id, nodegroup_id):
        """By id (int), uuid or name, inside the cluster with uuid ``cluster_id``."""
        if isinstance(nodegroup_id, int) or str(nodegroup_id).isdigit():
            return cls.get_by_id(context, cluster_id, int(nodegroup_id))
        if utils.is_uuid_like(nodegroup_id):
            return cls.get_by_uuid(context, cluster_id, nodegroup_id)
        return cls.get_by_name(context, cluster_id, nodegroup_id)

    @classmethod
    def get_by_id(cls, context, cluster_id, nodegroup_id):
        row = dbapi.nodegroup_get_by_id(context, cluster_id, nodegroup_id)
        return cls._from_db_object(cls(context), row)

    @classmethod
    def get_by_uuid(cls, context, cluster_id, uuid):
        row = dbapi.nodegroup_get_by_uuid(context, cluster_id, uuid)
        return cls._from_db_object(cls(context), row)

    @classmethod
    def get_by_name(cls, context, cluster_id, name):
        row = dbapi.nodegroup_get_by_name(context, cluster_id, name)
        return cls._from_db_object(cls(context), row)

    @classmethod
    def list(
        cls,
        context,
        cluster_id,
        limit=None,
        marker=None,
        sort_key=None,
        sort_dir=None,
        filters=None,
    ):
        rows = dbapi.nodegroup_get_all(
            context,
            cluster_id,
            filters,
            limit=limit,
            marker=marker,
            sort_key=sort_key,
            sort_dir=sort_dir,
        )
        return cls._from_db_object_list(context, rows)

    @classmethod
    def list_of_clusters(cls, context, cluster_ids):
        """{cluster uuid: its nodegroups (by id)} for the clusters ``cluster_ids``."""
        found = {cluster_id: [] for cluster_id in cluster_ids}
        for row in dbapi.nodegroup_get_all_of_clusters(list(found)):
            found[row["cluster_id"]].append(cls._from_db_object(cls(context), row))
        return found

    def create(self, context=None):
        self._from_db_object(self, dbapi.nodegroup_create(self._db_changes()))

    def destroy(self, context=None):
        dbapi.nodegroup_destroy(self.cluster_id, self.id)
        self.obj_reset_changes()

    def save(self, context=None):
        updates = self._db_changes()
        if updates:
            row = dbapi.nodegroup_update(self.cluster_id, self.id, updates)
            self._from_db_object(self, row)

    def refresh(self, context=None):
        self._refresh_from(self.get_by_uuid(self._context, self.cluster_id, self.uuid))

    def as_dict(self):
        return super().as_dict()


def _label_int(labels, key):
    value = (labels or {}).get(key)
    return int(value) if value not in (None, "") else None


def _value(obj, name):
    return getattr(obj, name) if obj.obj_attr_is_set(name) else None


def default_nodegroups(context, cluster, master_count, node_count):
    """``default-master`` and ``default-worker`` of a new (not yet stored) cluster."""
    template = cluster.cluster_template
    labels = _value(cluster, "labels") or {}
    common = dict(
        cluster_id=cluster.uuid,
        project_id=cluster.project_id,
        image_id=template.image_id,
        docker_volume_size=_value(cluster, "docker_volume_size") or template.docker_volume_size,
        is_default=True,
        status=fields.ClusterStatus.CREATE_IN_PROGRESS,
        node_addresses=[],
        node_labels={},
        node_taints=[],
    )
    master = NodeGroup(
        context,
        uuid=utils.generate_uuid(),
        name="default-master",
        role="master",
        node_count=master_count,
        min_node_count=1,
        labels=dict(labels),
        flavor_id=_value(cluster, "master_flavor_id") or template.master_flavor_id,
        **common,
    )
    worker = NodeGroup(
        context,
        uuid=utils.generate_uuid(),
        name="default-worker",
        role="worker",
        node_count=node_count,
        labels=dict(labels),
        min_node_count=_label_int(labels, "min_node_count") or 0,
        max_node_count=_label_int(labels, "max_node_count"),
        flavor_id=_value(cluster, "flavor_id") or template.flavor_id,
        **common,
    )
    return [master, worker]
