"""Handler.cluster_* with a small fake driver (the adapter); DB, objects and the local CA
are real (SQLite)."""

import datetime

import pytest
import sqlalchemy as sa

from magnum_lite import objects
from magnum_lite.cluster_credentials import cert_manager
from magnum_lite.common import exception, utils
from magnum_lite.conductor.handlers import cluster_conductor
from magnum_lite.db import api as db_api
from magnum_lite.drivers import loader
from magnum_lite.service import periodic

pytestmark = pytest.mark.unit


class FakeDriver:
    def __init__(self, fail=None):
        self.fail = fail
        self.calls = []
        self.on_create = None  # what happens while the stack is being created

    def _record(self, name, *args):
        self.calls.append((name, args))
        if self.fail == name:
            raise RuntimeError("%s exploded" % name)

    def create_cluster(self, context, cluster, timeout):
        self._record("create_cluster", timeout)
        cluster.stack_id = "stack-" + cluster.uuid
        if self.on_create:
            self.on_create()

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
    monkeypatch.setattr(loader, "get_driver_for_cluster", lambda ctx, c: fake)
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


# -- a delete that meets a create: every interleaving leaves nothing -------------------


def _rows(table):
    with db_api.get_engine().connect() as conn:
        return conn.execute(sa.text("SELECT count(*) FROM %s" % table)).scalar()


def _stored_as_the_api_stores_it(ctx):
    cluster = _new_cluster(ctx, status="CREATE_IN_PROGRESS")
    cluster.create(nodegroups=objects.nodegroup.default_nodegroups(ctx, cluster, 1, 1))
    return cluster


def _assert_nothing_left(admin_ctx):
    assert objects.Cluster.list(admin_ctx) == []
    assert (_rows("nodegroup"), _rows("x509keypair")) == (0, 0)


def test_delete_during_the_certificates_leaves_no_certificate(
    ctx, admin_ctx, fake_driver, monkeypatch
):
    cluster = _stored_as_the_api_stores_it(ctx)
    handler = cluster_conductor.Handler()
    generate = cert_manager.generate_certificates_to_cluster

    def generate_then_delete(c, context=None):
        generate(c, context)
        assert _rows("x509keypair") == 4
        handler.cluster_delete(ctx, cluster.uuid)  # the DELETE's cast, served meanwhile

    monkeypatch.setattr(cert_manager, "generate_certificates_to_cluster", generate_then_delete)
    assert handler.cluster_create(ctx, cluster, 1, 1, 60) is None
    _assert_nothing_left(admin_ctx)
    assert fake_driver.calls == []  # no stack was started


def test_delete_during_the_stack_create_deletes_the_stack(ctx, admin_ctx, fake_driver):
    cluster = _stored_as_the_api_stores_it(ctx)
    handler = cluster_conductor.Handler()
    fake_driver.on_create = lambda: handler.cluster_delete(ctx, cluster.uuid)
    assert handler.cluster_create(ctx, cluster, 1, 1, 60) is None
    _assert_nothing_left(admin_ctx)
    # the delete found no stack recorded: the create deleted the one it had made
    assert [c[0] for c in fake_driver.calls] == ["create_cluster", "delete_cluster"]


def test_delete_before_the_create_begins(ctx, admin_ctx, fake_driver):
    cluster = _stored_as_the_api_stores_it(ctx)
    handler = cluster_conductor.Handler()
    handler.cluster_delete(ctx, cluster.uuid)
    assert handler.cluster_create(ctx, cluster, 1, 1, 60) is None
    _assert_nothing_left(admin_ctx)
    assert fake_driver.calls == []


def test_delete_after_the_stack_is_recorded_deletes_it_through_the_driver(
    ctx, admin_ctx, fake_driver
):
    cluster = _stored_as_the_api_stores_it(ctx)
    handler = cluster_conductor.Handler()
    handler.cluster_create(ctx, cluster, 1, 1, 60)
    handler.cluster_delete(ctx, cluster.uuid)
    handler.cluster_delete(ctx, cluster.uuid)  # a second DELETE is harmless
    assert [c[0] for c in fake_driver.calls] == ["create_cluster"] + ["delete_cluster"] * 2
    # (the Heat driver's poller deletes the certificates, see test_heat_driver)
    fake_driver.next_status = "DELETE_COMPLETE"
    assert periodic.sync_stack("stack-" + cluster.uuid) == 1
    assert (objects.Cluster.list(admin_ctx), _rows("nodegroup")) == ([], 0)
    handler.cluster_delete(ctx, cluster.uuid)  # and one after it is gone is a no-op


def test_a_template_in_use_is_not_deleted(ctx, fake_driver):
    cluster = _stored_as_the_api_stores_it(ctx)
    with pytest.raises(exception.ClusterTemplateReferenced):
        cluster.cluster_template.destroy()


def _age(cluster, seconds):
    """Make the stored cluster's last change ``seconds`` old."""
    with db_api.get_engine().begin() as conn:
        conn.execute(
            sa.text("UPDATE cluster SET updated_at = :t, created_at = :t WHERE uuid = :u"),
            {
                "t": datetime.datetime.utcnow() - datetime.timedelta(seconds=seconds),
                "u": cluster.uuid,
            },
        )


def test_a_create_whose_conductor_died_ends_create_failed(ctx, admin_ctx, fake_driver):
    # the API stored the cluster; the conductor that took the cast died before the stack
    cluster = _stored_as_the_api_stores_it(ctx)
    fake_driver.next_status = "CREATE_IN_PROGRESS"  # (the Heat driver: no stack, no change)
    assert periodic.sync_cluster_status(admin_ctx) == 1
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).status == "CREATE_IN_PROGRESS"
    _age(cluster, 61)
    periodic.sync_cluster_status(admin_ctx)
    stored = objects.Cluster.get_by_uuid(ctx, cluster.uuid)
    assert stored.status == "CREATE_FAILED"
    assert "create was lost" in stored.status_reason
    assert fake_driver.calls == [("update_cluster_status", ())]  # the first sync only
    # its delete removes it at once, with what the create made
    cluster_conductor.Handler().cluster_delete(ctx, cluster.uuid)
    _assert_nothing_left(admin_ctx)


def test_a_slow_create_that_records_its_stack_first_is_not_failed(ctx, admin_ctx, fake_driver):
    cluster = _stored_as_the_api_stores_it(ctx)
    handler = cluster_conductor.Handler()
    fake_driver.on_create = lambda: _age(cluster, 61)
    handler.cluster_create(ctx, cluster, 1, 1, 60)
    stale = objects.Cluster.get_by_uuid(ctx, cluster.uuid)
    stale.stack_id = None  # as the sync's list read it, before the stack was recorded
    stale.obj_reset_changes()
    _age(cluster, 61)
    assert periodic.fail_lost_create(stale) is False
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).status == "CREATE_IN_PROGRESS"


def test_a_create_that_records_its_stack_after_the_failure_deletes_it(ctx, admin_ctx, fake_driver):
    cluster = _stored_as_the_api_stores_it(ctx)
    handler = cluster_conductor.Handler()

    def lost_meanwhile():
        _age(cluster, 61)
        assert periodic.fail_lost_create(objects.Cluster.get_by_uuid(ctx, cluster.uuid))

    fake_driver.on_create = lost_meanwhile
    assert handler.cluster_create(ctx, cluster, 1, 1, 60) is None
    assert [c[0] for c in fake_driver.calls] == ["create_cluster", "delete_cluster"]
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).status == "CREATE_FAILED"
