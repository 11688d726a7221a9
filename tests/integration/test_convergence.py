"""The convergence engine end to end: api, engine and two workers as processes, on the
real PostgreSQL and RabbitMQ, driven through python-heatclient."""

import time

import pytest
import sqlalchemy as sa

from tests.integration import helpers

pytestmark = pytest.mark.integration


@pytest.fixture
def db(heat):
    engine = sa.create_engine(heat.database_url)
    yield engine
    engine.dispose()


def _count(db, sql, **params):
    with db.connect() as conn:
        return conn.execute(sa.text(sql), params).scalar()


SYNC_POINTS = "SELECT count(*) FROM sync_point WHERE stack_id = :s"


def _count_settled(db, sql, timeout=10, **params):
    """_count once it is 0, or after ``timeout``: the rows of a finished traversal go just
    after the stack's state is written (Heat's order: state, then purge)."""
    deadline = time.monotonic() + timeout
    while (found := _count(db, sql, **params)) and time.monotonic() < deadline:
        time.sleep(0.1)
    return found


def test_layers_create_and_delete(hc, heat, db):
    layers, width = 6, 10
    created = hc.stacks.create(
        stack_name="layers", template=helpers.layered_template(layers, width)
    )
    stack_id = created["stack"]["id"]
    seen_sync_points = []

    def watch():
        seen_sync_points.append(
            _count(db, "SELECT count(*) FROM sync_point WHERE stack_id = :s", s=stack_id)
        )

    stack = helpers.wait_for_status(
        hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"}, on_poll=watch
    )
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert stack.stack_status_reason == "Stack CREATE completed successfully"

    resources = hc.resources.list(stack_id)
    assert len(resources) == layers * width
    assert {r.resource_status for r in resources} == {"CREATE_COMPLETE"}
    assert {r.resource_type for r in resources} == {"OS::Heat::TestResource"}

    outputs = {o["output_key"]: o["output_value"] for o in stack.outputs}
    assert outputs["first"] == helpers.expected_layer_value(layers, width)
    assert outputs["ref"].startswith("layers-r5_0-")

    # both workers did part of the traversal
    for name in ("worker0", "worker1"):
        assert "check_resource update" in heat.log(name), name
    # sync points existed while it ran, and are gone once it completed
    assert max(seen_sync_points) > 0
    assert (
        _count_settled(db, "SELECT count(*) FROM sync_point WHERE stack_id = :s", s=stack_id) == 0
    )

    events = hc.events.list(stack_id)
    assert any(e.resource_name == "r0_0" and e.resource_status == "CREATE_COMPLETE" for e in events)

    hc.stacks.delete(stack_id)
    stack = helpers.wait_for(hc, stack_id, "DELETE_COMPLETE")
    assert _count_settled(db, "SELECT count(*) FROM resource WHERE stack_id = :s", s=stack_id) == 0
    assert (
        _count_settled(db, "SELECT count(*) FROM sync_point WHERE stack_id = :s", s=stack_id) == 0
    )
    assert "layers" not in [s.stack_name for s in hc.stacks.list()]


def test_failing_resource_fails_the_stack(hc):
    template = helpers.layered_template(3, 3, fail="r1_1")
    stack_id = hc.stacks.create(stack_name="failing", template=template)["stack"]["id"]
    stack = helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason == (
        "Resource CREATE failed: ValueError: resources.r1_1: Test Resource failed r1_1"
    )
    status = {r.resource_name: r.resource_status for r in hc.resources.list(stack_id)}
    assert status["r1_1"] == "CREATE_FAILED"
    for i in range(3):
        assert status["r0_%d" % i] == "CREATE_COMPLETE"
        assert status["r2_%d" % i] == "INIT_COMPLETE"  # its requirers were never created
    reasons = [
        e.resource_status_reason
        for e in hc.events.list(stack_id)
        if e.resource_name == "r1_1" and e.resource_status == "CREATE_FAILED"
    ]
    assert reasons == ["ValueError: resources.r1_1: Test Resource failed r1_1"]

    hc.stacks.delete(stack_id)
    stack = helpers.wait_for(hc, stack_id, "DELETE_COMPLETE")
