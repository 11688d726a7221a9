"""The conductor's periodic tasks: the status sync of clusters in progress (the return
path of every cluster operation) and the service heartbeat.

    ClusterUpdateJob(ctx, cluster).update_status()   # one cluster, from its stacks
    sync_cluster_status(ctx)                         # every cluster *_IN_PROGRESS
    sync_stack(stack_id)                             # a Heat notification: that cluster now
    fail_lost_create(cluster)                        # no stack long after its create began
    tasks = PeriodicTasks(); tasks.start(); ...; tasks.stop()

A cluster that reaches DELETE_COMPLETE loses its rows here (its certificates went with
its stacks); every other status is saved by the driver's poller. A conductor killed after
it took a create's cast (oslo.messaging acknowledges a message before it runs) leaves the
cluster CREATE_IN_PROGRESS with no stack: past ``[conductor] lost_cast_timeout`` the sync
ends it CREATE_FAILED (Magnum 22 leaves it in progress for ever) and deletes a trustee
the create made but did not record; its delete then removes what the create recorded.
"""

import collections
import datetime
import logging
import threading

from magnum_lite import objects
from magnum_lite.cluster_credentials import trust_manager
from magnum_lite.common import clients, exception
from magnum_lite.common import context as magnum_context
from magnum_lite.conf import CONF
from magnum_lite.drivers import loader
from magnum_lite.objects import fields

LOG = logging.getLogger(__name__)
STATUS = fields.ClusterStatus
SYNC_STATUSES = [
    STATUS.CREATE_IN_PROGRESS,
    STATUS.UPDATE_IN_PROGRESS,
    STATUS.DELETE_IN_PROGRESS,
    STATUS.ROLLBACK_IN_PROGRESS,
]

# one sync of a cluster at a time in this process (poll and notification may meet)
_LOCKS = collections.defaultdict(threading.Lock)


class ClusterUpdateJob:
    def __init__(self, ctx, cluster):
        self.ctx = ctx
        self.cluster = cluster

    def update_status(self):
        with _LOCKS[self.cluster.uuid]:
            try:
                self.cluster.refresh()
            except exception.ClusterNotFound:
                return  # removed meanwhile
            cluster_driver = loader.get_driver_for_cluster(self.ctx, self.cluster)
            try:
                cluster_driver.update_cluster_status(self.ctx, self.cluster)
            except exception.AuthorizationFailure as err:
                # the trust was deleted outside Magnum: the status is still synced, with
                # the admin context, as Magnum's ClusterUpdateJob does
                if "Could not find trust: %s" % self.cluster.trust_id not in str(err):
                    raise
                cluster_driver.update_cluster_status(self.ctx, self.cluster, use_admin_ctx=True)
            if self.cluster.status == STATUS.DELETE_COMPLETE:
                LOG.info("Cluster %s is DELETE_COMPLETE: removing its rows", self.cluster.uuid)
                try:
                    self.cluster.destroy()
                except exception.ClusterNotFound:
                    pass
                _LOCKS.pop(self.cluster.uuid, None)


def fail_lost_create(cluster):
    """End a stackless CREATE_IN_PROGRESS cluster whose create began more than
    ``[conductor] lost_cast_timeout`` ago CREATE_FAILED; True if it did. A create that
    is still alive and records its stack first wins (the update is conditional), and one
    that records it later finds the cluster failed and deletes its stack."""
    if cluster.status != STATUS.CREATE_IN_PROGRESS or cluster.stack_id:
        return False
    began = cluster.updated_at or cluster.created_at
    timeout = CONF.conductor.lost_cast_timeout
    now = datetime.datetime.now(datetime.timezone.utc)
    if began.tzinfo is None:
        began = began.replace(tzinfo=datetime.timezone.utc)
    if now - began < datetime.timedelta(seconds=timeout):
        return False
    cluster.status = STATUS.CREATE_FAILED
    cluster.status_reason = (
        "The cluster's create was lost: no stack %d s after it began (its conductor "
        "stopped). Delete the cluster and create it again." % timeout
    )
    if not cluster.save_if_status(STATUS.CREATE_IN_PROGRESS, without_stack=True):
        return False
    LOG.warning("Cluster %s: CREATE_FAILED: %s", cluster.uuid, cluster.status_reason)
    trust_manager.delete_unrecorded_trustee(clients.OpenStackClients(cluster._context), cluster)
    return True


def _sync_one(ctx, cluster):
    try:
        if fail_lost_create(cluster):
            return
        ClusterUpdateJob(ctx, cluster).update_status()
    except Exception as err:
        LOG.warning("Status sync of cluster %s failed: %s", cluster.uuid, err)


def sync_cluster_status(ctx=None):
    ctx = ctx or magnum_context.get_admin_context()
    clusters = objects.Cluster.list(ctx, filters={"status": SYNC_STATUSES})
    for cluster in clusters:
        _sync_one(ctx, cluster)
    return len(clusters)


def sync_stack(stack_id):
    """Sync the cluster that owns ``stack_id`` (cluster or nodegroup stack) right away."""
    ctx = magnum_context.get_admin_context()
    uuids = objects.Cluster.uuids_of_stack(stack_id)
    for uuid in uuids:
        try:
            cluster = objects.Cluster.get_by_uuid(ctx, uuid)
        except exception.ClusterNotFound:
            continue  # removed meanwhile
        _sync_one(ctx, cluster)
    return len(uuids)


def update_magnum_service(host, binary="magnum-conductor"):
    ctx = magnum_context.get_admin_context()
    service = objects.MagnumService.get_by_host_and_binary(ctx, host, binary)
    if service is None:
        service = objects.MagnumService(ctx, host=host, binary=binary, report_count=0)
        service.create()
    service.report_state_up()


class PeriodicTasks:
    """Green-thread loops: the status sync (at once, then every
    ``sync_cluster_status_interval`` s) and the heartbeat."""

    def __init__(self, host):
        self.host = host
        self._stop = threading.Event()
        self._threads = []

    def _loop(self, interval, task):
        while not self._stop.is_set():
            try:
                task()
            except Exception as err:
                LOG.warning("Periodic task %s failed: %s", task.__name__, err)
            self._stop.wait(interval)

    def start(self):
        if not CONF.periodic_enable:
            return
        loops = [
            (CONF.sync_cluster_status_interval, sync_cluster_status),
            (min(10, CONF.periodic_interval_max), self.heartbeat),
        ]
        for interval, task in loops:
            thread = threading.Thread(target=self._loop, args=(interval, task), daemon=True)
            thread.start()
            self._threads.append(thread)

    def heartbeat(self):
        update_magnum_service(self.host)

    def stop(self):
        self._stop.set()
        for thread in self._threads:
            thread.join(timeout=5)
