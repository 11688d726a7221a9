"""/v1/clusters/{cluster}/nodegroups (>= 1.9): list, show, create and delete (CASTs), and
JSON-patch update of min/max node counts, node labels and taints."""

import pecan
import wsme
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite import objects
from magnum_lite.api import utils as api_utils
from magnum_lite.api import validation
from magnum_lite.api.controllers import base, link, versions
from magnum_lite.api.controllers.v1 import collection, listing, types
from magnum_lite.common import exception, policy, utils

LABEL_VALUE = types.MultiType(wtypes.text, int, bool, float)
BRIEF = (
    "uuid",
    "name",
    "flavor_id",
    "node_count",
    "role",
    "is_default",
    "image_id",
    "status",
    "stack_id",
    "links",
    "merge_labels",
    "min_node_count",
    "max_node_count",
)
TAINT_EFFECTS = ("NoSchedule", "PreferNoSchedule", "NoExecute")


class NodeGroupPatchType(types.JsonPatchType):
    @staticmethod
    def internal_attrs():
        return [
            "/name",
            "/cluster_id",
            "/project_id",
            "/docker_volume_size",
            "/labels",
            "/flavor_id",
            "/image_id",
            "/node_addresses",
            "/node_count",
            "/role",
            "/is_default",
            "/stack_id",
            "/status",
            "/status_reason",
            "/version",
        ]


class NodeGroup(base.APIBase):
    id = wsme.wsattr(types.integer(1), readonly=True)
    uuid = types.uuid
    name = wtypes.StringType(min_length=1, max_length=255)
    cluster_id = wsme.wsattr(wtypes.text, readonly=True)
    project_id = wsme.wsattr(wtypes.text, readonly=True)
    docker_volume_size = types.integer(1)
    labels = wtypes.DictType(wtypes.text, LABEL_VALUE)
    links = wsme.wsattr([link.Link], readonly=True)
    flavor_id = wtypes.StringType(min_length=1, max_length=255)
    image_id = wtypes.StringType(min_length=1, max_length=255)
    node_addresses = wsme.wsattr([wtypes.text], readonly=True)
    node_count = wsme.wsattr(types.integer(0), default=1)
    role = wsme.wsattr(wtypes.StringType(min_length=1, max_length=255), default="worker")
    max_node_count = wsme.wsattr(types.integer(0), default=None)
    min_node_count = wsme.wsattr(types.integer(0), default=0)
    is_default = wsme.wsattr(types.boolean, readonly=True)
    stack_id = wsme.wsattr(wtypes.text, readonly=True)
    status = wsme.wsattr(wtypes.text, readonly=True)
    status_reason = wsme.wsattr(wtypes.text, readonly=True)
    version = wsme.wsattr(wtypes.text, readonly=True)
    merge_labels = wsme.wsattr(types.boolean, default=False)
    labels_overridden = wsme.wsattr(wtypes.DictType(wtypes.text, wtypes.text), readonly=True)
    labels_added = wsme.wsattr(wtypes.DictType(wtypes.text, wtypes.text), readonly=True)
    labels_skipped = wsme.wsattr(wtypes.DictType(wtypes.text, wtypes.text), readonly=True)
    node_labels = wtypes.DictType(wtypes.text, wtypes.text)
    node_taints = [wtypes.DictType(wtypes.text, wtypes.text)]

    @classmethod
    def convert(cls, ng, cluster, expand=True):
        values = base.convert_datetimes(ng.as_dict())
        n = cls()
        for key, value in values.items():
            if hasattr(cls, key):
                setattr(n, key, value)
        n.merge_labels = False
        n.node_labels = ng.node_labels or {}
        n.node_taints = ng.node_taints or []
        n.links = link.self_and_bookmark("clusters/%s/nodegroups" % cluster.uuid, ng.uuid)
        if expand:
            n.labels_overridden, n.labels_added, n.labels_skipped = validation.labels_diff(
                ng.labels, cluster.labels
            )
        else:
            for attr in cls._wsme_attributes:
                if attr.name not in BRIEF:
                    setattr(n, attr.name, wtypes.Unset)
        return n


class NodeGroupCollection(collection.Collection):
    nodegroups = [NodeGroup]
    _type = "nodegroups"


def validate_nodegroup(ng):
    """min <= node_count <= max, label and taint rules (409, as Magnum)."""
    if ng.max_node_count is not None and ng.max_node_count < ng.min_node_count:
        raise exception.NodeGroupInvalidInput(
            attr="max_node_count", nodegroup=ng.name, expl="max_node_count < min_node_count"
        )
    if ng.node_count < ng.min_node_count or (
        ng.max_node_count is not None and ng.node_count > ng.max_node_count
    ):
        raise exception.NodeGroupInvalidInput(
            attr="node_count",
            nodegroup=ng.name,
            expl="node_count must be between min_node_count and max_node_count",
        )
    if ng.role == "master" and (ng.node_labels or ng.node_taints):
        raise exception.NodeGroupInvalidInput(
            attr="node_labels/node_taints",
            nodegroup=ng.name,
            expl="master nodegroups cannot have node labels or taints",
        )
    for taint in ng.node_taints or []:
        if not taint.get("key") or taint.get("effect") not in TAINT_EFFECTS:
            raise exception.NodeGroupInvalidInput(
                attr="node_taints",
                nodegroup=ng.name,
                expl="a taint needs a key and an effect in %s" % ", ".join(TAINT_EFFECTS),
            )


