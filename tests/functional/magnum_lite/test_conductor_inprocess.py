"""API -> CAST -> conductor endpoints -> DB in one process (oslo.messaging fake://). Heat is
unreachable here, so a create ends CREATE_FAILED with the driver's error as its reason,
never IN_PROGRESS; such a cluster (no stack) is deleted at once."""

import time

import oslo_messaging
import pytest

from magnum_lite import objects
from magnum_lite.common import context, exception, rpc
from magnum_lite.conductor import handlers
from magnum_lite.objects import base
from tests.functional.magnum_lite import fixtures
from tests.functional.magnum_lite.conftest import headers

pytestmark = pytest.mark.functional


@pytest.fixture
def conductor(magnum_conf):
    magnum_conf.set_override("url", "http://127.0.0.1:9/v1/%(project_id)s", group="heat_client")
    target = oslo_messaging.Target(topic="magnum-conductor", server="t", version="1.0")
    server = rpc.get_server(target, handlers.endpoints(), serializer=base.MagnumObjectSerializer())
    server.start()
    yield
    server.stop()
    server.wait()
    magnum_conf.clear_override("url", group="heat_client")


def wait_for(predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError("condition not met")


def _cluster(uuid):
    try:
        return objects.Cluster.get_by_uuid(context.get_admin_context(), uuid)
    except Exception:
        return None


def test_create_failure_recorded_then_delete(api, conductor):
    fixtures.template("p1", name="ct", master_lb_enabled=True, external_network_id="public")
    r = api.post_json(
        "/v1/clusters",
        {"cluster_template_id": "ct", "node_count": 2, "name": "c1", "labels": {"k": "v"}},
        headers=headers("p1"),
    )
    assert r.status_int == 202
    uuid = r.json["uuid"]
    cluster = wait_for(lambda: (c := _cluster(uuid)) and c.status == "CREATE_FAILED" and c)
    assert "Unable to establish connection to http://127.0.0.1:9/v1/p1/stacks" in (
        cluster.status_reason
    )
    assert cluster.labels == {"k": "v"}
    names = sorted((ng.name, ng.role, ng.node_count) for ng in cluster.nodegroups)
    assert names == [("default-master", "master", 1), ("default-worker", "worker", 2)]
    assert cluster.ca_cert_ref and cluster.magnum_cert_ref and cluster.etcd_ca_cert_ref
    shown = api.get("/v1/clusters/c1", headers=headers("p1")).json
    assert shown["status"] == "CREATE_FAILED" and shown["node_count"] == 2
    assert shown["faults"] == {}
    api.delete("/v1/clusters/c1", headers=headers("p1"), status=204)
    wait_for(lambda: _cluster(uuid) is None)
    with pytest.raises(exception.X509KeyPairNotFound):  # its certificates went with it
        objects.X509KeyPair.get_by_uuid(None, cluster.ca_cert_ref)


def test_upgrade_not_supported_is_400(api, conductor):
    tmpl = fixtures.template("p1", name="ct")
    c = fixtures.cluster(tmpl, "p1", name="c1")
    r = api.post_json(
        "/v1/clusters/%s/actions/upgrade" % c.uuid,
        {"cluster_template": "ct", "max_batch_size": 1},
        headers=headers("p1"),
        expect_errors=True,
    )
    assert r.status_int == 400
    assert r.json["errors"][0]["detail"] == (
        "Upgrading a cluster that uses the Magnum Heat driver is not supported."
    )
    r = api.post_json(
        "/v1/clusters/%s/actions/upgrade" % c.uuid,
        {"cluster_template": "ct"},
        headers=headers("p1", version="1.7"),
        expect_errors=True,
    )
    assert r.status_int == 400
