"""The sim_object queries (heat_lite.db.sim)."""

import pytest

from heat_lite.db import sim

pytestmark = pytest.mark.functional


@pytest.fixture(autouse=True)
def database(db):
    yield


def test_create_get_filter_update_delete():
    a = sim.sim_object_create("neutron.port", "p1", "a", "DOWN", {"network_id": "n1"})
    sim.sim_object_create("neutron.port", "p2", "b", "DOWN", {"network_id": "n2"})
    sim.sim_object_create("nova.server", "p1", "a", "BUILD", {})
    assert sim.sim_object_get(a["id"])["network_id"] == "n1"
    assert sim.sim_object_get(a["id"], "nova.server") is None
    assert [o["name"] for o in sim.sim_object_get_all("neutron.port")] == ["a", "b"]
    assert [o["name"] for o in sim.sim_object_get_all("neutron.port", network_id="n2")] == ["b"]
    assert len(sim.sim_object_get_all(project_id="p1")) == 2
    updated = sim.sim_object_update(a["id"], status="ACTIVE", properties={"device_id": "s"})
    assert (updated["status"], updated["network_id"], updated["device_id"]) == (
        "ACTIVE",
        "n1",
        "s",
    )
    assert sim.sim_object_update("missing", status="x") is None
    assert sim.sim_object_delete(a["id"]) is True
    assert sim.sim_object_delete(a["id"]) is False


def test_create_with_a_taken_fixed_id_keeps_the_first():
    first = sim.sim_object_create("neutron.net", None, "public", "ACTIVE", {"x": 1}, obj_id="i")
    again = sim.sim_object_create("neutron.net", None, "public", "ACTIVE", {"x": 2}, obj_id="i")
    assert first == again and again["x"] == 1


def test_counter_counts_up():
    obj = sim.sim_object_create("neutron.subnet", "p1", "s", "ACTIVE", {})
    assert [sim.sim_object_next_counter(obj["id"], "_n") for _ in range(3)] == [0, 1, 2]
    assert sim.sim_object_next_counter("missing", "_n") is None
