"""An update with a replacement, driven by the simulator: the replacement is created and
the resources that depend on it updated before the old resource is deleted (its cleanup
node comes after them), whatever order the messages arrive in."""

import pytest

from tests.unit.heat_lite.engine.convergence.test_create import ORDER_IDS, ORDERS

pytestmark = pytest.mark.unit


def template(value):
    """r (replaced when its value changes) <- dep <- tail; rs on its own."""
    return {
        "heat_template_version": "2015-04-30",
        "resources": {
            "r": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": value, "update_replace": True},
            },
            "dep": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": {"get_attr": ["r", "output"]}},
            },
            "tail": {"type": "OS::Heat::None", "depends_on": ["dep"]},
            "rs": {"type": "OS::Heat::RandomString"},
        },
    }


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_the_replacement_comes_before_the_old_resource_is_deleted(sim, order):
    ident = sim.create("s", template("one"))
    sim.run()
    created = len(sim.events(ident))

    sim.update(ident, template("two"))
    sim.run(order)

    assert sim.state(ident) == "UPDATE_COMPLETE"
    events = sim.events(ident)[created:]
    assert events.index(("r", "UPDATE", "COMPLETE")) < events.index(("r", "CREATE", "COMPLETE"))
    assert events.index(("r", "CREATE", "COMPLETE")) < events.index(
        ("dep", "UPDATE", "IN_PROGRESS")
    )
    assert events.index(("dep", "UPDATE", "COMPLETE")) < events.index(
        ("r", "DELETE", "IN_PROGRESS")
    )
    assert events[-1] == ("r", "DELETE", "COMPLETE")
    # nothing else changed: tail and rs are not touched
    assert {name for name, _action, _status in events} == {"r", "dep"}
    assert sim.resources(ident) == [
        ("dep", "UPDATE", "COMPLETE"),
        ("r", "CREATE", "COMPLETE"),
        ("rs", "CREATE", "COMPLETE"),
        ("tail", "CREATE", "COMPLETE"),
    ]
