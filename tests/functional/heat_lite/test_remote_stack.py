"""OS::Heat::Stack: context.region_name, and the update of parameters and timeout."""

import pytest
import yaml

from heat_lite.common import exception
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status

CHILD = yaml.safe_dump(
    {
        "heat_template_version": "2018-08-31",
        "parameters": {"p": {"type": "string"}},
        "resources": {
            "v": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "p"}}}
        },
        "outputs": {"out": {"value": {"get_attr": ["v", "value"]}}},
    }
)


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _template(p="a", context=None, timeout=None):
    props = {"template": CHILD, "parameters": {"p": p}}
    if context is not None:
        props["context"] = context
    if timeout is not None:
        props["timeout"] = timeout
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"rs": {"type": "OS::Heat::Stack", "properties": props}},
        "outputs": {
            "outs": {"value": {"get_attr": ["rs", "outputs"]}},
            "one": {"value": {"get_attr": ["rs", "outputs", "out"]}},
            "name": {"value": {"get_attr": ["rs", "stack_name"]}},
        },
    }


def _outputs(stack):
    return {o["output_key"]: o["output_value"] for o in stack["outputs"]}


def test_a_region_this_cloud_is_not_is_refused(heat):
    with pytest.raises(exception.StackValidationFailed) as err:
        heat.client.create_stack(
            heat.ctx, "far", _template(context={"region_name": "RegionTwo"}), {}, {}, {}
        )
    assert str(err.value) == (
        'Cannot establish connection to Heat endpoint at region "RegionTwo" due to '
        '"publicURL endpoint for orchestration service in RegionTwo region not found"'
    )
    assert heat.client.list_stacks(heat.ctx) == []


@pytest.mark.parametrize(
    "child, reason",
    [
        (
            {
                "heat_template_version": "2018-08-31",
                "resources": {"two": {"type": "OS::Heat::Value", "bogus": 1}},
            },
            'ERROR: "bogus" is not a valid keyword inside a resource definition',
        ),
        (
            {"heat_template_version": "2018-08-31", "resources": {"two": {"type": "No::Such"}}},
            "ERROR: The Resource Type (No::Such) could not be found.",
        ),
    ],
)
def test_a_child_template_the_endpoint_refuses(heat, child, reason):
    """Heat 27's RemoteStack.validate (heat/engine/resources/openstack/heat/remote_stack.py)
    sends the template to the endpoint's template validation and quotes heatclient's
    ``ERROR: <message>`` (the messages are the reference Heat's validate answers)."""
    tmpl = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "my_stack": {"type": "OS::Heat::Stack", "properties": {"template": yaml.dump(child)}}
        },
    }
    with pytest.raises(exception.StackValidationFailed) as err:
        heat.client.create_stack(heat.ctx, "bad", tmpl, {}, {}, {})
    assert str(err.value) == (
        'Failed validating stack template using Heat endpoint at region "RegionOne" due to '
        '"%s"' % reason
    )
    assert heat.client.list_stacks(heat.ctx) == []


def test_own_region_outputs_and_in_place_updates(heat):
    ident = heat.client.create_stack(
        heat.ctx, "near", _template(context={"region_name": "RegionOne"}), {}, {}, {}
    )
    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    outputs = _outputs(stack)
    assert outputs["outs"] == {"out": "a"} and outputs["one"] == "a"
    assert outputs["name"].startswith("near-rs-")
    child_id = heat.client.describe_stack_resource(heat.ctx, ident, "rs")["physical_resource_id"]

    # new parameters and timeout: the same child stack is updated
    heat.client.update_stack(
        heat.ctx, ident, _template("b", {"region_name": "RegionOne"}, timeout=7), {}, {}, {}
    )
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _outputs(stack)["one"] == "b"
    rsrc = heat.client.describe_stack_resource(heat.ctx, ident, "rs")
    assert rsrc["physical_resource_id"] == child_id
    child = {
        "tenant": "p1",
        "stack_name": outputs["name"],
        "stack_id": child_id,
        "path": "",
    }
    assert heat.client.show_stack(heat.ctx, child)[0]["timeout_mins"] == 7

    # a region change (to the same cloud, named differently) replaces the resource
    with pytest.raises(exception.StackValidationFailed):
        heat.client.update_stack(
            heat.ctx, ident, _template("b", {"region_name": "RegionTwo"}), {}, {}, {}
        )
    heat.client.update_stack(heat.ctx, ident, _template("b", {}), {}, {}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    rsrc = heat.client.describe_stack_resource(heat.ctx, ident, "rs")
    assert rsrc["physical_resource_id"] != child_id
