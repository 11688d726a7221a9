"""The conductor's nodegroup endpoint: create, update and delete of extra nodegroups."""

import logging

import oslo_messaging as messaging

from magnum_lite import objects
from magnum_lite.drivers import loader
from magnum_lite.objects import fields

LOG = logging.getLogger(__name__)
STATUS = fields.ClusterStatus


def _set_status(obj, status, reason=None):
    obj.status = status
    obj.status_reason = reason
    obj.save()


class Handler:
    target = messaging.Target(version="1.0")

    def nodegroup_create(self, context, cluster, nodegroup):
        """Store the nodegroup and start its own stack."""
        cluster = objects.Cluster.get_by_uuid(context, cluster.uuid)
        nodegroup._context = context
        nodegroup.status = STATUS.CREATE_IN_PROGRESS
        nodegroup.create()
        _set_status(cluster, STATUS.UPDATE_IN_PROGRESS)
        try:
            driver = loader.get_driver_for_cluster(context, cluster)
            driver.create_nodegroup(context, cluster, nodegroup)
            nodegroup.save()
        except Exception as err:
            LOG.error("Nodegroup %s create failed: %s", nodegroup.uuid, err)
            _set_status(nodegroup, STATUS.CREATE_FAILED, str(err))
            _set_status(cluster, STATUS.UPDATE_FAILED, str(err))
        return nodegroup

    def nodegroup_update(self, context, cluster, nodegroup):
        cluster = objects.Cluster.get_by_uuid(context, cluster.uuid)
        stored = objects.NodeGroup.get_by_uuid(context, cluster.uuid, nodegroup.uuid)
        if stored.status not in STATUS.NODEGROUP_UPDATE_ALLOWED:
            LOG.warning("Updating a nodegroup when status is %s is not supported", stored.status)
            return stored
        for key in ("min_node_count", "max_node_count", "node_labels", "node_taints"):
            setattr(stored, key, getattr(nodegroup, key))
        try:
            loader.get_driver_for_cluster(context, cluster).update_nodegroup(
                context, cluster, stored
            )
        except Exception as err:
            LOG.error("Nodegroup %s update failed: %s", stored.uuid, err)
            _set_status(stored, STATUS.UPDATE_FAILED, str(err))
        return stored

    def nodegroup_delete(self, context, cluster, nodegroup):
        cluster = objects.Cluster.get_by_uuid(context, cluster.uuid)
        stored = objects.NodeGroup.get_by_uuid(context, cluster.uuid, nodegroup.uuid)
        if not stored.stack_id:
            stored.destroy()
            return None
        try:
            loader.get_driver_for_cluster(context, cluster).delete_nodegroup(
                context, cluster, stored
            )
            _set_status(stored, STATUS.DELETE_IN_PROGRESS)
            _set_status(cluster, STATUS.UPDATE_IN_PROGRESS)
        except Exception as err:
            LOG.error("Nodegroup %s delete failed: %s", stored.uuid, err)
            _set_status(stored, STATUS.DELETE_FAILED, str(err))
            _set_status(cluster, STATUS.UPDATE_FAILED, str(err))
        return None
