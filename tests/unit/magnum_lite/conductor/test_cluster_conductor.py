"""Handler.cluster_* with a small fake driver (the adapter); DB, objects and the local CA
are real (SQLite)."""

import pytest

from magnum_lite import objects
from magnum_lite.common import exception, utils
from magnum_lite.conductor.handlers import cluster_conductor
from magnum_lite.drivers.common import driver as driver_mod
from magnum_lite.service import periodic

pytestmark = pytest.mark.unit


class FakeDriver:
    def __init__(self, fail=None):
        self.fail = fail
        self.calls = []

    def _record(self, name, *args):
        self.calls.append((name, args))
        if self.fail == name:
            raise RuntimeError("%s exploded" % name)

    def create_cluster(self, context, cluster, timeout):
        self._record("create_cluster", timeout)
        cluster.stack_id = "stack-" + cluster.uuid

    def update_cluster(self, context, cluster, scale_manager=None, rollback=False):
        self._record("update_cluster", rollback)

    def resize_cluster(self, context, cluster, manager, count, remove, nodegroup=None):
        self._record("resize_cluster", count, remove, nodegroup.name)

    def delete_cluster(self, context, cluster):
        self._record("delete_cluster")

    def update_cluster_status(self, context, cluster, use_admin_ctx=False):
        self._record("update_cluster_status")
        cluster.status = self.next_status
        cluster.save()


@pytest.fixture
def fake_driver(monkeypatch, magnum_db):
    fake = FakeDriver()
    monkeypatch.setattr(
        driver_mod.Driver, "get_driver_for_cluster", classmethod(lambda cls, ctx, c: fake)
    )
    return fake


def _new_cluster(ctx, **kw):
    ct = objects.ClusterTemplate(
        ctx,
        uuid=utils.generate_uuid(),
        name="ct",
        coe="kubernetes",
        image_id="img",
        flavor_id="small",
        master_flavor_id="big",
        project_id="p1",
        labels={"min_node_count": "1"},
    )
    ct.create()
    values = dict(
        uuid=utils.generate_uuid(),
        name="c1",
        project_id="p1",
        user_id="u1",
        cluster_template_id=ct.uuid,
        labels={"min_node_count": "1"},
        create_timeout=60,
    )
    values.update(kw)
    return objects.Cluster(ctx, **values)


def test_create_stores_cluster_nodegroups_certificates(ctx, fake_driver):
    cluster = _new_cluster(ctx)
    cluster_conductor.Handler().cluster_create(ctx, cluster, 3, 2, 45)
    stored = objects.Cluster.get_by_uuid(ctx, cluster.uuid)
    assert stored.status == "CREATE_IN_PROGRESS" and stored.stack_id == "stack-" + cluster.uuid
    assert stored.ca_cert_ref and stored.magnum_cert_ref and stored.front_proxy_ca_cert_ref
    master, worker = stored.default_ng_master, stored.default_ng_worker
    assert (master.node_count, master.flavor_id, master.role) == (3, "big", "master")
    assert (worker.node_count, worker.flavor_id, worker.min_node_count) == (2, "small", 1)
    assert master.stack_id == worker.stack_id == stored.stack_id
    assert fake_driver.calls == [("create_cluster", (45,))]


def test_create_failure_is_create_failed_with_reason(ctx, fake_driver):
    fake_driver.fail = "create_cluster"
    cluster = _new_cluster(ctx)
    cluster_conductor.Handler().cluster_create(ctx, cluster, 1, 1, 60)
    stored = objects.Cluster.get_by_uuid(ctx, cluster.uuid)
    assert (stored.status, stored.status_reason) == ("CREATE_FAILED", "create_cluster exploded")


def test_resize_failure_restores_count(ctx, fake_driver):
    cluster = _new_cluster(ctx)
    handler = cluster_conductor.Handler()
    handler.cluster_create(ctx, cluster, 1, 2, 60)
    stored = objects.Cluster.get_by_uuid(ctx, cluster.uuid)
    stored.status = "CREATE_COMPLETE"
    stored.save()
    fake_driver.fail = "resize_cluster"
    handler.cluster_resize(ctx, stored, 5, [], stored.default_ng_worker)
    stored.refresh()
    assert stored.status == "UPDATE_FAILED"
    assert stored.default_ng_worker.node_count == 2
    assert stored.default_ng_worker.status == "UPDATE_FAILED"


def test_update_dropped_while_in_progress(ctx, fake_driver):
    cluster = _new_cluster(ctx)
    handler = cluster_conductor.Handler()
    handler.cluster_create(ctx, cluster, 1, 2, 60)
    handler.cluster_update(ctx, cluster, 4, None, {})
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).default_ng_worker.node_count == 2
    assert [c[0] for c in fake_driver.calls] == ["create_cluster"]


def test_delete_then_periodic_removes_rows(ctx, admin_ctx, fake_driver):
    cluster = _new_cluster(ctx)
    handler = cluster_conductor.Handler()
    handler.cluster_create(ctx, cluster, 1, 1, 60)
    handler.cluster_delete(ctx, cluster.uuid)
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).status == "DELETE_IN_PROGRESS"
    fake_driver.next_status = "DELETE_COMPLETE"
    assert periodic.sync_stack("stack-" + cluster.uuid) == 1
    assert objects.Cluster.list(admin_ctx) == []
    assert objects.NodeGroup.list(admin_ctx, cluster.uuid) == []


def test_periodic_syncs_only_clusters_in_progress(ctx, admin_ctx, fake_driver):
    cluster = _new_cluster(ctx)
    cluster_conductor.Handler().cluster_create(ctx, cluster, 1, 1, 60)
    fake_driver.next_status = "CREATE_COMPLETE"
    assert periodic.sync_cluster_status(admin_ctx) == 1
    assert periodic.sync_cluster_status(admin_ctx) == 0
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).status == "CREATE_COMPLETE"


def test_cluster_without_stack_deleted_at_once(ctx, admin_ctx, fake_driver):
    fake_driver.fail = "create_cluster"
    cluster = _new_cluster(ctx)
    handler = cluster_conductor.Handler()
    handler.cluster_create(ctx, cluster, 1, 1, 60)
    ca_ref = objects.Cluster.get_by_uuid(ctx, cluster.uuid).ca_cert_ref
    handler.cluster_delete(ctx, cluster.uuid)
    assert objects.Cluster.list(admin_ctx) == []
    with pytest.raises(exception.X509KeyPairNotFound):
        objects.X509KeyPair.get_by_uuid(ctx, ca_ref)


def test_heartbeat(magnum_db, admin_ctx):
    periodic.update_magnum_service("h1")
    periodic.update_magnum_service("h1")
    [svc] = objects.MagnumService.list(admin_ctx)
    assert (svc.host, svc.binary, svc.report_count) == ("h1", "magnum-conductor", 2)


def test_stack_notification_finds_the_cluster_of_a_nodegroup_stack(ctx, fake_driver):
    cluster = _new_cluster(ctx)
    cluster_conductor.Handler().cluster_create(ctx, cluster, 1, 1, 60)
    worker = objects.Cluster.get_by_uuid(ctx, cluster.uuid).default_ng_worker
    worker.stack_id = "nodegroup-stack"
    worker.save()
    fake_driver.next_status = "CREATE_COMPLETE"
    # a nested stack of no cluster's (most of Heat's notifications) syncs nothing
    assert periodic.sync_stack("a-nested-stack") == 0
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).status == "CREATE_IN_PROGRESS"
    assert periodic.sync_stack("nodegroup-stack") == 1
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).status == "CREATE_COMPLETE"
