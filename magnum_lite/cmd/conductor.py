"""magnum-lite-conductor: the RPC server on topic ``magnum-conductor`` with the cluster,
nodegroup and certificate endpoints, the periodic status sync and heartbeat, and the
listener of Heat's stack notifications (instant status)."""

import eventlet

eventlet.monkey_patch()

import logging  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402

import oslo_messaging as messaging  # noqa: E402

from magnum_lite.cmd import common  # noqa: E402
from magnum_lite.common import rpc, x509  # noqa: E402
from magnum_lite.conductor import api as conductor_api  # noqa: E402
from magnum_lite.conductor import handlers, heat_listener  # noqa: E402
from magnum_lite.drivers import loader  # noqa: E402
from magnum_lite.objects import base as objects_base  # noqa: E402
from magnum_lite.service import periodic  # noqa: E402

LOG = logging.getLogger(__name__)


def start_rpc_server(conf):
    target = messaging.Target(
        topic=conf.conductor.topic, server=conf.host, version=conductor_api.RPC_API_VERSION
    )
    server = rpc.get_server(
        target, handlers.endpoints(), serializer=objects_base.MagnumObjectSerializer()
    )
    server.start()
    LOG.info("magnum-lite-conductor listening on topic %s", conf.conductor.topic)
    return server


def on_stack_event(stack_id, event_type, payload):
    """A stack finished (``.end``) or failed (``.error``): sync its cluster now."""
    if event_type.endswith((".end", ".error")):
        LOG.info("Heat %s of stack %s: syncing its cluster", event_type, stack_id)
        periodic.sync_stack(stack_id)


def start_notification_listener(conf):
    """Heat's orchestration.stack.* notifications sync the cluster at once."""
    if not conf.heat_notifications.enabled:
        return None
    listener = heat_listener.get_listener(heat_listener.get_transport(), on_stack_event)
    listener.start()
    LOG.info("Listening for Heat's stack notifications")
    return listener


def start(conf):
    """The conductor's parts, started: the x509 key pool, the RPC server on topic
    magnum-conductor, the periodic tasks and the notification listener, and the drivers
    made ready in the background (their first cluster does not parse their templates).
    Returns what stops them, in order (ConfigInvalid without a key for private keys)."""
    x509.check_encryption_key()
    x509.key_pool.start()
    threading.Thread(target=loader.warm_up, name="driver-warm-up", daemon=True).start()
    server = start_rpc_server(conf)
    tasks = periodic.PeriodicTasks(conf.host)
    tasks.start()
    listener = start_notification_listener(conf)
    stops = [server.stop, server.wait, tasks.stop]
    if listener is not None:
        stops[:0] = [listener.stop, listener.wait]
    return stops


def main(argv=None):
    conf = common.prepare(sys.argv[1:] if argv is None else argv, "magnum-lite-conductor")
    common.serve_forever(start(conf))


if __name__ == "__main__":
    main()
