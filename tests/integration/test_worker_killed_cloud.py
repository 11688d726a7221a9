"""A worker killed (kill -9) while it makes a cloud object (issue 29): the object's id is
on the resource row from the moment the cloud answered, so the worker that takes the node
over keeps the object (Heat's needs_replace_failed) instead of making a second, and the
stack's delete deletes it: nothing is left in the simulated cloud.

Real processes (api, engine, two workers, simcloud-api) on PostgreSQL and RabbitMQ, with
the quick liveness and watchdog settings of tests/fixtures/chaos.py.
"""

import time

import pytest
from heatclient import client as heat_client

from heat_lite.engine import resource
from tests.fixtures import chaos

pytestmark = pytest.mark.integration

BUILD_SECS = 8  # the server stays in BUILD that long: the kill comes during its wait


@pytest.fixture
def heat(backends, tmp_path):
    db_url, transport_url = backends
    procs = chaos.fault_tolerant_processes(tmp_path / "heat", db_url, transport_url)
    try:
        procs.start()
        yield procs
    finally:
        procs.stop()


@pytest.fixture
def hc(heat):
    return heat_client.Client("1", endpoint=heat.endpoint, token="notused")


def _server_row_while_building(heat, stack_id, timeout=60):
    """(holder engine_id, physical id) of the server's row once the create holds it with
    the cloud's id stored, still CREATE_IN_PROGRESS."""
    deadline = time.monotonic() + timeout
    while True:
        rows = chaos.query(
            heat.database_url,
            "SELECT engine_id, nova_instance, action, status FROM resource "
            "WHERE stack_id = :s AND name = 'server'",
            s=stack_id,
        )
        if rows and rows[0][1]:
            holder, physical_id, action, status = rows[0]
            assert (action, status) == ("CREATE", "IN_PROGRESS"), rows
            assert holder is not None
            return holder, physical_id
        assert time.monotonic() < deadline, "the server's id was never stored: %s" % rows
        time.sleep(0.02)


def _cloud_object(heat, obj_id):
    from simcloud.db import api as sim_db
    from simcloud.db import objects as sim_objects

    sim_db.configure(heat.cloud.database_url)
    try:
        return sim_objects.get(obj_id)
    finally:
        sim_db.dispose()


def test_server_a_killed_worker_was_building_is_kept_then_deleted(hc, heat):
    before = heat.cloud.objects()
    heat.cloud.inject(build_time=BUILD_SECS)
    stack_id = chaos.create(hc, "killed-building", chaos.cloud_template(rules=7))

    holder, server_id = _server_row_while_building(heat, stack_id)
    # the cloud has it, still building, while the row shows its id
    server = _cloud_object(heat, server_id)
    assert server["kind"] == "nova.server" and server["status"] == "BUILD", server
    worker = {chaos.engine_id(heat, n): n for n in heat.procs if n.startswith("worker")}[holder]
    chaos.kill(heat, worker)

    state, reason = chaos.wait_done(hc, stack_id, timeout=180)
    assert (state, reason) == ("CREATE_COMPLETE", "Stack CREATE completed successfully")
    events = {
        (e.resource_name, e.resource_status, e.resource_status_reason)
        for e in hc.events.list(stack_id)
    }
    assert ("server", "CREATE_FAILED", "Worker went down during resource CREATE") in events
    assert ("server", "CREATE_COMPLETE", resource.KEPT_FAILED_REASON) in events
    # taken over, not made again: one server, the one the dead worker made
    kept = [
        r.physical_resource_id for r in hc.resources.list(stack_id) if r.resource_name == "server"
    ]
    assert kept == [server_id]
    assert heat.cloud.objects().get("nova.server") == 1, heat.cloud.objects()

    heat.cloud.inject()
    assert chaos.delete_and_wait(hc, stack_id, timeout=180)[0] == "DELETE_COMPLETE"
    assert chaos.wait_no_leaks(heat.database_url, [stack_id]) == {}
    assert heat.cloud.objects() == before
