"""oslo.messaging in one place: the transport, clients, servers and the context serializer.

messaging.setup('rabbit://guest:guest@127.0.0.1:5672/')   # or 'fake://' in one process
client = messaging.get_rpc_client(topic='engine', version='1.36')
server = messaging.get_rpc_server(target, endpoints)
"""

import json
import threading
import time

import kombu
import oslo_messaging
import oslo_messaging.opts
from oslo_config import cfg
from oslo_serialization import jsonutils

from heat_lite.common import context

TRANSPORT = None
TRANSPORT_URL = None  # the url setup() was given, if any (else [DEFAULT] transport_url)
NOTIFIER = None

ALLOWED_EXMODS = ["heat_lite.common.exception"]


_SCALARS = (str, int, float, bool, type(None))


class PlainJson(list):
    """A list its maker built for one answer out of plain JSON only (dicts with str keys,
    lists, str, numbers, bool, None): sent as it is, without to_primitive's walk and
    copy (6 ms of the engine's CPU for a 1,000-resource list)."""


def to_primitive(value):
    """jsonutils.to_primitive(value, convert_instances=True), with plain JSON (dicts,
    lists and scalars, as most answers are) walked here: oslo's walk costs ~10x more per
    item, and a 1,000-resource list is 30,000 items (bench/api_load.py)."""
    kind = type(value)
    if kind in _SCALARS or kind is PlainJson:
        return value
    if kind is dict:
        return {
            (k if type(k) is str else to_primitive(k)): to_primitive(v) for k, v in value.items()
        }
    if kind is list or kind is tuple:
        return [to_primitive(v) for v in value]
    return jsonutils.to_primitive(value, convert_instances=True)


def over_the_wire(value):
    """``value`` as an RPC message carries it: JSON-encoded and decoded again (tuples
    become lists), for a call made in process instead of sent."""
    return None if value is None else json.loads(json.dumps(to_primitive(value)))


class JsonPayloadSerializer(oslo_messaging.NoOpSerializer):
    @staticmethod
    def serialize_entity(context, entity):
        return to_primitive(entity)


class RequestContextSerializer(oslo_messaging.Serializer):
    def __init__(self, base=None):
        self._base = base or JsonPayloadSerializer()

    def serialize_entity(self, ctxt, entity):
        return self._base.serialize_entity(ctxt, entity)

    def deserialize_entity(self, ctxt, entity):
        return self._base.deserialize_entity(ctxt, entity)

    def serialize_context(self, ctxt):
        return ctxt.to_dict()

    def deserialize_context(self, ctxt):
        return context.RequestContext.from_dict(ctxt)


# RPC handlers run on green threads: oslo.messaging's (and so Heat's) default of 64. A
# nested stack's parent resource holds its handler while it waits for the child, so 10
# clusters' ~80 waiting parents would leave 16 handlers none for the children's
# check_resource. A handler takes a database connection only for each statement
# (heat_lite.db.api), so the pool ([database] max_pool_size + max_overflow) stays as it
# is: a K=10 cluster create peaked at 25 connections to heat's database with 16 handlers
# and with 64.
EXECUTOR_THREAD_POOL_SIZE = 64


# A process's fanout and reply queues are deleted this long after it stopped consuming
# them (x-expires): a worker or engine killed with -9 leaves nothing behind for long.
# (Its server-specific queues are deleted by whoever reaps its service row.)
TRANSIENT_QUEUES_TTL = 60


def set_defaults():
    """heat-lite's defaults for oslo.messaging options (call before parsing config)."""
    for group, opts in oslo_messaging.opts.list_opts():
        if group in (None, "DEFAULT"):
            cfg.CONF.register_opts([o for o in opts if o.name == "executor_thread_pool_size"])
        elif group == "oslo_messaging_rabbit":
            ttl = [o for o in opts if o.name == "rabbit_transient_queues_ttl"]
            cfg.CONF.register_opts(ttl, group=group)
            cfg.CONF.set_default("rabbit_transient_queues_ttl", TRANSIENT_QUEUES_TTL, group=group)
    oslo_messaging.opts.set_defaults(cfg.CONF, executor_thread_pool_size=EXECUTOR_THREAD_POOL_SIZE)


# oslo.messaging's RabbitMQ listeners wait for the next message with a timeout that
# starts at 1 ms after each message and doubles up to 5 s (amqpdriver's
# ACK_REQUEUE_EVERY_SECONDS_MIN/MAX). Between the messages of a stack tree a listener
# timed out again and again, each time raising a Timeout through kombu's retry wrappers
# and leaving ~100 objects of reference cycles (frames, tracebacks): 11-13 % of a
# worker's and the engine's CPU over the k8s tree (py-spy), and the garbage collector's
# pauses of 50-90 ms. The first wait is that short so that the acks other threads queue
# for the listener's connection leave soon; an RPC server acks a message before it
# dispatches it and no prefetch limit is set, so a later ack changes only what a crash
# redelivers (a check_resource again, which the traversal ignores, as in Heat).
POLL_FIRST_TIMEOUT = 0.05


def tune_polling():
    """Start the listeners' waits at POLL_FIRST_TIMEOUT; False if this oslo.messaging
    has no such setting (its listeners then poll as they do by default)."""
    from oslo_messaging._drivers import amqpdriver

    if not hasattr(amqpdriver, "ACK_REQUEUE_EVERY_SECONDS_MIN"):
        return False
    amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN = POLL_FIRST_TIMEOUT
    return True


