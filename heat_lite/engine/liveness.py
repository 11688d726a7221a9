"""Which engines and workers are alive, and the cleanup of what dead ones leave behind.

Every heat-lite-engine and heat-lite-worker process registers itself: a ``service`` row
with its engine_id (refreshed every ``periodic_interval``) and an RPC server on topic
``heat-engine-listener``, server = engine_id, that answers ``listening`` (Heat's
EngineListener). An engine is alive when it has a row and answers within
``engine_life_check_timeout`` (Heat's stale-lock check). A service stopped cleanly removes
its row and its queues; the rows of dead ones are reaped as Heat's
``service_manage_cleanup`` does, together with their per-process RabbitMQ queues.

    registration = liveness.Registration(host, engine_id, "heat-worker", topic)
    registration.start()
    liveness.is_alive(ctx, other_engine_id)
    registration.stop()
"""

import logging
import socket
import threading

import kombu
import oslo_messaging

from heat_lite.common import context as context_mod
from heat_lite.common import messaging
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.rpc import api as rpc_api
from heat_lite.rpc import listener_client

LOG = logging.getLogger(__name__)

# the engine_id of this process once it has registered (None in unit tests), and the
# Registration that did it (an engine and a worker sharing one process share one)
_OWN = {"engine_id": None, "registration": None}


def own_engine_id():
    return _OWN["engine_id"]


class EngineListener:
    """The endpoint of topic heat-engine-listener (version 1.0)."""

    target = oslo_messaging.Target(version="1.0")

    def listening(self, cnxt):
        return True


class Registration:
    """This process's service row, its heartbeat and its listener."""

    def __init__(self, host, engine_id, binary, topic):
        self.engine_id = engine_id
        self._values = {
            "engine_id": engine_id,
            "host": host,
            "hostname": socket.gethostname(),
            "binary": binary,
            "topic": topic,
            "report_interval": CONF.periodic_interval,
        }
        self._service_id = None
        self._server = None
        self._stop = threading.Event()

    def start(self):
        if _OWN["registration"] is not None and _OWN["engine_id"] == self.engine_id:
            return  # this process is registered under that engine_id already
        self._service_id = db_api.service_create(dict(self._values))
        _OWN.update(engine_id=self.engine_id, registration=self)
        target = oslo_messaging.Target(
            topic=rpc_api.LISTENER_TOPIC, server=self.engine_id, version="1.0"
        )
        self._server = messaging.get_rpc_server(target, [EngineListener()])
        self._server.start()
        threading.Thread(target=self._heartbeat, daemon=True).start()

    def _heartbeat(self):
        while not self._stop.wait(CONF.periodic_interval):
            try:
                if not db_api.service_update(self._service_id):
                    # reaped while this process was unreachable: it is back
                    db_api.service_create(dict(self._values, id=self._service_id))
            except Exception:
                LOG.exception("Service heartbeat failed")

    def stop(self):
        self._stop.set()
        if self._server is not None:
            self._server.stop()
            self._server.wait()
            self._server = None
        if self._service_id is not None:
            db_api.service_delete(self._service_id)
            self._service_id = None
            delete_queues(self.engine_id, _engine_host(self._values))
        if _OWN["registration"] is self:
            _OWN.update(engine_id=None, registration=None)


def is_alive(cnxt, engine_id):
    """Whether the engine or worker ``engine_id`` is running (this process is)."""
    if engine_id == own_engine_id():
        return True
    if db_api.service_get_by_engine_id(engine_id) is None:
        return False
    return listener_client.EngineListenerClient(engine_id).is_alive(cnxt)


def reap_stale_services():
    """Delete the service rows (and queues) of engines that stopped reporting and do not
    answer: silent for two report intervals, as Heat's service_manage_cleanup."""
    now = db_api.utcnow()
    cnxt = context_mod.get_admin_context()
    for row in db_api.service_get_all():
        last = row.updated_at or row.created_at
        if (now - last).total_seconds() <= 2 * row.report_interval:
            continue
        if is_alive(cnxt, row.engine_id):
            continue
        LOG.info("Service %s (%s, engine %s) is gone", row.id, row.binary, row.engine_id)
        db_api.service_delete(row.id)
        delete_queues(row.engine_id, _engine_host(row._mapping))


def _engine_host(service):
    """The host whose ``engine.<host>`` queue an engine's service served (None: a worker)."""
    return service["host"] if service["topic"] == rpc_api.ENGINE_TOPIC else None


def delete_queues(engine_id, host=None):
    """Delete the RabbitMQ queues that only the process ``engine_id`` consumed, unless
    another consumer has them: its ``<topic>.<engine_id>`` queues (and an engine's
    ``engine.<host>``, when no other engine of that host serves it). oslo.messaging never
    expires them; fanout and reply queues expire by themselves
    (rabbit_transient_queues_ttl)."""
    url = CONF.transport_url or ""
    amqp_url = _amqp_url(url) if url.startswith("rabbit") else None
    if amqp_url is None:
        return
    names = [
        "%s.%s" % (topic, engine_id) for topic in (rpc_api.WORKER_TOPIC, rpc_api.LISTENER_TOPIC)
    ]
    if host is not None:
        names.append("%s.%s" % (rpc_api.ENGINE_TOPIC, host))
    try:
        with kombu.Connection(amqp_url, connect_timeout=5) as conn:
            for name in names:
                channel = conn.channel()
                try:
                    channel.queue_delete(name, if_unused=True)
                    channel.close()
                except conn.channel_errors:
                    pass  # still consumed: not ours alone
    except Exception as exc:
        LOG.warning("Could not delete the queues of %s: %s", engine_id, exc)


def _amqp_url(transport_url):
    parsed = oslo_messaging.TransportURL.parse(CONF, transport_url)
    if not parsed.hosts:
        return None
    host = parsed.hosts[0]
    return "amqp://%s:%s@%s:%s/%s" % (
        host.username or "guest",
        host.password or "guest",
        host.hostname,
        host.port or 5672,
        parsed.virtual_host or "",
    )
