"""messaging._count_consumers on a real RabbitMQ vhost: the consumers of a topic's queue
counted on one connection the process keeps (not one per count), which survives a
topic nobody declared (the broker closes the channel) and is opened again when the
broker drops it."""

import kombu
import pytest

from heat_lite.common import messaging
from tests.fixtures import services

pytestmark = pytest.mark.integration


@pytest.fixture
def vhost(monkeypatch):
    with services.isolated_vhost() as url:
        monkeypatch.setattr(messaging, "TRANSPORT_URL", url)
        yield url
        messaging._close_counter()


def _opened(monkeypatch):
    """A list that gets each kombu connection _count_consumers opens."""
    opened = []
    real = kombu.Connection

    def connection(*args, **kwargs):
        opened.append(real(*args, **kwargs))
        return opened[-1]

    monkeypatch.setattr(messaging.kombu, "Connection", connection)
    return opened


def test_counts_on_one_kept_connection(monkeypatch, vhost):
    opened = _opened(monkeypatch)
    assert messaging._count_consumers("nobody-declared-it") == 0
    with kombu.Connection(messaging._amqp_url()) as server:
        channel = server.channel()
        queue = kombu.Queue("counted", channel=channel, auto_delete=True)
        queue.declare()
        consumer = kombu.Consumer(channel, [queue], callbacks=[lambda body, msg: None])
        consumer.consume()
        assert messaging._count_consumers("counted") == 1
        assert messaging._count_consumers("nobody-declared-it") == 0
        consumer.cancel()
        assert messaging._count_consumers("counted") == 0
    # the handshake's own connections aside, one connection was kept for every count
    kept = [c for c in opened if c.connected]
    assert len(kept) == 1


def test_a_dropped_connection_is_opened_again(monkeypatch, vhost):
    assert messaging._count_consumers("nobody-declared-it") == 0
    dropped = messaging._counter[1]
    dropped.collect()  # its socket is gone, as after a broker restart
    # the count that finds it broken cannot say; the next one counts on a new connection
    assert messaging._count_consumers("nobody-declared-it") is None
    assert messaging._counter is None
    assert messaging._count_consumers("nobody-declared-it") == 0
    assert messaging._counter[1] is not dropped
