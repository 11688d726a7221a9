"""/v1/clusters: create (202 + uuid, a CAST), list, detail, show, PATCH, delete; resize and
upgrade live in cluster_actions.py, nodegroups in nodegroup.py."""

import pecan
import wsme
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite import objects
from magnum_lite.api import utils as api_utils
from magnum_lite.api import validation
from magnum_lite.api.controllers import base, link
from magnum_lite.api.controllers.v1 import cluster_actions, collection, listing, nodegroup, types
from magnum_lite.common import exception, policy, utils
from magnum_lite.objects import fields

LABEL_VALUE = types.MultiType(wtypes.text, int, bool, float)
NAME = wtypes.StringType(min_length=1, max_length=242, pattern="^[a-zA-Z][a-zA-Z0-9_.-]*$")
BRIEF = (
    "uuid",
    "name",
    "cluster_template_id",
    "keypair",
    "docker_volume_size",
    "labels",
    "node_count",
    "status",
    "master_flavor_id",
    "flavor_id",
    "create_timeout",
    "master_count",
    "health_status",
    "stack_id",
    "cluster_id",
    "links",
    "merge_labels",
)
PATCHABLE = ("node_count", "health_status", "health_status_reason")


class ClusterPatchType(types.JsonPatchType):
    @staticmethod
    def internal_attrs():
        return [
            "/api_address",
            "/node_addresses",
            "/master_addresses",
            "/stack_id",
            "/cluster_id",
            "/ca_cert_ref",
            "/magnum_cert_ref",
            "/etcd_ca_cert_ref",
            "/front_proxy_ca_cert_ref",
        ]

    @staticmethod
    def non_removable_attrs():
        return ["/cluster_template_id"]


class Cluster(base.APIBase):
    uuid = types.uuid
    name = NAME
    cluster_template_id = wsme.wsattr(wtypes.text, mandatory=True)
    keypair = wsme.wsattr(wtypes.StringType(min_length=1, max_length=255), default=None)
    node_count = wsme.wsattr(types.integer(0), default=1)
    master_count = wsme.wsattr(types.integer(1), default=1)
    docker_volume_size = types.integer(1)
    labels = wtypes.DictType(wtypes.text, LABEL_VALUE)
    master_flavor_id = wtypes.StringType(min_length=1, max_length=255)
    flavor_id = wtypes.StringType(min_length=1, max_length=255)
    create_timeout = wsme.wsattr(types.integer(0), default=60)
    links = wsme.wsattr([link.Link], readonly=True)
    stack_id = wsme.wsattr(wtypes.text, readonly=True)
    cluster_id = wsme.wsattr(wtypes.text, readonly=True)
    status = wtypes.Enum(wtypes.text, *fields.ClusterStatus.ALL)
    status_reason = wtypes.text
    health_status = wtypes.Enum(wtypes.text, *fields.ClusterHealthStatus.ALL)
    health_status_reason = wtypes.DictType(wtypes.text, wtypes.text)
    discovery_url = wtypes.text
    api_address = wsme.wsattr(wtypes.text, readonly=True)
    node_addresses = wsme.wsattr([wtypes.text], readonly=True)
    master_addresses = wsme.wsattr([wtypes.text], readonly=True)
    coe_version = wsme.wsattr(wtypes.text, readonly=True)
    container_version = wsme.wsattr(wtypes.text, readonly=True)
    fixed_network = wtypes.StringType(min_length=1, max_length=255)
    fixed_subnet = wtypes.StringType(min_length=1, max_length=255)
    floating_ip_enabled = wsme.wsattr(types.boolean, default=None)
    master_lb_enabled = wsme.wsattr(types.boolean, default=None)
    merge_labels = wsme.wsattr(types.boolean, default=False)
    labels_overridden = wsme.wsattr(wtypes.DictType(wtypes.text, wtypes.text), readonly=True)
    labels_added = wsme.wsattr(wtypes.DictType(wtypes.text, wtypes.text), readonly=True)
    labels_skipped = wsme.wsattr(wtypes.DictType(wtypes.text, wtypes.text), readonly=True)
    faults = wsme.wsattr(wtypes.DictType(wtypes.text, wtypes.text), readonly=True)
    project_id = wsme.wsattr(wtypes.text, readonly=True)
    user_id = wsme.wsattr(wtypes.text, readonly=True)

    @classmethod
    def convert_with_links(cls, cluster, expand=True, nodegroups=None):
        """``nodegroups``: the cluster's, when the caller read them already."""
        if nodegroups is None:
            nodegroups = cluster.nodegroups
        values = base.convert_datetimes(cluster.as_dict(nodegroups))
        values.pop("id", None)
        c = cls()
        for key, value in values.items():
            if hasattr(cls, key) and not key.startswith("trust"):
                setattr(c, key, value)
        c.merge_labels = False
        ident = "cluster_id" if pecan.request.version >= "1.13" else "stack_id"
        setattr(c, ident, cluster.stack_id)
        setattr(c, "stack_id" if ident == "cluster_id" else "cluster_id", wtypes.Unset)
        c.links = link.self_and_bookmark("clusters", cluster.uuid)
        if not expand:
            for key in list(c._wsme_attributes):
                if key.name not in BRIEF:
                    setattr(c, key.name, wtypes.Unset)
            return c
        _detail(c, cluster, nodegroups)
        return c


