"""``depends_on`` naming a resource whose condition is false is ignored, as in Heat
(Magnum's nodegroup stacks depend on the disabled ``network``)."""

import pytest

from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "queens",
    "parameters": {"on": {"type": "boolean", "default": False}},
    "conditions": {"c": {"equals": [{"get_param": "on"}, True]}},
    "resources": {
        "a": {"type": "OS::Heat::None", "condition": "c"},
        "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
    },
}


def test_depends_on_a_disabled_resource_is_ignored(tmp_path):
    with inprocess.heat(tmp_path) as heat:
        ident = heat.client.create_stack(heat.ctx, "s1", TEMPLATE, {}, {}, {})
        stack = inprocess.wait_for_status(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
        assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
        names = [r["resource_name"] for r in heat.client.list_stack_resources(heat.ctx, ident)]
        assert names == ["b"]
