"""A stack delete driven by the simulator: every resource is deleted after the ones that
depend on it (the reverse of the create), whatever order the messages arrive in."""

import pytest

from tests.unit.heat_lite.engine.convergence.test_create import (
    DIAMOND,
    ORDER_IDS,
    ORDERS,
    template,
)

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_delete_goes_in_reverse_dependency_order(sim, order):
    ident = sim.create("s", template(DIAMOND))
    sim.run()

    sim.delete(ident)
    sim.run(order)

    assert sim.state(ident) == "DELETE_COMPLETE"
    assert sim.stack_row(ident).deleted_at is not None  # soft-deleted
    done = sim.completed(ident, "DELETE")
    assert sorted(done) == sorted(DIAMOND)
    for name, deps in DIAMOND.items():
        for dep in deps:
            assert done.index(name) < done.index(dep), (name, dep, done)
    assert sim.resources(ident) == []
