"""The k8s_fedora_coreos_v1 driver against the real heat-lite, in this process.

heat-lite's API (served over HTTP on a free port) with its real engine and worker
(SQLite, ``fake://``); the driver reaches it only through python-heatclient, as
Magnum reaches Heat. The cluster, nodegroup and template objects are small fakes
(tests/fixtures/magnum_driver_fakes.py); the status comes back through HeatPoller.
"""

import ipaddress
import time
import types

import pytest

from heat_lite.api import app as api_app
from heat_lite.common import policy
from magnum_lite.conf import CONF
from magnum_lite.drivers import loader
from tests.fixtures import inprocess
from tests.fixtures.magnum_driver_fakes import fake_cluster, fake_template
from tests.functional.heat_lite.api_engine.helpers import serve

pytestmark = pytest.mark.functional

PUBLIC = ipaddress.ip_network("172.24.4.0/24")
PRIVATE = ipaddress.ip_network("10.0.0.0/24")
CTX = types.SimpleNamespace(project_id="p1", user_id="u1", roles=["member"], user_name="demo")


@pytest.fixture(scope="module")
def heat_endpoint(tmp_path_factory):
    with inprocess.heat(tmp_path_factory.mktemp("heat")) as heat:
        policy.reset()
        with serve(api_app.setup_app(engine_client=heat.client)) as endpoint:
            url = endpoint.rsplit("/", 1)[0] + "/%(project_id)s"
            CONF.set_override("url", url, group="heat_client")
            try:
                yield heat
            finally:
                CONF.clear_override("url", group="heat_client")
        policy.reset()


@pytest.fixture
def k8s():
    return loader.get_driver("vm", "fedora-coreos", "kubernetes")


