"""The conductor RPC client sends Magnum's method names and keyword arguments."""

import threading

import oslo_messaging
import pytest

from magnum_lite import objects
from magnum_lite.common import exception, rpc
from magnum_lite.conductor import api as conductor_api
from magnum_lite.conf import CONF
from magnum_lite.objects import base

pytestmark = pytest.mark.unit


class Recorder:
    """Endpoint recording what arrives; cluster_upgrade answers NotSupported."""

    target = oslo_messaging.Target(version="1.0")

    def __init__(self):
        self.calls = []
        self.cast_seen = threading.Event()

    def _record(self, name, kwargs):
        self.calls.append((name, kwargs))
        self.cast_seen.set()
        return "answer-%s" % name

    def cluster_create(self, context, **kwargs):
        return self._record("cluster_create", kwargs)

    def get_ca_certificate(self, context, **kwargs):
        return self._record("get_ca_certificate", kwargs)

    def cluster_upgrade(self, context, **kwargs):
        self._record("cluster_upgrade", kwargs)
        raise exception.NotSupported(operation="Upgrading a cluster")


@pytest.fixture
def rpcapi(magnum_db, ctx):
    rpc.init(CONF, url="fake://")
    recorder = Recorder()
    target = oslo_messaging.Target(topic=CONF.conductor.topic, server="t", version="1.0")
    server = rpc.get_server(target, [recorder], serializer=base.MagnumObjectSerializer())
    server.start()
    yield conductor_api.API(context=ctx), recorder
    server.stop()
    server.wait()
    rpc.cleanup()


def test_cast_cluster_create(rpcapi):
    api, recorder = rpcapi
    cluster = objects.Cluster(uuid="2b1b8a0e-7b55-4c5e-9a36-0c1e7b0f1a11", name="c1")
    api.cluster_create_async(cluster, master_count=1, node_count=2, create_timeout=60)
    assert recorder.cast_seen.wait(5)
    name, kwargs = recorder.calls[0]
    assert name == "cluster_create"
    assert set(kwargs) == {"cluster", "master_count", "node_count", "create_timeout"}
    assert kwargs["cluster"].name == "c1" and kwargs["node_count"] == 2


def test_call_returns_answer(rpcapi):
    api, recorder = rpcapi
    cluster = objects.Cluster(uuid="2b1b8a0e-7b55-4c5e-9a36-0c1e7b0f1a11")
    assert api.get_ca_certificate(cluster, ca_cert_type="etcd") == "answer-get_ca_certificate"
    assert recorder.calls[-1][1]["ca_cert_type"] == "etcd"


def test_call_reraises_magnum_exception(rpcapi):
    api, _ = rpcapi
    with pytest.raises(exception.NotSupported) as err:
        api.cluster_upgrade(objects.Cluster(), None, max_batch_size=1, nodegroup=None)
    assert err.value.code == 400
