"""The conductor's cluster endpoint (Magnum's cluster_conductor.Handler).

Each method validates, records the new status, hands the work to the cluster's driver and
returns; the status then follows the stacks (periodic sync, Heat's notifications). Any
error of a create ends the cluster CREATE_FAILED with the error as its reason, never
IN_PROGRESS forever.

A create and a delete of one cluster may run at once (two casts, any conductor): the
delete first sets DELETE_IN_PROGRESS, then removes what the row records; the create
records each part it makes (trust, certificates, stack) only while the row is still
CREATE_IN_PROGRESS, and undoes a part it could not record. Whatever the order, nothing
is left behind.

    handler = Handler()
    handler.cluster_create(ctx, cluster, master_count=1, node_count=2, create_timeout=60)
"""

import functools
import logging

import oslo_messaging as messaging

from magnum_lite import objects
from magnum_lite.cluster_credentials import cert_manager, trust_manager
from magnum_lite.common import clients, exception
from magnum_lite.drivers import loader
from magnum_lite.objects import fields

LOG = logging.getLogger(__name__)
STATUS = fields.ClusterStatus


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


def _claim(context, cluster, master_count, node_count):
    """The stored cluster the create makes, or None when a delete came first."""
    cluster._context = context
    if not cluster.obj_attr_is_set("id"):
        cluster.status = STATUS.CREATE_IN_PROGRESS
        cluster.status_reason = None
        nodegroups = objects.nodegroup.default_nodegroups(
            context, cluster, master_count, node_count
        )
        cluster.create(nodegroups=nodegroups)
        return cluster
    try:
        stored = objects.Cluster.get_by_uuid(context, cluster.uuid)
    except exception.ClusterNotFound:
        stored = None
    if stored is None or stored.status != STATUS.CREATE_IN_PROGRESS:
        LOG.info("Cluster %s was deleted before its create began", cluster.uuid)
        return None
    return stored


def _create_stack(context, cluster, create_timeout):
    loader.get_driver_for_cluster(context, cluster).create_cluster(context, cluster, create_timeout)


def _nodegroups_stack_set(cluster):
    """The default nodegroups' stack is the cluster's (once the cluster records it)."""
    try:
        for ng in cluster.nodegroups:
            ng.stack_id = cluster.stack_id
            ng.save()
    except exception.NodeGroupNotFound:
        LOG.info("Cluster %s was deleted while it was created", cluster.uuid)


def _delete_stack(context, cluster):
    if cluster.stack_id:
        loader.get_driver_for_cluster(context, cluster).delete_cluster(context, cluster)


def _create_steps(context, cluster, create_timeout):
    """(make, undo) of each part of a new cluster, in the order Magnum makes them."""
    osc = clients.OpenStackClients(context)
    return [
        (
            functools.partial(trust_manager.create_trustee_and_trust, osc, cluster),
            functools.partial(trust_manager.delete_trustee_and_trust, osc, context, cluster),
        ),
        (
            functools.partial(cert_manager.generate_certificates_to_cluster, cluster, context),
            functools.partial(cert_manager.delete_certificates_from_cluster, cluster, context),
        ),
        (
            functools.partial(_create_stack, context, cluster, create_timeout),
            functools.partial(_delete_stack, context, cluster),
        ),
    ]


def _make_and_record(cluster, make):
    """Make one part and store it (or the error as CREATE_FAILED) while the cluster is
    still CREATE_IN_PROGRESS; False when a delete took the cluster meanwhile."""
    try:
        make()
    except Exception as err:
        LOG.error("Cluster %s: CREATE_FAILED: %s", cluster.uuid, err)
        cluster.status = STATUS.CREATE_FAILED
        cluster.status_reason = str(err)
    return cluster.save_if_status(STATUS.CREATE_IN_PROGRESS)


def _undo(cluster, undo):
    """Remove a part the delete could not see (the create made it after the delete
    read the row)."""
    try:
        undo()
    except Exception as err:
        LOG.warning("Cluster %s: undoing its create failed: %s", cluster.uuid, err)


class Handler:
    """RPC endpoint: cluster_create, cluster_update, cluster_resize, cluster_upgrade,
    cluster_delete."""

    target = messaging.Target(version="1.0")

    def cluster_create(self, context, cluster, master_count, node_count, create_timeout):
        """Make the stored cluster's trust, certificates and stack (the API stored it with
        its default nodegroups; a cluster not stored yet is stored here first). Errors
        leave it CREATE_FAILED with the reason."""
        LOG.info("Cluster %s: create", cluster.uuid)
        cluster = _claim(context, cluster, master_count, node_count)
        if cluster is None:
            return None
        for make, undo in _create_steps(context, cluster, create_timeout):
            if not _make_and_record(cluster, make):
                LOG.info("Cluster %s was deleted while it was created: undoing", cluster.uuid)
                _undo(cluster, undo)
                return None
            if cluster.status == STATUS.CREATE_FAILED:
                return cluster
        _nodegroups_stack_set(cluster)
        LOG.info("Cluster %s: stack %s being created", cluster.uuid, cluster.stack_id)
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
            loader.get_driver_for_cluster(context, cluster).update_cluster(
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
            loader.get_driver_for_cluster(context, cluster).resize_cluster(
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
        cluster_driver = loader.get_driver_for_cluster(context, cluster)
        cluster_driver.upgrade_cluster(
            context, cluster, cluster_template, max_batch_size, nodegroup
        )
        cluster.status = STATUS.UPDATE_IN_PROGRESS
        cluster.save()
        return cluster

    def cluster_delete(self, context, uuid):
        """Delete the cluster's stacks; the periodic sync removes the rows once Heat is
        done. A cluster without a stack (its create failed or is still running) goes at
        once: the status set first stops a running create, and the row read back holds
        every part that create recorded."""
        try:
            cluster = objects.Cluster.get_by_uuid(context, uuid)
            cluster.status = STATUS.DELETE_IN_PROGRESS
            cluster.status_reason = None
            cluster.save()
        except exception.ClusterNotFound:
            LOG.info("Cluster %s is already gone", uuid)
            return None
        try:
            if not cluster.stack_id:
                destroy_cluster(context, cluster)
                return None
            loader.get_driver_for_cluster(context, cluster).delete_cluster(context, cluster)
        except Exception as err:
            _fail(cluster, STATUS.DELETE_FAILED, err)
        return None
