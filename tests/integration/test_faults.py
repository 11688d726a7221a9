"""Faults (issue 9, items 1, 2 and the service side of 6): whatever dies, a stack reaches
COMPLETE or FAILED by itself, can be deleted, and leaves no rows, service rows or queues.

Real processes (api, engine, two workers) on PostgreSQL and RabbitMQ, with the quick
liveness and watchdog settings of tests/fixtures/chaos.py.
"""

import re
import time

import pytest
from heatclient import client as heat_client

from tests.fixtures import chaos

pytestmark = pytest.mark.integration


@pytest.fixture
def heat(backends, tmp_path):
    db_url, transport_url = backends
    procs = chaos.fault_tolerant_processes(tmp_path / "heat", db_url, transport_url)
    procs.transport_url = transport_url
    try:
        procs.start()  # (inside: a start that fails half way stops what it started)
        yield procs
    finally:
        procs.stop()


@pytest.fixture
def hc(heat):
    return heat_client.Client("1", endpoint=heat.endpoint, token="notused")


def _events(hc, stack_id):
    return [
        (e.resource_name, e.resource_status, e.resource_status_reason)
        for e in hc.events.list(stack_id)
    ]


def _deleted_cleanly(hc, heat, stack_id):
    assert chaos.delete_and_wait(hc, stack_id, timeout=180)[0] == "DELETE_COMPLETE"
    assert chaos.wait_no_leaks(heat.database_url, [stack_id]) == {}


def test_worker_killed_mid_resource_create_completes_on_the_survivor(hc, heat):
    stack_id = chaos.create(hc, "killed-worker", chaos.layers_template(3, 4, wait_secs=2))
    dead = chaos.wait_for_lock(heat, stack_id, "worker0")
    chaos.kill(heat, "worker0")

    state, reason = chaos.wait_done(hc, stack_id, timeout=180)

    assert (state, reason) == ("CREATE_COMPLETE", "Stack CREATE completed successfully")
    assert ("CREATE_FAILED", "Worker went down during resource CREATE") in {
        (status, reason) for _name, status, reason in _events(hc, stack_id)
    }
    assert {r.resource_status for r in hc.resources.list(stack_id)} == {"CREATE_COMPLETE"}
    # the survivor finished it; the dead worker's service row and queues are gone
    deadline = time.monotonic() + 30
    while dead in chaos.service_engine_ids(heat.database_url) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert dead not in chaos.service_engine_ids(heat.database_url)
    assert not [q for q in chaos.queues(heat.transport_url) if dead in q]
    _deleted_cleanly(hc, heat, stack_id)


def test_delete_of_a_stack_stranded_by_a_dead_worker(hc, heat):
    stack_id = chaos.create(hc, "stranded", chaos.layers_template(2, 4, wait_secs=30))
    chaos.wait_for_lock(heat, stack_id, "worker0")
    chaos.kill(heat, "worker0")

    _deleted_cleanly(hc, heat, stack_id)


def test_engine_killed_after_201_resumes_on_restart(hc, heat):
    stack_id = chaos.create(hc, "killed-engine", chaos.layers_template(3, 10))
    chaos.kill(heat, "engine")
    chaos.restart(heat, "engine")

    assert chaos.wait_done(hc, stack_id, timeout=180) == (
        "CREATE_COMPLETE",
        "Stack CREATE completed successfully",
    )
    _deleted_cleanly(hc, heat, stack_id)


def test_transient_database_errors_are_retried(hc, heat):
    stack_id = chaos.create(hc, "db-errors", chaos.layers_template(3, 4, wait_secs=1))
    for _ in range(3):
        time.sleep(0.7)
        chaos.terminate_db_connections(heat.database_url)

    assert chaos.wait_done(hc, stack_id, timeout=180)[0] == "CREATE_COMPLETE"
    logs = "".join(heat.log(name) for name in heat.procs)
    assert "Transient database error" in logs
    _deleted_cleanly(hc, heat, stack_id)


# what oslo.messaging and kombu log while the vhost is gone (real Heat logs the same)
BROKER_OUTAGE = (
    r"AMQP server on .* is unreachable|Unable to connect to AMQP server|NOT_ALLOWED"
    r"|Failed to (process incoming|consume|publish) message|Unexpected exception occurred"
    r"|Exception during message handling"
)


def test_vhost_deleted_and_recreated_mid_create(hc, heat, expect_log_errors):
    expect_log_errors(BROKER_OUTAGE)
    stack_id = chaos.create(hc, "vhost", chaos.layers_template(4, 4, wait_secs=1))
    time.sleep(1.5)
    chaos.bounce_vhost(heat.transport_url)

    assert chaos.wait_done(hc, stack_id, timeout=180)[0] == "CREATE_COMPLETE"
    _deleted_cleanly(hc, heat, stack_id)


