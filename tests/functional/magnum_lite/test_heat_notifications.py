"""heat-lite announces stack state changes as Heat does, and magnum's listener hears
them: the real engine and worker in process (``fake://``), notifications on, the
conductor's listener on the same transport."""

import threading
import time

import oslo_messaging
import pytest
from oslo_config import cfg

from heat_lite.common import messaging
from magnum_lite.conductor import heat_listener
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "description": "two values",
    "resources": {"a": {"type": "OS::Heat::None"}, "b": {"type": "OS::Heat::None"}},
}


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        for group, opts in oslo_messaging.opts.list_opts():
            if group == "oslo_messaging_notifications":
                cfg.CONF.register_opts(opts, group=group)
        cfg.CONF.set_override("driver", ["messaging"], group="oslo_messaging_notifications")
        try:
            yield h
        finally:
            cfg.CONF.clear_override("driver", group="oslo_messaging_notifications")


def _wait_for(events, predicate, timeout=20):
    deadline = time.monotonic() + timeout
    while not predicate(events):
        assert time.monotonic() < deadline, events
        time.sleep(0.02)


def test_stack_events_reach_the_listener(heat):
    events = []
    lock = threading.Lock()

    def on_stack_event(stack_id, event_type, payload):
        with lock:
            events.append((stack_id, event_type, payload))

    notifier = messaging.get_notifier()
    listener = heat_listener.get_listener(notifier.transport, on_stack_event, ["notifications"])
    listener.start()
    try:
        ident = heat.client.create_stack(heat.ctx, "s1", TEMPLATE, {}, {}, {})
        inprocess.wait_for_status(heat, ident, {"CREATE_COMPLETE"})
        _wait_for(events, lambda e: any(t.endswith("create.end") for _, t, _ in e))
        heat.client.delete_stack(heat.ctx, ident)
        _wait_for(events, lambda e: any(t.endswith("delete.end") for _, t, _ in e))
    finally:
        listener.stop()
        listener.wait()
    types = [t for _, t, _ in events]
    assert types[:2] == ["orchestration.stack.create.start", "orchestration.stack.create.end"]
    assert "orchestration.stack.delete.start" in types
    stack_id, _, payload = events[1]
    assert stack_id == ident["stack_id"]
    assert payload["stack_name"] == "s1" and payload["state"] == "CREATE_COMPLETE"
    assert payload["tenant_id"] == "p1" and payload["description"] == "two values"
    assert payload["state_reason"] == "Stack CREATE completed successfully"
