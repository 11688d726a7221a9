"""A resource's stored properties (Heat's rsrc_prop_data): stored at the start of its
create, as Heat's create() does, so that a delete - which sees no data of the other
resources and would resolve their get_resource to a name - acts on what the resource was
built from, even after a failed create (tests/functional/heat_lite/sim_cloud/
test_sim_lb_network.py shows a pool member deleted through its stored pool id)."""

import pytest

from heat_lite.db import api as db_api
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "a": {"type": "OS::Heat::TestResource", "properties": {"value": "x"}},
        "b": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": {"get_resource": "a"}, "fail": True},
        },
    },
}


def test_a_failed_create_stored_its_resolved_properties(tmp_path):
    with inprocess.heat(tmp_path) as heat:
        ident = heat.client.create_stack(heat.ctx, "frozen", TEMPLATE, {}, {}, {})
        inprocess.wait_for_status(heat, ident, {"CREATE_FAILED"})
        rows = {r.name: r for r in db_api.resource_get_all_by_stack(ident["stack_id"])}
        assert rows["b"].status == "FAILED"
        assert rows["a"].nova_instance
        assert rows["b"].properties_data["value"] == rows["a"].nova_instance
        heat.client.delete_stack(heat.ctx, ident)
        inprocess.wait_for_status(heat, ident, {"DELETE_COMPLETE"})