def _sync_until_done(k8s, cluster, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        k8s.update_cluster_status(CTX, cluster)
        if not cluster.status.endswith("_IN_PROGRESS"):
            return cluster.status
        assert time.monotonic() < deadline, "cluster still %s: %s" % (
            cluster.status,
            [(ng.name, ng.status, ng.status_reason) for ng in cluster.nodegroups],
        )
        time.sleep(0.05)


def _in(network, addresses):
    return bool(addresses) and all(ipaddress.ip_address(a) in network for a in addresses)


def test_cluster_create_resize_delete(heat_endpoint, k8s):
    template = fake_template(master_lb_enabled=True)
    cluster = fake_cluster(template, master_count=1, node_count=2)
    k8s.create_cluster(CTX, cluster, 60)
    assert cluster.stack_id
    for ng in cluster.nodegroups:
        ng.stack_id = cluster.stack_id

    assert _sync_until_done(k8s, cluster) == "CREATE_COMPLETE", [
        (ng.name, ng.status_reason) for ng in cluster.nodegroups
    ]
    master, worker = cluster.default_ng_master, cluster.default_ng_worker
    address = cluster.api_address
    assert address.startswith("https://") and address.endswith(":6443")
    assert _in(PUBLIC, [address[len("https://") : -len(":6443")]])
    assert len(master.node_addresses) == 1 and _in(PUBLIC, master.node_addresses)
    assert len(worker.node_addresses) == 2 and _in(PUBLIC, worker.node_addresses)
    assert cluster.container_version == "1.12.6"
    assert cluster.coe_version
    assert master.status == worker.status == "CREATE_COMPLETE"

    worker.node_count = 3
    k8s.resize_cluster(CTX, cluster, None, 3, [], worker)
    cluster.status = "UPDATE_IN_PROGRESS"
    for ng in cluster.nodegroups:
        ng.status = "UPDATE_IN_PROGRESS"
    assert _sync_until_done(k8s, cluster) == "UPDATE_COMPLETE"
    assert worker.node_count == 3 and len(worker.node_addresses) == 3

    k8s.delete_cluster(CTX, cluster)
    cluster.status = "DELETE_IN_PROGRESS"
    assert _sync_until_done(k8s, cluster) == "DELETE_COMPLETE"


def test_nodegroup_stack_joins_the_cluster(heat_endpoint, k8s):
    template = fake_template()  # no master LB: the API address is master 0's
    cluster = fake_cluster(template, master_count=1, node_count=1)
    k8s.create_cluster(CTX, cluster, 60)
    for ng in cluster.nodegroups:
        ng.stack_id = cluster.stack_id
    assert _sync_until_done(k8s, cluster) == "CREATE_COMPLETE"
    master_ip = cluster.default_ng_master.node_addresses[0]
    assert cluster.api_address == "https://%s:6443" % master_ip

    gpu = cluster.add_nodegroup("gpu_pool", node_count=2, labels={"kube_tag": "v1.27.3"})
    k8s.create_nodegroup(CTX, cluster, gpu)
    assert gpu.stack_id and gpu.stack_id != cluster.stack_id
    cluster.status = "UPDATE_IN_PROGRESS"
    assert _sync_until_done(k8s, cluster) == "UPDATE_COMPLETE"
    assert gpu.status == "CREATE_COMPLETE" and len(gpu.node_addresses) == 2
    assert _in(PUBLIC, gpu.node_addresses)
    assert gpu.node_count == 2 and cluster.coe_version == "v1.27.3"

    k8s.delete_nodegroup(CTX, cluster, gpu)
    gpu.status = "DELETE_IN_PROGRESS"
    cluster.status = "UPDATE_IN_PROGRESS"
    assert _sync_until_done(k8s, cluster) == "UPDATE_COMPLETE"
    assert [ng.name for ng in cluster.nodegroups] == ["default-master", "default-worker"]

    k8s.delete_cluster(CTX, cluster)
    cluster.status = "DELETE_IN_PROGRESS"
    assert _sync_until_done(k8s, cluster) == "DELETE_COMPLETE"


def test_failed_minion_fails_the_cluster_with_heats_reason(heat_endpoint, k8s, expect_log_errors):
    # Magnum's poller logs a failed nodegroup's stack as an error, as Magnum 22 does
    expect_log_errors("Nodegroup error, stack status: CREATE_FAILED")
    heat_endpoint.cloud.set(fail_objects=["nova.server:*-node-0"])  # simcloud's injection
    try:
        cluster = fake_cluster(fake_template(), name="failing")
        k8s.create_cluster(CTX, cluster, 60)
        for ng in cluster.nodegroups:
            ng.stack_id = cluster.stack_id
        assert _sync_until_done(k8s, cluster) == "CREATE_FAILED"
    finally:
        heat_endpoint.cloud.set(fail_objects=[])
    worker_reason = cluster.default_ng_worker.status_reason
    assert "kube-minion" in worker_reason
    # both default nodegroups share the cluster's stack: each is named with its reason
    assert cluster.status_reason == "default-master failed: %s, default-worker failed: %s" % (
        worker_reason,
        worker_reason,
    )
    k8s.delete_cluster(CTX, cluster)
    cluster.status = "DELETE_IN_PROGRESS"
    assert _sync_until_done(k8s, cluster) == "DELETE_COMPLETE"


def test_private_cluster_with_volumes(heat_endpoint, k8s):
    """No floating IPs, an API load balancer without one, etcd and docker volumes, TLS
    off: the addresses are the private ones, the API the balancer's private VIP."""
    template = fake_template(
        master_lb_enabled=True,
        floating_ip_enabled=False,
        tls_disabled=True,
        docker_volume_size=3,
        labels={"etcd_volume_size": "1"},
    )
    cluster = fake_cluster(template, master_count=1, node_count=1, name="private")
    k8s.create_cluster(CTX, cluster, 60)
    for ng in cluster.nodegroups:
        ng.stack_id = cluster.stack_id
    assert _sync_until_done(k8s, cluster) == "CREATE_COMPLETE"
    master, worker = cluster.default_ng_master, cluster.default_ng_worker
    assert _in(PRIVATE, master.node_addresses) and _in(PRIVATE, worker.node_addresses)
    api = cluster.api_address
    assert api.startswith("http://") and api.endswith(":8080")
    assert _in(PRIVATE, [api[len("http://") : -len(":8080")]])
    assert api[len("http://") : -len(":8080")] not in master.node_addresses  # the LB's VIP
    k8s.delete_cluster(CTX, cluster)
    cluster.status = "DELETE_IN_PROGRESS"
    assert _sync_until_done(k8s, cluster) == "DELETE_COMPLETE"
