"""A worker that dies mid-traversal, driven by the simulator: the message it had is lost,
and the engine's watchdog (recovery.check_all) sends the ready node again; a resource left
IN_PROGRESS under the dead worker's engine_id is taken over (Heat's stale lock check:
``Worker went down during resource CREATE``) and the stack still completes."""

import pytest

from heat_lite.db import api as db_api
from tests.unit.heat_lite.engine.convergence.test_create import (
    DIAMOND,
    assert_in_dependency_order,
    template,
)

pytestmark = pytest.mark.unit

DEAD = "worker-dead"


def died_holding_the_lock(sim):
    """The worker that took the first pending message died mid-create: the message is
    gone, and the resource row is as that worker's lock write left it."""
    lost = sim.pending.pop(0)
    row, _stack = db_api.resource_get_with_stack(lost.node()[0])
    assert db_api.resource_update(
        row.id,
        {"action": "CREATE", "status": "IN_PROGRESS", "engine_id": DEAD},
        row.atomic_key,
    )
    return lost


def test_a_lost_message_is_sent_again_by_the_watchdog(sim):
    ident = sim.create("s", template(DIAMOND))
    sim.step()  # the traversal starts: a is cast
    sim.step()  # a is created; b's are ready: one continued here, two cast
    lost = sim.pending.pop(0)  # a worker took it, and died before it acted
    sim.run()
    assert sim.state(ident) == "CREATE_IN_PROGRESS"  # stuck: c waits for the lost b

    sim.watchdog_pass()
    assert sim.pending == []  # not stalled yet: nothing sent
    sim.watchdog_pass(later=120)  # past convergence_stall_timeout
    assert [item.node() for item in sim.pending] == [lost.node()]
    sim.run()

    assert sim.state(ident) == "CREATE_COMPLETE"
    assert_in_dependency_order(sim.completed(ident, "CREATE"), DIAMOND)


def test_a_resource_left_in_progress_by_a_dead_worker_is_taken_over(sim):
    ident = sim.create("s", template(DIAMOND))
    sim.step()
    sim.step()
    lost = died_holding_the_lock(sim)
    name = sim.resource_name(lost.node()[0])
    sim.run()
    assert sim.state(ident) == "CREATE_IN_PROGRESS"

    sim.watchdog_pass()  # a lock of a dead engine: no need to wait for a stall
    assert [item.node() for item in sim.pending] == [lost.node()]
    sim.run()

    assert sim.state(ident) == "CREATE_COMPLETE"
    events = sim.events(ident)
    went_down = [e for e in events if e[0] == name and e[2] == "FAILED"]
    assert went_down == [(name, "CREATE", "FAILED")]
    assert events.index(went_down[0]) < events.index(("c", "CREATE", "IN_PROGRESS"))
    assert (name, "CREATE", "COMPLETE") in events
    # as Heat: the failed row is replaced (a new row, created), the old one left for the
    # next traversal to clean up
    assert events[events.index(went_down[0]) + 1] == (name, "UPDATE", "COMPLETE")
    rows = [r for r in db_api.resource_get_all_by_stack(ident["stack_id"]) if r.name == name]
    assert sorted((r.action, r.status) for r in rows) == [
        ("CREATE", "COMPLETE"),
        ("CREATE", "FAILED"),
    ]
    old = next(r for r in rows if r.status == "FAILED")
    assert old.status_reason == "Worker went down during resource CREATE"
    assert old.engine_id is None and old.replaced_by is not None
    others = [r for r in sim.resources(ident) if r[0] != name]
    assert all(status == "COMPLETE" for _name, _action, status in others)


def test_the_next_update_cleans_up_the_row_the_dead_worker_left(sim):
    ident = sim.create("s", template(DIAMOND))
    sim.step()
    sim.step()
    died_holding_the_lock(sim)
    sim.run()
    sim.watchdog_pass()
    sim.run()

    sim.update(ident, template(DIAMOND))
    sim.run("lifo")
    assert sim.state(ident) == "UPDATE_COMPLETE"
    assert [r[0] for r in sim.resources(ident)] == sorted(DIAMOND)
