"""Two traversals of one stack, driven by the simulator: an update supersedes a create in
progress. The create's messages still queued are dropped by the worker (their traversal
is not the stack's any more), the one a worker was about to check next itself is dropped
too, and the update's traversal alone finishes the stack."""

import pytest

from tests.unit.heat_lite.engine.convergence import simulator
from tests.unit.heat_lite.engine.convergence.test_create import (
    DIAMOND,
    ORDER_IDS,
    ORDERS,
    WIDE,
    assert_in_dependency_order,
    template,
)

pytestmark = pytest.mark.unit


def changed(graph):
    """The same graph, every resource with another value (each one updated)."""
    tmpl = template(graph)
    for defn in tmpl["resources"].values():
        defn["properties"]["value"] += "-2"
    return tmpl


def traversal_of(cast):
    return cast.kwargs["current_traversal"]


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_an_update_supersedes_a_create_in_progress(sim, order):
    ident = sim.create("s", template(WIDE))
    sim.step()  # the create's traversal starts: six leaves cast
    sim.step()
    sim.step()  # two of them created
    create_traversal = sim.stack_row(ident).current_traversal
    stale = list(sim.pending)
    assert len(stale) == 4 and {traversal_of(c) for c in stale} == {create_traversal}

    sim.update(ident, changed(WIDE))
    assert sim.stack_row(ident).current_traversal != create_traversal
    # the create's sync points went with its traversal
    assert sim.sync_points(ident) == {}
    start = len(sim.delivered)
    sim.run(order)

    assert sim.state(ident) == "UPDATE_COMPLETE"
    assert [cast.checked for cast in stale] == [0, 0, 0, 0]  # dropped without acting
    later = sim.delivered[start:]
    update = [c for c in later if isinstance(c, simulator.Cast) and c not in stale]
    assert update and all(traversal_of(c) != create_traversal for c in update)
    assert all(c.checked >= 1 for c in update if c.method == "check_resource")
    events = sim.events(ident)
    # every resource created once: the two by the create, the others by the update
    assert sorted(n for n, a, s in events if (a, s) == ("CREATE", "COMPLETE")) == sorted(WIDE)
    assert_in_dependency_order(sim.completed(ident, "CREATE"), WIDE)
    assert all(
        r[1:] in {("CREATE", "COMPLETE"), ("UPDATE", "COMPLETE")} for r in sim.resources(ident)
    )


def test_the_node_a_worker_would_check_next_is_dropped_when_superseded(sim):
    ident = sim.create("s", template(DIAMOND))
    sim.step()
    create_traversal = sim.stack_row(ident).current_traversal
    # another engine starts an update the moment this worker casts a's first requirer;
    # the worker then goes on to the requirer it keeps for itself, of the old traversal
    sim.on_next_cast = lambda cast: sim.update(ident, changed(DIAMOND))
    assert sim.step().checked == 1  # a only: the node it kept for itself was dropped
    assert sim.stack_row(ident).current_traversal != create_traversal
    created = [n for n, a, s in sim.events(ident) if (a, s) == ("CREATE", "COMPLETE")]
    assert created == ["a"]

    sim.run()
    assert sim.state(ident) == "UPDATE_COMPLETE"
    events = sim.events(ident)
    assert sorted(n for n, a, s in events if (a, s) == ("CREATE", "COMPLETE")) == sorted(DIAMOND)
    assert ("a", "UPDATE", "COMPLETE") in events


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_a_delete_supersedes_a_create_in_progress(sim, order):
    ident = sim.create("s", template(DIAMOND))
    sim.step()
    sim.step()  # a, and the b this worker went on with, created
    create_traversal = sim.stack_row(ident).current_traversal
    stale = list(sim.pending)

    sim.delete(ident)  # the running create is stopped first (CREATE_FAILED), then deleted
    events = sim.events(ident)
    sim.run(order)

    assert sim.state(ident) == "DELETE_COMPLETE"
    assert all(cast.checked == 0 for cast in stale)
    assert stale and {traversal_of(c) for c in stale} == {create_traversal}
    later = sim.events(ident)[len(events) :]
    assert {(a, s) for _n, a, s in later} == {("DELETE", "IN_PROGRESS"), ("DELETE", "COMPLETE")}
    assert sim.resources(ident) == []