class NodeGroupController(rest.RestController):
    def _cluster(self, cluster_id, rule):
        versions.require(pecan.request, "1.9")
        context = pecan.request.context
        if context.is_admin:
            policy.enforce(context, rule, action=rule)
            context.all_tenants = True
        return api_utils.get_resource("Cluster", cluster_id)

    @wsme_pecan.wsexpose(
        NodeGroupCollection, wtypes.text, types.uuid, int, wtypes.text, wtypes.text, wtypes.text
    )
    def get_all(
        self, cluster_id, marker=None, limit=None, sort_key="id", sort_dir="asc", role=None
    ):
        cluster = self._cluster(cluster_id, "nodegroup:get_all_all_projects")
        context = pecan.request.context
        policy.enforce(context, "nodegroup:get_all", cluster.as_dict(), action="nodegroup:get_all")
        objs, limit, sort_dir = listing.page(
            lambda ctx, **kw: objects.NodeGroup.list(ctx, cluster.uuid, **kw),
            context,
            lambda m: objects.NodeGroup.get_by_uuid(context, cluster.uuid, m),
            marker,
            limit,
            sort_key,
            sort_dir,
            filters={"role": role} if role else None,
        )
        items = [NodeGroup.convert(o, cluster, expand=False) for o in objs]
        url = "clusters/%s/nodegroups" % cluster.uuid
        return listing.collection(NodeGroupCollection, items, limit, url, sort_key, sort_dir)

    @wsme_pecan.wsexpose(NodeGroup, wtypes.text, wtypes.text)
    def get_one(self, cluster_id, nodegroup_id):
        cluster = self._cluster(cluster_id, "nodegroup:get_one_all_projects")
        context = pecan.request.context
        policy.enforce(context, "nodegroup:get", cluster.as_dict(), action="nodegroup:get")
        ng = objects.NodeGroup.get(context, cluster.uuid, nodegroup_id)
        return NodeGroup.convert(ng, cluster)

    @wsme_pecan.wsexpose(NodeGroup, wtypes.text, body=NodeGroup, status_code=202)
    def post(self, cluster_id, nodegroup):
        cluster = self._cluster(cluster_id, "nodegroup:get_one_all_projects")
        context = pecan.request.context
        policy.enforce(context, "nodegroup:create", cluster.as_dict(), action="nodegroup:create")
        if nodegroup.role == "master":
            raise exception.CreateMasterNodeGroup()
        values = nodegroup.as_dict()
        merge_labels = values.pop("merge_labels", False)
        labels = {k: str(v) for k, v in (values.get("labels") or {}).items()}
        if not labels:
            labels = dict(cluster.labels or {})
        elif merge_labels:
            labels = dict(cluster.labels or {}, **labels)
        values.update(
            labels=labels,
            uuid=utils.generate_uuid(),
            cluster_id=cluster.uuid,
            project_id=context.project_id,
            image_id=values.get("image_id") or cluster.cluster_template.image_id,
            flavor_id=values.get("flavor_id") or cluster.flavor_id,
            docker_volume_size=values.get("docker_volume_size") or cluster.docker_volume_size,
            node_labels=values.get("node_labels") or {},
            node_taints=values.get("node_taints") or [],
            is_default=False,
        )
        ng = objects.NodeGroup(context, **values)
        validate_nodegroup(ng)
        try:
            objects.NodeGroup.get_by_name(context, cluster.uuid, ng.name)
        except exception.NodeGroupNotFound:
            pass
        else:
            raise exception.NodeGroupAlreadyExists(name=ng.name, cluster_id=cluster.name)
        pecan.request.rpcapi.nodegroup_create_async(cluster, ng)
        return NodeGroup.convert(ng, cluster)

    @wsme_pecan.wsexpose(
        NodeGroup, wtypes.text, wtypes.text, body=[NodeGroupPatchType], status_code=202
    )
    def patch(self, cluster_id, nodegroup_id, patch):
        cluster = self._cluster(cluster_id, "nodegroup:get_one_all_projects")
        context = pecan.request.context
        policy.enforce(context, "nodegroup:update", cluster.as_dict(), action="nodegroup:update")
        ng = objects.NodeGroup.get(context, cluster.uuid, nodegroup_id)
        doc = {
            k: getattr(ng, k)
            for k in ("min_node_count", "max_node_count", "node_labels", "node_taints")
        }
        doc = api_utils.apply_jsonpatch(doc, [types.literal(p) for p in patch])
        checked = NodeGroup(**doc)
        for key in doc:
            value = getattr(checked, key)
            setattr(ng, key, None if value is wtypes.Unset else value)
        validate_nodegroup(ng)
        pecan.request.rpcapi.nodegroup_update_async(cluster, ng)
        return NodeGroup.convert(ng, cluster)

    @wsme_pecan.wsexpose(None, wtypes.text, wtypes.text, status_code=204)
    def delete(self, cluster_id, nodegroup_id):
        cluster = self._cluster(cluster_id, "nodegroup:get_one_all_projects")
        context = pecan.request.context
        policy.enforce(context, "nodegroup:delete", cluster.as_dict(), action="nodegroup:delete")
        ng = objects.NodeGroup.get(context, cluster.uuid, nodegroup_id)
        if ng.is_default:
            raise exception.DeletingDefaultNGNotSupported()
        pecan.request.rpcapi.nodegroup_delete_async(cluster, ng)
