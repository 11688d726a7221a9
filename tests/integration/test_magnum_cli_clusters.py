"""magnum-lite end to end through the real CLI (``openstack --os-auth-type none
--os-endpoint http://.../v1 coe ...``, python-magnumclient) against real processes:
magnum-lite-api and -conductor, heat-lite-api, -engine and two workers, on PostgreSQL and
RabbitMQ. Clusters converge on the simulated cloud; a minion of a cluster named
``failme...`` fails on purpose ([simulated_cloud] fail_objects)."""

import json
import time

import pytest
from heatclient import client as heat_client
from heatclient import exc as heat_exc

from tests.fixtures import cli as cli_mod
from tests.fixtures import magnum_services, services

pytestmark = pytest.mark.integration

FAIL_GLOB = "nova.server:failme*-node-*"


@pytest.fixture(scope="module")
def stack_env(tmp_path_factory):
    with services.isolated_backends() as (heat_db, transport_url):
        heat = services.HeatProcesses(
            tmp_path_factory.mktemp("heat"), heat_db, transport_url, workers=2
        )
        heat.conf.write_text(
            heat.conf.read_text() + "\n[simulated_cloud]\nfail_objects = %s\n" % FAIL_GLOB
        )
        heat.start()
        try:
            with magnum_services.magnum_database() as magnum_db:
                magnum = magnum_services.MagnumProcesses(
                    tmp_path_factory.mktemp("magnum"),
                    magnum_db,
                    transport_url,
                    heat.endpoint,
                    sync_interval=1,
                )
                magnum.start()
                try:
                    yield heat, magnum
                finally:
                    magnum.stop()
        finally:
            heat.stop()


@pytest.fixture(scope="module")
def coe(stack_env, tmp_path_factory):
    return cli_mod.OpenStackCLI(stack_env[1].endpoint, cwd=tmp_path_factory.mktemp("cli"))


@pytest.fixture(scope="module")
def hc(stack_env):
    return heat_client.Client("1", endpoint=stack_env[0].endpoint, token="notused")


def wait_status(coe, name, statuses, timeout=90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        proc = coe.run("coe", "cluster", "show", name, "-f", "json")
        if proc.returncode == 0:
            cluster = json.loads(proc.stdout)
            if cluster["status"] in statuses:
                return cluster
        time.sleep(0.5)
    raise AssertionError("cluster %s never reached %s" % (name, statuses))


def wait_gone(coe, name, timeout=90):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        proc = coe.run("coe", "cluster", "show", name)
        if proc.returncode != 0 and "could not be found" in proc.stderr:
            return
        time.sleep(0.5)
    raise AssertionError("cluster %s still there" % name)


def assert_stack_gone(hc, stack_id):
    """Heat still shows a deleted stack by id, as DELETE_COMPLETE; lists no longer."""
    try:
        assert hc.stacks.get(stack_id).stack_status == "DELETE_COMPLETE"
    except heat_exc.HTTPNotFound:
        pass
    assert stack_id not in [s.id for s in hc.stacks.list()]


def outputs(hc, stack_id):
    stack = hc.stacks.get(stack_id)
    return {o["output_key"]: o["output_value"] for o in stack.outputs}


@pytest.fixture(scope="module")
def template(coe):
    coe(
        "coe",
        "cluster",
        "template",
        "create",
        "--coe",
        "kubernetes",
        "--image",
        "fedora-coreos-40",
        "--external-network",
        "public",
        "--flavor",
        "m1.small",
        "--master-flavor",
        "m1.medium",
        "--labels",
        "a=b",
        "--master-lb-enabled",
        "k8s-ct",
    )
    return "k8s-ct"


def test_cluster_create_resize_delete(coe, hc, template):
    coe(
        "coe",
        "cluster",
        "create",
        "--cluster-template",
        template,
        "--master-count",
        "1",
        "--node-count",
        "2",
        "c1",
    )
    cluster = wait_status(coe, "c1", ["CREATE_COMPLETE", "CREATE_FAILED"])
    assert cluster["status"] == "CREATE_COMPLETE", cluster["status_reason"]
    stack_id = cluster["cluster_id"]
    out = outputs(hc, stack_id)
    assert cluster["api_address"] == "https://%s:6443" % out["api_address"]
    assert cluster["master_addresses"] == out["kube_masters"]
    assert cluster["node_addresses"] == out["kube_minions"]
    assert len(cluster["node_addresses"]) == 2 and cluster["node_count"] == 2

    for count in (4, 1):
        coe("coe", "cluster", "resize", "c1", str(count))
        cluster = wait_status(coe, "c1", ["UPDATE_COMPLETE", "UPDATE_FAILED"])
        assert cluster["status"] == "UPDATE_COMPLETE", cluster["status_reason"]
        assert cluster["node_count"] == count
        assert len(cluster["node_addresses"]) == count
        assert cluster["node_addresses"] == outputs(hc, stack_id)["kube_minions"]

    coe("coe", "cluster", "delete", "c1")
    wait_gone(coe, "c1")
    assert_stack_gone(hc, stack_id)