def _nodegroups(cluster):
    """The nodegroups of ``cluster``, read once. A cluster is stored with its nodegroups and
    deleted with them in one transaction, so none means it was deleted after its row was read:
    404, as the next read would answer (not a cluster shown with master_count 0)."""
    nodegroups = cluster.nodegroups
    if not nodegroups:
        raise exception.ClusterNotFound(cluster=cluster.uuid)
    return nodegroups


def _detail(c, cluster, nodegroups):
    template = cluster.cluster_template
    c.labels_overridden, c.labels_added, c.labels_skipped = validation.labels_diff(
        cluster.labels, template.labels
    )
    if cluster.status in fields.ClusterStatus.STATUS_FAILED:
        c.faults = {
            ng.name: ng.status_reason
            for ng in nodegroups
            if ng.status in fields.ClusterStatus.STATUS_FAILED
        }
    for key in ("health_status_reason", "labels"):
        if getattr(c, key) is None:
            setattr(c, key, {})


class ClusterCollection(collection.Collection):
    clusters = [Cluster]
    _type = "clusters"


def _accepted(uuid):
    pecan.response.status = 202
    return types.ClusterID(uuid)


class ClustersController(rest.RestController):
    _custom_actions = {"detail": ["GET"]}

    actions = cluster_actions.ActionsController()
    nodegroups = nodegroup.NodeGroupController()

    def _list(self, marker, limit, sort_key, sort_dir, url, rule, expand):
        context = pecan.request.context
        policy.enforce(context, rule, action=rule)
        if context.is_admin:
            policy.enforce(context, rule + "_all_projects", action=rule + "_all_projects")
            context.all_tenants = True
        objs, limit, sort_dir = listing.page(
            objects.Cluster.list,
            context,
            lambda m: objects.Cluster.get_by_uuid(context, m),
            marker,
            limit,
            sort_key,
            sort_dir,
        )
        # every listed cluster's nodegroups in one query (not 4 per cluster)
        nodegroups = objects.NodeGroup.list_of_clusters(context, [o.uuid for o in objs])
        items = [
            Cluster.convert_with_links(o, expand=expand, nodegroups=nodegroups[o.uuid])
            for o in objs
            if nodegroups[o.uuid]  # none: deleted since the page was read (see _nodegroups)
        ]
        return listing.collection(ClusterCollection, items, limit, url, sort_key, sort_dir)

    @wsme_pecan.wsexpose(ClusterCollection, types.uuid, int, wtypes.text, wtypes.text)
    def get_all(self, marker=None, limit=None, sort_key="id", sort_dir="asc"):
        return self._list(marker, limit, sort_key, sort_dir, None, "cluster:get_all", False)

    @wsme_pecan.wsexpose(ClusterCollection, types.uuid, int, wtypes.text, wtypes.text)
    def detail(self, marker=None, limit=None, sort_key="id", sort_dir="asc"):
        return self._list(
            marker, limit, sort_key, sort_dir, "clusters/detail", "cluster:detail", True
        )

    @wsme_pecan.wsexpose(Cluster, wtypes.text)
    def get_one(self, cluster_ident):
        cluster = validation.get_cluster(cluster_ident)
        nodegroups = _nodegroups(cluster)
        context = pecan.request.context
        policy.enforce(context, "cluster:get", cluster.as_dict(nodegroups), action="cluster:get")
        return Cluster.convert_with_links(cluster, nodegroups=nodegroups)

    @wsme_pecan.wsexpose(types.ClusterID, body=Cluster, status_code=202)
    def post(self, cluster):
        """Create a cluster: Magnum's checks in Magnum's order, then a CAST."""
        context = pecan.request.context
        validation.check_node_count(cluster.node_count)
        template = validation.get_template(cluster.cluster_template_id)
        validation.check_driver(template, cluster.master_count, cluster.docker_volume_size)
        policy.enforce(context, "cluster:create", action="cluster:create")
        validation.check_quota(context)
        validation.check_hidden(context, template)
        values = cluster.as_dict()
        merge_labels = values.pop("merge_labels", False)
        node_count, master_count = values.pop("node_count"), values.pop("master_count")
        create_timeout = values["create_timeout"]
        validation.apply_template_defaults(values, template, merge_labels)
        validation.check_os_resources(context, values, template)
        validation.check_master_lb(values, master_count)
        values.setdefault("name", None)
        values["name"] = values["name"] or utils.generate_name("cluster")
        values.update(
            uuid=utils.generate_uuid(),
            project_id=context.project_id,
            user_id=context.user_id,
            coe_version=None,
            container_version=None,
            status=fields.ClusterStatus.CREATE_IN_PROGRESS,
        )
        new_cluster = objects.Cluster(context, **values)
        # stored before the 202 (the template's foreign key checked in the same insert):
        # a template delete or a cluster delete that follows sees the cluster. The quota is
        # counted again there, under the project's lock: check_quota above is Magnum's
        # early answer, which creates running side by side would all pass
        new_cluster.create(
            nodegroups=objects.nodegroup.default_nodegroups(
                context, new_cluster, master_count, node_count
            ),
            check_quota=True,
        )
        pecan.request.rpcapi.cluster_create_async(
            new_cluster, master_count, node_count, create_timeout
        )
        return types.ClusterID(new_cluster.uuid)

    @wsme_pecan.wsexpose(
        types.ClusterID, wtypes.text, types.boolean, body=[ClusterPatchType], status_code=202
    )
    def patch(self, cluster_ident, rollback=False, patch=None):
        context = pecan.request.context
        if context.is_admin:
            policy.enforce(
                context, "cluster:update_all_projects", action="cluster:update_all_projects"
            )
            context.all_tenants = True
        cluster = api_utils.get_resource("Cluster", cluster_ident)
        nodegroups = _nodegroups(cluster)
        policy.enforce(
            context, "cluster:update", cluster.as_dict(nodegroups), action="cluster:update"
        )
        policy.enforce(
            context, "cluster:update_health_status", action="cluster:update_health_status"
        )
        new = self._patched(Cluster.convert_with_links(cluster, nodegroups=nodegroups), patch)
        validation.check_node_count(new["node_count"])
        pecan.request.rpcapi.cluster_update_async(
            cluster,
            new["node_count"],
            new["health_status"],
            new["health_status_reason"],
            rollback,
        )
        return _accepted(cluster.uuid)

    @staticmethod
    def _patched(shown, patch):
        """The checked new values of the cluster ``shown`` (as GET shows it) after ``patch``."""
        current = shown.as_dict()
        current.pop("links", None)
        doc = api_utils.apply_jsonpatch(current, [types.literal(p) for p in patch or []])
        checked = Cluster(
            **{
                k: v
                for k, v in doc.items()
                if k not in ("stack_id", "cluster_id")
                and not k.startswith("labels_")
                and k != "faults"
            }
        )
        changed = [
            k
            for k in Cluster._wsme_attributes
            if k.name in doc and k.name != "links" and doc[k.name] != current.get(k.name)
        ]
        invalid = [k.name for k in changed if k.name not in PATCHABLE]
        if invalid:
            raise exception.InvalidParameterValue(
                err="cannot change cluster property(ies) %s." % ", ".join(invalid)
            )
        return {
            "node_count": checked.node_count,
            "health_status": doc.get("health_status"),
            "health_status_reason": doc.get("health_status_reason") or {},
        }

    @wsme_pecan.wsexpose(None, wtypes.text, status_code=204)
    def delete(self, cluster_ident):
        context = pecan.request.context
        if context.is_admin:
            policy.enforce(
                context, "cluster:delete_all_projects", action="cluster:delete_all_projects"
            )
            context.all_tenants = True
        cluster = api_utils.get_resource("Cluster", cluster_ident)
        policy.enforce(context, "cluster:delete", cluster.as_dict(), action="cluster:delete")
        pecan.request.rpcapi.cluster_delete_async(cluster.uuid)
