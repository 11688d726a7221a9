import pytest

from heat_lite.common import exception
from heat_lite.engine.dependencies import Dependencies

pytestmark = pytest.mark.unit


def test_leaves_roots_and_order():
    deps = Dependencies([("web", "db"), ("web", "net"), ("db", "net"), ("lone", None)])
    assert deps.leaves() == {"net", "lone"}
    assert deps.roots() == {"web", "lone"}
    order = list(deps)
    assert order.index("net") < order.index("db") < order.index("web")
    assert deps.required_by("net") == {"web", "db"}
    assert deps.requires("web") == {"db", "net"}


def test_edges_round_trip_keeps_isolated_nodes():
    deps = Dependencies([("a", "b"), ("c", None)])
    again = Dependencies(deps.edges())
    assert again.graph() == deps.graph()
    assert ("c", None) in list(deps.edges())


def test_cycle_is_reported():
    deps = Dependencies([("a", "b"), ("b", "c"), ("c", "a"), ("d", "a")])
    with pytest.raises(exception.CircularDependencyException) as err:
        deps.validate()
    assert "a" in str(err.value) and "Circular Dependency Found" in str(err.value)
