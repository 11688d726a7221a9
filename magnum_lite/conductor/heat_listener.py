"""Instant status from Heat: a notification listener for Heat's stack notifications.

Heat (and heat-lite with ``[oslo_messaging_notifications] driver = messaging``)
publishes ``orchestration.stack.<action>.<start|end|error>`` on the ``heat`` exchange,
topic ``notifications``. The conductor listens there and hands the stack id to a
callback, which syncs the cluster (or nodegroup) owning that stack at once; the
periodic sync stays as the safety net for lost notifications.

    listener = heat_listener.get_listener(heat_listener.get_transport(), on_stack_event)
    listener.start()      # on_stack_event(stack_id, event_type, payload) per notification
    ...
    listener.stop(); listener.wait()

Topics and the listener pool come from ``[heat_notifications]``.
"""

import logging

import oslo_messaging

from magnum_lite.conf import CONF

LOG = logging.getLogger(__name__)

HEAT_EXCHANGE = "heat"
STACK_EVENTS = r"^orchestration\.stack\..*"


class StackNotificationEndpoint:
    """Calls ``callback(stack_id, event_type, payload)`` for every stack notification."""

    filter_rule = oslo_messaging.NotificationFilter(event_type=STACK_EVENTS)

    def __init__(self, callback):
        self.callback = callback

    def _handle(self, event_type, payload):
        stack_id = (payload or {}).get("stack_identity")
        if not stack_id:
            return oslo_messaging.NotificationResult.HANDLED
        try:
            self.callback(stack_id, event_type, payload)
        except Exception:
            LOG.exception("Handling %s of stack %s failed", event_type, stack_id)
        return oslo_messaging.NotificationResult.HANDLED

    def info(self, ctxt, publisher_id, event_type, payload, metadata):
        return self._handle(event_type, payload)

    def error(self, ctxt, publisher_id, event_type, payload, metadata):
        return self._handle(event_type, payload)


def get_transport(url=None):
    """The notification transport: ``url``, else ``[heat_notifications] transport_url``,
    else ``[DEFAULT] transport_url``."""
    url = url or CONF.heat_notifications.transport_url
    return oslo_messaging.get_notification_transport(CONF, url=url)


def get_listener(transport, callback, topics=None, pool=None, executor="threading"):
    """A notification listener (not started) for Heat's stack notifications."""
    targets = [
        oslo_messaging.Target(topic=topic, exchange=HEAT_EXCHANGE)
        for topic in topics or CONF.heat_notifications.topics
    ]
    return oslo_messaging.get_notification_listener(
        transport,
        targets,
        [StackNotificationEndpoint(callback)],
        executor=executor,
        pool=pool or CONF.heat_notifications.pool,
    )
