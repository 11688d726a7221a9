"""When heat-lite says a stack's action ended, heard at once instead of polled for.

heat-lite with ``[oslo_messaging_notifications] driver = messaging`` announces every
stack state as Heat does (``orchestration.stack.<action>.<start|end|error>``, exchange
``heat``, topic ``notifications``). A benchmark listening there times an action to the
moment the engine announced its end, without asking the API every few milliseconds
(polling a 2-second k8s tree every 50 ms took a quarter of the services' CPU).

    with stack_events.StackEnds(transport_url) as ends:
        start = time.monotonic()
        stack_id = hc.stacks.create(...)["stack"]["id"]
        event_type, at = ends.wait(stack_id, "create", timeout=60)
        seconds = at - start        # then ask the API once: it must agree
"""

import threading
import time

import oslo_messaging
from oslo_config import cfg


class StackEnds:
    """A notification listener recording, per stack, when each action ended (or failed)."""

    def __init__(self, transport_url):
        self._ended = {}
        self._cond = threading.Condition()
        self._transport = oslo_messaging.get_notification_transport(
            cfg.ConfigOpts(), url=transport_url
        )
        targets = [oslo_messaging.Target(topic="notifications", exchange="heat")]
        self._listener = oslo_messaging.get_notification_listener(
            self._transport, targets, [self], executor="threading"
        )

    def __enter__(self):
        self._listener.start()
        return self

    def __exit__(self, *exc):
        self._listener.stop()
        self._listener.wait()
        self._transport.cleanup()

    def _record(self, event_type, payload):
        action, _, phase = event_type.rpartition(".")
        if phase in ("end", "error"):
            key = (payload.get("stack_identity"), action.rsplit(".", 1)[-1])
            with self._cond:
                self._ended.setdefault(key, (event_type, time.monotonic()))
                self._cond.notify_all()

    def info(self, ctxt, publisher_id, event_type, payload, metadata):
        self._record(event_type, payload or {})

    def error(self, ctxt, publisher_id, event_type, payload, metadata):
        self._record(event_type, payload or {})

    def wait(self, stack_id, action, timeout):
        """(event_type, monotonic time heard) of the end of ``action`` of ``stack_id``."""
        key = (stack_id, action)
        with self._cond:
            if not self._cond.wait_for(lambda: key in self._ended, timeout):
                raise RuntimeError("no end of %s of stack %s heard" % (action, stack_id))
            return self._ended.pop(key)