def setup(url=None):
    """Create the process-wide transport (idempotent). ``url`` overrides transport_url."""
    global TRANSPORT, TRANSPORT_URL
    if TRANSPORT is None:
        tune_polling()
        TRANSPORT_URL = url
        oslo_messaging.set_transport_defaults("heat")
        TRANSPORT = oslo_messaging.get_rpc_transport(
            cfg.CONF, url=url, allowed_remote_exmods=ALLOWED_EXMODS
        )
    return TRANSPORT


def cleanup():
    global TRANSPORT, NOTIFIER
    if TRANSPORT is not None:
        TRANSPORT.cleanup()
        TRANSPORT = None
    if NOTIFIER is not None:
        NOTIFIER.transport.cleanup()
        NOTIFIER = None


def get_notifier():
    """Heat's stack notifier (publisher ``orchestration.<host>``), or None when
    ``[oslo_messaging_notifications] driver`` is empty (notifications off, the default).

    The transport is ``[oslo_messaging_notifications] transport_url``, else the RPC one.
    """
    global NOTIFIER
    if NOTIFIER is None:
        if "oslo_messaging_notifications" not in cfg.CONF:
            for group, opts in oslo_messaging.opts.list_opts():
                if group == "oslo_messaging_notifications":
                    cfg.CONF.register_opts(opts, group=group)
        if not cfg.CONF.oslo_messaging_notifications.driver:
            return None
        url = cfg.CONF.oslo_messaging_notifications.transport_url
        transport = oslo_messaging.get_notification_transport(cfg.CONF, url=url or TRANSPORT_URL)
        NOTIFIER = oslo_messaging.Notifier(
            transport,
            publisher_id="orchestration.%s" % cfg.CONF.host,
            serializer=RequestContextSerializer(),
        )
    return NOTIFIER


def get_rpc_server(target, endpoints, executor="threading"):
    serializer = RequestContextSerializer()
    return oslo_messaging.get_rpc_server(
        TRANSPORT, target, endpoints, executor=executor, serializer=serializer
    )


def get_rpc_client(**kwargs):
    target = oslo_messaging.Target(**kwargs)
    return oslo_messaging.get_rpc_client(TRANSPORT, target, serializer=RequestContextSerializer())


# -- is anyone listening? ----------------------------------------------------------------

CONSUMERS_TTL = 2.0  # seconds a consumer count is trusted
_consumers = {}
_consumers_lock = threading.Lock()


CONSUMERS_GRACE = 5.0  # seconds a topic may have no consumer (a server reconnecting)


def topic_has_no_consumer(topic):
    """True when nobody has consumed ``topic`` for ``CONSUMERS_GRACE`` seconds: no server
    runs (a server reconnecting to the broker comes back within the grace). False when a
    server consumes it or the transport cannot say."""
    deadline = time.monotonic() + CONSUMERS_GRACE
    while topic_consumers(topic) == 0:
        if time.monotonic() >= deadline:
            return True
        time.sleep(CONSUMERS_TTL)
    return False


def topic_consumers(topic):
    """How many RPC servers consume ``topic`` now, or None when the transport cannot say
    (not RabbitMQ, or the broker did not answer).

    On RabbitMQ every server of a topic consumes the queue named after the topic, so a
    passive declare of that queue counts them: 0 means nobody would answer a call. Only
    the first caller waits for that count (a new broker connection); after it the last
    count is answered at once, and once it is older than ``CONSUMERS_TTL`` seconds one
    background thread counts again (every API request asks: waiting for the broker under
    a lock every 2 s held all of them up at once).
    """
    with _consumers_lock:
        cached = _consumers.get(topic)
        if cached is not None:
            if time.monotonic() - cached[0] > CONSUMERS_TTL and topic not in _recounting:
                _recounting.add(topic)
                threading.Thread(target=_recount, args=(topic,), daemon=True).start()
            return cached[1]
    return _recount(topic)


_recounting = set()


def _recount(topic):
    try:
        count = _count_consumers(topic)
        with _consumers_lock:
            _consumers[topic] = (time.monotonic(), count)
        return count
    finally:
        with _consumers_lock:
            _recounting.discard(topic)


def _amqp_url():
    url = oslo_messaging.TransportURL.parse(cfg.CONF, TRANSPORT_URL)
    if url.transport not in ("rabbit", "amqp") or not url.hosts:
        return None
    host = url.hosts[0]
    return "amqp://%s:%s@%s:%s/%s" % (
        host.username or "guest",
        host.password or "guest",
        host.hostname,
        host.port or 5672,
        url.virtual_host or "",
    )


def _count_consumers(topic):
    """The broker's consumer count of queue ``topic`` on one long-lived connection of
    this process (opened on first use, again after an error). A connection per count
    was a TCP and AMQP handshake every CONSUMERS_TTL: ~8 ms of the API's CPU, during
    which its other requests wait, against ~0.1 ms for a count on an open channel."""
    global _counter
    amqp_url = _amqp_url()
    if amqp_url is None:
        return None
    with _counter_lock:
        try:
            if _counter is None or _counter[0] != amqp_url:
                _close_counter()
                connection = kombu.Connection(amqp_url, connect_timeout=2)
                _counter = (amqp_url, connection, connection.channel())
            connection, channel = _counter[1:]
            try:
                return channel.queue_declare(queue=topic, passive=True).consumer_count
            except connection.channel_errors:
                # no such queue: no server of this topic ever started (the broker
                # closed the channel)
                _counter = (amqp_url, connection, connection.channel())
                return 0
        except (OSError, *kombu.Connection(amqp_url).connection_errors):
            _close_counter()
            return None


_counter = None  # (amqp url, kombu connection, channel) of _count_consumers
_counter_lock = threading.Lock()


def _close_counter():
    global _counter
    if _counter is not None:
        try:
            _counter[1].release()
        except Exception:  # noqa: BLE001 - closing a broken connection
            pass
    _counter = None
