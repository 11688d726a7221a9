"""API -> RabbitMQ -> conductor in one process: an exception the conductor raises comes
back with its remote traceback (oslo.messaging appends it to the message), and the
answer is Magnum's 4xx with the message alone."""

import oslo_messaging
import pytest

from magnum_lite.cluster_credentials import cert_manager
from magnum_lite.common import rpc
from magnum_lite.conductor import handlers
from magnum_lite.objects import base
from tests.fixtures import services
from tests.functional.magnum_lite import fixtures
from tests.functional.magnum_lite.conftest import headers

pytestmark = pytest.mark.functional


@pytest.fixture
def rabbit_conductor(magnum_conf):
    """The conductor's endpoints served over a RabbitMQ vhost of this test's own."""
    rpc.cleanup()
    with services.isolated_vhost() as transport_url:
        rpc.init(magnum_conf, url=transport_url)
        target = oslo_messaging.Target(topic="magnum-conductor", server="t", version="1.0")
        server = rpc.get_server(
            target, handlers.endpoints(), serializer=base.MagnumObjectSerializer()
        )
        server.start()
        try:
            yield
        finally:
            server.stop()
            server.wait()
            rpc.cleanup()


def test_a_bad_csr_is_a_400_without_the_conductors_traceback(api, rabbit_conductor):
    cluster = fixtures.cluster(fixtures.template("p1"), "p1")
    cert_manager.generate_certificates_to_cluster(cluster, context=fixtures.ctx("p1"))
    cluster.save()
    resp = api.post_json(
        "/v1/certificates",
        {"cluster_uuid": cluster.uuid, "csr": "not a CSR"},
        headers=headers("p1", user="u-p1"),
        expect_errors=True,
    )
    assert resp.status_int == 400
    assert resp.json["errors"][0]["detail"] == "Received invalid csr not a CSR."
    assert "Traceback" not in resp.text
