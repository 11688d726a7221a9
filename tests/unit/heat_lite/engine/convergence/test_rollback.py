"""A failed create with rollback enabled, driven by the simulator: the stack fails with
the resource's failure, and the ROLLBACK traversal deletes what the create made."""

import pytest

from tests.unit.heat_lite.engine.convergence.test_create import ORDER_IDS, ORDERS

pytestmark = pytest.mark.unit

TEMPLATE = {
    "heat_template_version": "2015-04-30",
    "resources": {
        "ok": {"type": "OS::Heat::TestResource"},
        "rs": {"type": "OS::Heat::RandomString"},
        "bad": {
            "type": "OS::Heat::TestResource",
            "properties": {"fail": True},
            "depends_on": ["ok"],
        },
        "after": {"type": "OS::Heat::None", "depends_on": ["bad", "rs"]},
    },
}


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_a_failed_create_rolls_back_to_nothing(sim, order):
    ident = sim.create("s", TEMPLATE, disable_rollback=False)
    sim.run(order)

    assert sim.state(ident) == "ROLLBACK_COMPLETE"
    events = sim.events(ident)
    assert ("bad", "CREATE", "FAILED") in events
    assert ("after", "CREATE", "IN_PROGRESS") not in events  # nothing after the failure
    failed = events.index(("bad", "CREATE", "FAILED"))
    deleted = [
        name
        for name, action, status in events[failed:]
        if (action, status) == ("DELETE", "COMPLETE")
    ]
    assert "ok" in deleted and "bad" in deleted
    assert deleted.index("bad") < deleted.index("ok")  # the reverse of the create
    assert sim.resources(ident) == []
    assert sim.stack_row(ident).status_reason == "Stack ROLLBACK completed successfully"


def test_with_rollback_disabled_the_stack_stays_failed(sim):
    ident = sim.create("s", TEMPLATE, disable_rollback=True)
    sim.run()
    row = sim.stack_row(ident)
    assert (row.action, row.status) == ("CREATE", "FAILED")
    assert row.status_reason.startswith("Resource CREATE failed: ValueError: resources.bad:")
