"""Create traversals driven by the simulator: every resource is created after the ones it
depends on, whatever order the workers' messages arrive in."""

import pytest

pytestmark = pytest.mark.unit

# first in first out, last in first out, and six random orders (their seeds)
ORDERS = ["fifo", "lifo", 0, 1, 2, 3, 4, 5]
ORDER_IDS = ["fifo", "lifo"] + ["random-%d" % seed for seed in range(6)]


def template(resources):
    """{name: [names it depends on]} as a HOT template of OS::Heat::TestResource."""
    return {
        "heat_template_version": "2015-04-30",
        "resources": {
            name: {
                "type": "OS::Heat::TestResource",
                "properties": {"value": name},
                "depends_on": deps,
            }
            for name, deps in resources.items()
        },
    }


CHAIN = {"a": [], "b": ["a"], "c": ["b"], "d": ["c"]}
WIDE = {"a%d" % i: [] for i in range(6)} | {"top": ["a%d" % i for i in range(6)]}
DIAMOND = {"a": [], "b1": ["a"], "b2": ["a"], "b3": ["a"], "c": ["b1", "b2", "b3"]}


def assert_in_dependency_order(done, graph):
    assert sorted(done) == sorted(graph)
    for name, deps in graph.items():
        for dep in deps:
            assert done.index(dep) < done.index(name), (dep, name, done)


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
@pytest.mark.parametrize("graph", [CHAIN, WIDE, DIAMOND], ids=["chain", "wide", "diamond"])
def test_create_respects_dependencies(sim, graph, order):
    ident = sim.create("s", template(graph))
    sim.run(order)

    assert sim.state(ident) == "CREATE_COMPLETE"
    done = sim.completed(ident, "CREATE")
    assert_in_dependency_order(done, graph)
    events = sim.events(ident)
    for name, deps in graph.items():
        for dep in deps:
            # nothing starts before all it depends on is complete
            assert events.index((dep, "CREATE", "COMPLETE")) < events.index(
                (name, "CREATE", "IN_PROGRESS")
            )


def test_the_delivery_order_changes_the_order_of_independent_creates(sim):
    ident = sim.create("s", template(WIDE))
    sim.run("lifo")
    lifo = sim.completed(ident, "CREATE")
    other = sim.create("t", template(WIDE))
    sim.run("fifo")
    assert sim.completed(other, "CREATE") != lifo
    assert lifo[-1] == sim.completed(other, "CREATE")[-1] == "top"


def test_sync_points_collect_each_predecessor_once_step_by_step(sim):
    ident = sim.create("s", template(DIAMOND))
    assert [type(item).__name__ for item in sim.pending] == ["Spawn"]
    sim.step()  # the engine starts the traversal: the graph and its sync points stored
    assert [sim.resource_name(item.node()[0]) for item in sim.pending] == ["a"]
    points = sim.sync_points(ident)
    assert points[("c", True)] == [] and points[("stack", True)] == []
    assert set(points) == {(n, True) for n in DIAMOND} | {("stack", True)}

    sim.step()  # a: its report makes b1, b2, b3 ready; this worker goes on with one itself
    pending = sorted(sim.resource_name(item.node()[0]) for item in sim.pending)
    assert len(pending) == 2 and set(pending) < {"b1", "b2", "b3"}
    points = sim.sync_points(ident)
    assert points[("b1", True)] == points[("b2", True)] == points[("b3", True)] == ["a"]
    (continued,) = {"b1", "b2", "b3"} - set(pending)
    assert points[("c", True)] == [continued]

    sim.step()
    assert len(sim.sync_points(ident)[("c", True)]) == 2
    assert sim.state(ident) == "CREATE_IN_PROGRESS"
    sim.step()  # the last b completes c's inputs: c is created, and reports to the stack
    assert sim.pending == []
    assert sim.state(ident) == "CREATE_COMPLETE"
    assert sim.completed(ident, "CREATE")[-1] == "c"