def test_stack_timeout_fires_with_no_node_running(hc, heat):
    stack_id = chaos.create(
        hc, "timeout", chaos.layers_template(2, 2, wait_secs=60), timeout_mins=1
    )
    chaos.wait_for_lock(heat, stack_id, "worker0")
    chaos.kill(heat, "worker0")
    chaos.kill(heat, "worker1")
    # as if the minute had passed: nothing runs to notice it but the engine
    chaos.shift_stack_clock(heat.database_url, stack_id, 120)

    assert chaos.wait_done(hc, stack_id, timeout=60) == ("CREATE_FAILED", "Timed out")
    chaos.restart(heat, "worker0")
    _deleted_cleanly(hc, heat, stack_id)


def test_sigterm_everything_during_an_update(hc, heat):
    stack_id = chaos.create(hc, "sigterm", chaos.layers_template(3, 3, wait_secs=0))
    assert chaos.wait_done(hc, stack_id)[0] == "CREATE_COMPLETE"
    template = chaos.layers_template(3, 3, wait_secs=3)
    for rsrc in template["resources"].values():
        rsrc["properties"]["value"] += "-new"
    hc.stacks.update(stack_id, template=template)
    time.sleep(2)  # the busy workers are in their first layer's updates

    took = chaos.stop_all(heat)

    assert max(took.values()) < 15, took  # graceful_shutdown_timeout is 2 s
    chaos.start_all(heat)
    assert chaos.wait_done(hc, stack_id, timeout=180)[0] == "UPDATE_COMPLETE"
    # updated in place, or (a node handed back mid-update) replaced
    statuses = {r.resource_status for r in hc.resources.list(stack_id)}
    assert statuses <= {"UPDATE_COMPLETE", "CREATE_COMPLETE"}, statuses
    _deleted_cleanly(hc, heat, stack_id)


def test_restarts_leak_no_service_rows_or_queues(hc, heat):
    killed = chaos.engine_id(heat, "worker0")
    chaos.kill(heat, "worker0")
    chaos.restart(heat, "worker0")
    stopped = chaos.engine_id(heat, "worker1")
    chaos.kill(heat, "worker1", sig=chaos.signal.SIGTERM)

    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        rows = chaos.service_engine_ids(heat.database_url)
        queues = chaos.queues(heat.transport_url)
        # (notifications.* are for the notifications' consumers, not per process)
        idle = [q for q, consumers in queues.items() if not consumers and "notif" not in q]
        if killed not in rows and stopped not in rows and not idle:
            break
        time.sleep(1)
    assert killed not in rows and stopped not in rows
    assert not [q for q in queues if killed in q or stopped in q]
    assert not idle, idle


def _chain_worker(heat, stack_id):
    """The name of the worker process holding a resource lock of the stack, once one does."""
    names = {chaos.engine_id(heat, name): name for name in ("worker0", "worker1")}
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        rows = chaos.query(
            heat.database_url,
            "SELECT engine_id FROM resource WHERE stack_id = :s AND engine_id IS NOT NULL",
            s=stack_id,
        )
        for (holder,) in rows:
            if holder in names:
                return names[holder]
        time.sleep(0.05)
    raise AssertionError("no worker held a resource of %s" % stack_id)


def test_a_chain_is_checked_link_after_link_by_the_worker_that_took_it(hc, heat):
    """A node's report that makes one node ready has the same worker check it next: a
    chain's links all run where the first did (its messages are not sent)."""
    stack_id = chaos.create(hc, "chain", chaos.layers_template(10, 1))
    assert chaos.wait_done(hc, stack_id)[0] == "CREATE_COMPLETE"
    checked = {
        name: len(re.findall(r"check_resource update r\d+_0 ", heat.log(name)))
        for name in ("worker0", "worker1")
    }
    assert sorted(checked.values()) == [0, 10], checked
    _deleted_cleanly(hc, heat, stack_id)


@pytest.mark.parametrize("sig", [chaos.signal.SIGKILL, chaos.signal.SIGTERM], ids=["kill", "term"])
def test_a_chain_survives_the_worker_checking_it(hc, heat, sig):
    """The worker going on along a chain dies (its next link was never sent anywhere) or
    stops (it sends the next link instead of checking it): the other worker finishes."""
    stack_id = chaos.create(hc, "chain-dies", chaos.layers_template(6, 1, wait_secs=1))
    time.sleep(1.5)  # into the second link
    chaos.kill(heat, _chain_worker(heat, stack_id), sig=sig)

    assert chaos.wait_done(hc, stack_id, timeout=180)[0] == "CREATE_COMPLETE"
    assert {r.resource_status for r in hc.resources.list(stack_id)} == {"CREATE_COMPLETE"}
    _deleted_cleanly(hc, heat, stack_id)
