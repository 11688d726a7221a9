"""oslo.messaging in one place: the transport, clients, servers and the context serializer.

    rpc.init(CONF)                                   # transport_url from config
    client = rpc.get_client(target, serializer=objects.base.MagnumObjectSerializer())
    server = rpc.get_server(target, endpoints, serializer=...)
    rpc.cleanup()

Tests use ``rpc.init(CONF, url='fake://')``: API and conductor in one process.
"""

import oslo_messaging
import oslo_messaging.opts

from magnum_lite.common import context as magnum_context
from magnum_lite.conf import CONF

TRANSPORT = None
NOTIFICATION_TRANSPORT = None

ALLOWED_EXMODS = ["magnum_lite.common.exception"]


class RequestContextSerializer(oslo_messaging.Serializer):
    """Contexts travel as dicts; entities through ``base`` (the object serializer)."""

    def __init__(self, base=None):
        self._base = base or oslo_messaging.NoOpSerializer()

    def serialize_entity(self, ctxt, entity):
        return self._base.serialize_entity(ctxt, entity)

    def deserialize_entity(self, ctxt, entity):
        return self._base.deserialize_entity(ctxt, entity)

    def serialize_context(self, ctxt):
        return ctxt.to_dict()

    def deserialize_context(self, ctxt):
        return magnum_context.RequestContext.from_dict(ctxt)


def _register_global_only_opts(conf):
    """oslo.messaging registers its metrics and tracing options on the global cfg.CONF
    only, yet reads them from the transport's conf: give magnum's ConfigOpts a copy."""
    import importlib

    for module, name in (
        ("_metrics", "oslo_messaging_metrics"),
        ("_tracing", "oslo_messaging_tracing"),
    ):
        try:
            opts = getattr(importlib.import_module("oslo_messaging.%s.client" % module), name)
        except (ImportError, AttributeError):  # an oslo.messaging without them
            continue
        conf.register_opts(opts, group=name)


# The first wait of oslo.messaging's RabbitMQ listeners after a message (1 ms by default,
# doubled on each timeout up to 5 s), longer: each timeout raises through kombu's retry
# wrappers and leaves reference cycles to the garbage collector, over and over between
# the messages of a busy conductor. Only when an ack queued by a handler's thread leaves
# depends on it (casts are acked before they are dispatched; no prefetch limit is set).
POLL_FIRST_TIMEOUT = 0.05


def tune_polling():
    """Start the listeners' waits at POLL_FIRST_TIMEOUT; False if this oslo.messaging
    has no such setting."""
    from oslo_messaging._drivers import amqpdriver

    if not hasattr(amqpdriver, "ACK_REQUEUE_EVERY_SECONDS_MIN"):
        return False
    amqpdriver.ACK_REQUEUE_EVERY_SECONDS_MIN = POLL_FIRST_TIMEOUT
    return True


# A process's fanout and reply queues are deleted this long after it stopped consuming
# them (x-expires), as heat-lite sets it: a conductor killed with -9 leaves its
# ``magnum-conductor_fanout_<id>`` queue for a minute, not oslo.messaging's 30 minutes.
TRANSIENT_QUEUES_TTL = 60


def _set_queue_expiry(conf):
    """[oslo_messaging_rabbit] rabbit_transient_queues_ttl defaults to
    TRANSIENT_QUEUES_TTL (a value in the config files still wins)."""
    for group, opts in oslo_messaging.opts.list_opts():
        if group == "oslo_messaging_rabbit":
            ttl = [o for o in opts if o.name == "rabbit_transient_queues_ttl"]
            conf.register_opts(ttl, group=group)
            conf.set_default("rabbit_transient_queues_ttl", TRANSIENT_QUEUES_TTL, group=group)


def init(conf=None, url=None):
    """Create the process-wide RPC transport (idempotent); ``url`` overrides transport_url."""
    global TRANSPORT
    if TRANSPORT is None:
        tune_polling()
        _register_global_only_opts(conf or CONF)
        _set_queue_expiry(conf or CONF)
        oslo_messaging.set_transport_defaults("magnum")
        TRANSPORT = oslo_messaging.get_rpc_transport(
            conf or CONF, url=url, allowed_remote_exmods=ALLOWED_EXMODS
        )
    return TRANSPORT


def get_notification_transport(conf=None, url=None):
    global NOTIFICATION_TRANSPORT
    if NOTIFICATION_TRANSPORT is None:
        NOTIFICATION_TRANSPORT = oslo_messaging.get_notification_transport(
            conf or CONF, url=url, allowed_remote_exmods=ALLOWED_EXMODS
        )
    return NOTIFICATION_TRANSPORT


def cleanup():
    global TRANSPORT, NOTIFICATION_TRANSPORT
    for transport in (TRANSPORT, NOTIFICATION_TRANSPORT):
        if transport is not None:
            transport.cleanup()
    TRANSPORT = NOTIFICATION_TRANSPORT = None


def get_client(target, serializer=None, timeout=None):
    assert TRANSPORT is not None, "rpc.init() first"
    return oslo_messaging.get_rpc_client(
        TRANSPORT, target, serializer=RequestContextSerializer(serializer), timeout=timeout
    )


def get_server(target, endpoints, serializer=None):
    assert TRANSPORT is not None, "rpc.init() first"
    return oslo_messaging.get_rpc_server(
        TRANSPORT,
        target,
        endpoints,
        executor="threading",
        serializer=RequestContextSerializer(serializer),
    )
