"""The conductor's cluster endpoint (Magnum's cluster_conductor.Handler).

Each method validates, records the new status, hands the work to the cluster's driver and
returns; the status then follows the stacks (periodic sync, Heat's notifications). Any
error of a create ends the cluster CREATE_FAILED with the error as its reason, never
IN_PROGRESS forever.

    handler = Handler()
    handler.cluster_create(ctx, cluster, master_count=1, node_count=2, create_timeout=60)
"""

import logging

import oslo_messaging as messaging

from magnum_lite import objects
from magnum_lite.common import clients, exception, utils
from magnum_lite.conductor.handlers.common import cert_manager, trust_manager
from magnum_lite.drivers.common import driver as driver_mod
from magnum_lite.objects import fields

LOG = logging.getLogger(__name__)
STATUS = fields.ClusterStatus


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
        status=STATUS.CREATE_IN_PROGRESS,
        node_addresses=[],
        node_labels={},
        node_taints=[],
    )
    master = objects.NodeGroup(
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
    worker = objects.NodeGroup(
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


def destroy_cluster(context, cluster):
    """Trust, trustee, certificates, nodegroups and the cluster row go (the cluster's
    stacks are gone)."""
    trust_manager.delete_trustee_and_trust(clients.OpenStackClients(context), context, cluster)
    cert_manager.delete_certificates_from_cluster(cluster, context=context)
    cluster.destroy()
    LOG.info("Cluster %s removed", cluster.uuid)


def _fail(cluster, status, err):
    LOG.error("Cluster %s: %s: %s", cluster.uuid, status, err)
    cluster.status = status
    cluster.status_reason = str(err)
    cluster.save()


class Handler:
    """RPC endpoint: cluster_create, cluster_update, cluster_resize, cluster_upgrade,
    cluster_delete."""

    target = messaging.Target(version="1.0")

    def cluster_create(self, context, cluster, master_count, node_count, create_timeout):
        """Store the cluster and its default nodegroups, make its certificates, start its
        stack. Errors leave it CREATE_FAILED with the reason."""
        LOG.info("Cluster %s: create", cluster.uuid)
        cluster._context = context
        cluster.status = STATUS.CREATE_IN_PROGRESS
        cluster.status_reason = None
        nodegroups = default_nodegroups(context, cluster, master_count, node_count)
        cluster.create(nodegroups=nodegroups)
        try:
            trust_manager.create_trustee_and_trust(clients.OpenStackClients(context), cluster)
            cert_manager.generate_certificates_to_cluster(cluster, context=context)
            cluster_driver = driver_mod.Driver.get_driver_for_cluster(context, cluster)
            cluster_driver.create_cluster(context, cluster, create_timeout)
            cluster.save()
            for ng in nodegroups:
                ng.stack_id = cluster.stack_id
                ng.save()
            LOG.info("Cluster %s: stack %s being created", cluster.uuid, cluster.stack_id)
        except Exception as err:
            _fail(cluster, STATUS.CREATE_FAILED, err)
        return cluster

    def cluster_update(
        self, context, cluster, node_count, health_status, health_status_reason, rollback=False
    ):
        """Scale the default worker nodegroup (or just record a health change)."""
        cluster = objects.Cluster.get_by_uuid(context, cluster.uuid)
        if cluster.status not in STATUS.UPDATE_ALLOWED:
            LOG.warning("Updating a cluster when status is %s is not supported", cluster.status)
            return cluster
        worker = cluster.default_ng_worker
        if health_status != cluster.health_status or (health_status_reason or {}) != (
            cluster.health_status_reason or {}
        ):
            cluster.health_status = health_status
            cluster.health_status_reason = health_status_reason or {}
            cluster.save()
        if worker is None or node_count == worker.node_count:
            return cluster
        old_count, worker.node_count = worker.node_count, node_count
        worker.save()
        try:
            driver_mod.Driver.get_driver_for_cluster(context, cluster).update_cluster(
                context, cluster, None, rollback
            )
            cluster.status = STATUS.UPDATE_IN_PROGRESS
            cluster.status_reason = None
            cluster.save()
        except Exception as err:
            worker.node_count = old_count
            worker.save()
            _fail(cluster, STATUS.UPDATE_FAILED, err)
        return cluster

    def cluster_resize(self, context, cluster, node_count, nodes_to_remove, nodegroup):
        """Resize one nodegroup's stack."""
        cluster = objects.Cluster.get_by_uuid(context, cluster.uuid)
        if cluster.status not in STATUS.RESIZE_ALLOWED:
            LOG.warning("Resizing a cluster when status is %s is not supported", cluster.status)
            return cluster
        ng = objects.NodeGroup.get_by_uuid(context, cluster.uuid, nodegroup.uuid)
        old_count = ng.node_count
        ng.node_count = node_count
        ng.status = STATUS.UPDATE_IN_PROGRESS
        ng.save()
        try:
            driver_mod.Driver.get_driver_for_cluster(context, cluster).resize_cluster(
                context, cluster, None, node_count, nodes_to_remove, ng
            )
            cluster.status = STATUS.UPDATE_IN_PROGRESS
            cluster.status_reason = None
            cluster.save()
        except Exception as err:
            ng.node_count = old_count
            ng.status = STATUS.UPDATE_FAILED
            ng.status_reason = str(err)
            ng.save()
            _fail(cluster, STATUS.UPDATE_FAILED, err)
        return cluster

    @messaging.expected_exceptions(exception.MagnumException)
    def cluster_upgrade(self, context, cluster, cluster_template, max_batch_size, nodegroup):
        """A CALL: the driver's NotSupported goes back to the API unchanged."""
        cluster = objects.Cluster.get_by_uuid(context, cluster.uuid)
        if cluster.status not in STATUS.UPDATE_ALLOWED:
            raise exception.NotSupported(
                operation="Upgrading a cluster when status is %s" % cluster.status
            )
        cluster_driver = driver_mod.Driver.get_driver_for_cluster(context, cluster)
        cluster_driver.upgrade_cluster(
            context, cluster, cluster_template, max_batch_size, nodegroup
        )
        cluster.status = STATUS.UPDATE_IN_PROGRESS
        cluster.save()
        return cluster

    def cluster_delete(self, context, uuid):
        """Delete the cluster's stacks; the periodic sync removes the rows once Heat is
        done. A cluster that never got a stack goes at once."""
        cluster = objects.Cluster.get_by_uuid(context, uuid)
        if not cluster.stack_id:
            destroy_cluster(context, cluster)
            return None
        try:
            driver_mod.Driver.get_driver_for_cluster(context, cluster).delete_cluster(
                context, cluster
            )
            cluster.status = STATUS.DELETE_IN_PROGRESS
            cluster.status_reason = None
            cluster.save()
        except Exception as err:
            _fail(cluster, STATUS.DELETE_FAILED, err)
        return None
