"""oslo.messaging's RabbitMQ listeners as heat-lite and magnum-lite tune them (their
messaging modules' tune_polling): between messages that come closer together than
POLL_FIRST_TIMEOUT, a listener does not time out (each timeout raises through kombu's
retry wrappers and leaves reference cycles to the garbage collector). Real RabbitMQ."""

import threading
import time

import oslo_messaging
import pytest
from oslo_config import cfg
from oslo_messaging._drivers import amqpdriver, impl_rabbit
from oslo_messaging._drivers import common as rpc_common

from heat_lite.common import messaging as heat_messaging
from magnum_lite.common import rpc as magnum_rpc
from tests.fixtures import services

pytestmark = pytest.mark.integration

CASTS = 20
GAP_S = 0.01  # well under POLL_FIRST_TIMEOUT, far over oslo.messaging's 1 ms


@pytest.fixture(scope="module")
def transport_url():
    with services.isolated_vhost() as url:
        yield url


def _timeouts_between_casts(monkeypatch, url):
    """How often the server's listener timed out while CASTS casts came GAP_S apart."""
    timeouts = []
    consume = impl_rabbit.Connection.consume

    def counted(self, timeout=None):
        try:
            return consume(self, timeout=timeout)
        except rpc_common.Timeout:
            timeouts.append(timeout)
            raise

    monkeypatch.setattr(impl_rabbit.Connection, "consume", counted)
    transport = oslo_messaging.get_rpc_transport(cfg.CONF, url=url)
    received = []
    got_all = threading.Event()

    class Endpoint:
        def ping(self, ctxt, n):
            received.append(n)
            if len(received) == CASTS + 1:
                got_all.set()

    server = oslo_messaging.get_rpc_server(
        transport,
        oslo_messaging.Target(topic="polling", server="s"),
        [Endpoint()],
        executor="threading",
    )
    server.start()
    try:
        client = oslo_messaging.get_rpc_client(transport, oslo_messaging.Target(topic="polling"))
        client.cast({}, "ping", n=0)
        deadline = time.monotonic() + 30
        while not received and time.monotonic() < deadline:
            time.sleep(0.01)
        assert received, "the server did not start consuming"
        time.sleep(0.1)  # the first message's waits are over
        del timeouts[:]
        for n in range(1, CASTS + 1):
            client.cast({}, "ping", n=n)
            time.sleep(GAP_S)
        assert got_all.wait(30)
        return len(timeouts)
    finally:
        server.stop()
        server.wait()
        transport.cleanup()


@pytest.mark.parametrize("module", [heat_messaging, magnum_rpc], ids=["heat", "magnum"])
def test_a_busy_listener_does_not_time_out_between_messages(monkeypatch, transport_url, module):
    monkeypatch.setattr(amqpdriver, "ACK_REQUEUE_EVERY_SECONDS_MIN", 0.001)
    untuned = _timeouts_between_casts(monkeypatch, transport_url)
    assert module.tune_polling()
    assert amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN == module.POLL_FIRST_TIMEOUT
    tuned = _timeouts_between_casts(monkeypatch, transport_url)
    # untuned: waits of 1, 2, 4 ms... time out in every gap; tuned: only a gap stretched
    # past 50 ms by a loaded machine does
    assert untuned >= 2 * CASTS
    assert tuned <= CASTS // 4
