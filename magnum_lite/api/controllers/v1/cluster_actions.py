"""/v1/clusters/{uuid}/actions/resize (>= 1.7, a CAST) and /actions/upgrade (>= 1.8, a CALL:
the driver's NotSupported comes back as a 400). Whether a master nodegroup may be resized
is the driver's registry entry's (magnum_lite/drivers/registry.py), as Magnum's API asks
the driver (validate_master_resize)."""

import pecan
import wsme
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite import objects
from magnum_lite.api import validation
from magnum_lite.api.controllers import versions
from magnum_lite.api.controllers.v1 import types
from magnum_lite.common import exception, policy, utils
from magnum_lite.drivers import registry


class ClusterResizeRequest(wtypes.Base):
    node_count = wsme.wsattr(types.integer(0), mandatory=True)
    nodes_to_remove = wsme.wsattr([wtypes.text], mandatory=False, default=[])
    nodegroup = wtypes.StringType(min_length=1, max_length=255)


class ClusterUpgradeRequest(wtypes.Base):
    max_batch_size = types.integer(1)
    nodegroup = wtypes.StringType(min_length=1, max_length=255)
    cluster_template = wtypes.StringType(min_length=1, max_length=255)


def get_nodegroup(cluster, ident):
    """The named nodegroup of the cluster, or its default worker nodegroup."""
    context = pecan.request.context
    if not ident:
        return cluster.default_ng_worker
    return objects.NodeGroup.get(context, cluster.uuid, ident)


class ActionsController(rest.RestController):
    _custom_actions = {"resize": ["POST"], "upgrade": ["POST"]}

    @wsme_pecan.wsexpose(types.ClusterID, wtypes.text, body=ClusterResizeRequest, status_code=202)
    def resize(self, cluster_ident, cluster_resize_req):
        versions.require(pecan.request, "1.7")
        context = pecan.request.context
        cluster = validation.get_cluster(cluster_ident)
        policy.enforce(context, "cluster:resize", cluster.as_dict(), action="cluster:resize")
        validation.check_node_count(cluster_resize_req.node_count)
        nodegroup = get_nodegroup(cluster, cluster_resize_req.nodegroup)
        count = cluster_resize_req.node_count
        max_nc = nodegroup.max_node_count
        if nodegroup.role != "master" and (
            count < nodegroup.min_node_count or (max_nc is not None and count > max_nc)
        ):
            raise exception.NGResizeOutBounds(
                nodegroup=nodegroup.name, min_nc=nodegroup.min_node_count, max_nc=max_nc
            )
        if nodegroup.role == "master":
            driver = registry.get_driver_info_for_template(cluster.cluster_template)
            driver.validate_master_resize(count)
        pecan.request.rpcapi.cluster_resize_async(
            cluster, count, cluster_resize_req.nodes_to_remove, nodegroup
        )
        return types.ClusterID(cluster.uuid)

    @wsme_pecan.wsexpose(types.ClusterID, wtypes.text, body=ClusterUpgradeRequest, status_code=202)
    def upgrade(self, cluster_ident, cluster_upgrade_req):
        versions.require(pecan.request, "1.7")
        if pecan.request.version < "1.8":
            raise exception.NotSupported(
                operation="Upgrading a cluster in the provided microversion"
            )
        context = pecan.request.context
        cluster = validation.get_cluster(cluster_ident)
        policy.enforce(context, "cluster:upgrade", cluster.as_dict(), action="cluster:upgrade")
        ident = cluster_upgrade_req.cluster_template
        if utils.is_uuid_like(ident):
            template = objects.ClusterTemplate.get_by_uuid(context, ident)
        else:
            template = objects.ClusterTemplate.get_by_name(context, ident)
        nodegroup = get_nodegroup(cluster, cluster_upgrade_req.nodegroup)
        pecan.request.rpcapi.cluster_upgrade(
            cluster, template, cluster_upgrade_req.max_batch_size or 1, nodegroup
        )
        return types.ClusterID(cluster.uuid)
