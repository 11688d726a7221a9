"""Heat's stack notifications over RabbitMQ: heat-lite's engine and workers (real
processes, notifications on) announce every stack state; the conductor's listener
(magnum_lite.conductor.heat_listener, on the same broker) hears each one with the
stack id, the failures at once with Heat's reason."""

import threading
import time

import pytest
from heatclient import client as heat_client

from magnum_lite.conductor import heat_listener
from tests.fixtures import services
from tests.integration import helpers

pytestmark = pytest.mark.integration

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "parameters": {"fail": {"type": "boolean", "default": False}},
    "resources": {
        "r": {"type": "OS::Heat::TestResource", "properties": {"fail": {"get_param": "fail"}}}
    },
}


@pytest.fixture(scope="module")
def heat(backends, tmp_path_factory):
    db_url, transport_url = backends
    procs = services.HeatProcesses(tmp_path_factory.mktemp("heat"), db_url, transport_url)
    procs.conf.write_text(
        procs.conf.read_text() + "\n[oslo_messaging_notifications]\ndriver = messaging\n"
    )
    procs.start()
    try:
        yield procs
    finally:
        procs.stop()


@pytest.fixture
def events(backends):
    received, lock = [], threading.Lock()

    def on_stack_event(stack_id, event_type, payload):
        with lock:
            received.append((stack_id, event_type, payload))

    transport = heat_listener.get_transport(backends[1])
    listener = heat_listener.get_listener(transport, on_stack_event, pool="test-conductors")
    listener.start()
    try:
        yield received
    finally:
        listener.stop()
        listener.wait()
        transport.cleanup()


def _wait_for(events, stack_id, event_type, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for sid, etype, payload in list(events):
            if sid == stack_id and etype == event_type:
                return payload
        time.sleep(0.02)
    raise AssertionError("no %s for %s in %s" % (event_type, stack_id, events))


def test_stack_lifecycle_is_announced(heat, events):
    hc = heat_client.Client("1", endpoint=heat.endpoint, token="notused")
    stack_id = hc.stacks.create(stack_name="announced", template=TEMPLATE)["stack"]["id"]
    start = _wait_for(events, stack_id, "orchestration.stack.create.start")
    assert start["state"] == "CREATE_IN_PROGRESS" and start["stack_name"] == "announced"
    end = _wait_for(events, stack_id, "orchestration.stack.create.end")
    assert end["state"] == "CREATE_COMPLETE" and end["tenant_id"] == "admin"
    helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE"})

    failing = hc.stacks.create(stack_name="failing", template=TEMPLATE, parameters={"fail": True})[
        "stack"
    ]["id"]
    error = _wait_for(events, failing, "orchestration.stack.create.error")
    assert error["state"] == "CREATE_FAILED" and error["state_reason"]

    hc.stacks.delete(stack_id)
    _wait_for(events, stack_id, "orchestration.stack.delete.end")
