"""Provider template resources as Heat 27 has them (issue 14 item 3).

Every expectation here came from running the same template on the reference Heat 27
(heat/engine/resources/template_resource.py: get_reference_id, get_attribute,
_validate_against_facade).
"""

import json

import pytest

from heat_lite.common import exception
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status
DONE = {"CREATE_COMPLETE", "CREATE_FAILED"}


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


PROVIDER = {
    "heat_template_version": "2018-08-31",
    "parameters": {"length": {"type": "number", "default": 8}},
    "resources": {
        "secret1": {
            "type": "OS::Heat::RandomString",
            "properties": {"length": {"get_param": "length"}},
        },
        "meta": {
            "type": "OS::Heat::Value",
            "properties": {"value": {"resource_facade": "metadata"}},
        },
    },
    "outputs": {
        "value": {"value": {"get_attr": ["secret1", "value"]}},
        "md": {"value": {"resource_facade": "metadata"}},
    },
}


def _outputs(stack):
    return {o["output_key"]: o.get("output_value") for o in stack["outputs"]}


def test_reference_nested_attributes_and_facade_metadata(heat):
    """get_resource is the nested stack's ARN (no OS::stack_id output); [r,
    resource.secret1, value] and resource.secret1.value are the nested resource's
    attribute, [r, resource.secret1] its reference; resource_facade: metadata is the
    parent resource's metadata, inside the child's resources and outputs."""
    tmpl = {
        "heat_template_version": "2018-08-31",
        "resources": {"r": {"type": "prv.yaml", "metadata": {"foo": "bar"}}},
        "outputs": {
            "ref": {"value": {"get_resource": "r"}},
            "inner": {"value": {"get_attr": ["r", "resource.secret1", "value"]}},
            "dotted": {"value": {"get_attr": ["r", "resource.secret1.value"]}},
            "inner_ref": {"value": {"get_attr": ["r", "resource.secret1"]}},
            "value": {"value": {"get_attr": ["r", "value"]}},
            "md": {"value": {"get_attr": ["r", "md"]}},
        },
    }
    ident = heat.client.create_stack(
        heat.ctx, "prv", tmpl, {}, {"prv.yaml": json.dumps(PROVIDER)}, {}
    )
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status_reason"] == "Stack CREATE completed successfully"
    out = _outputs(stack)
    [r] = heat.client.list_stack_resources(heat.ctx, ident)
    prefix, name, child_id = out["ref"].split("/")
    assert prefix == "arn:openstack:heat::p1:stacks"
    assert name.startswith("prv-r-") and child_id == r["physical_resource_id"]
    child = heat.client.show_stack(heat.ctx, {"stack_name": name, "stack_id": child_id})[0]
    assert len(out["value"]) == 8
    assert out["inner"] == out["dotted"] == out["inner_ref"] == out["value"]
    assert out["md"] == {"foo": "bar"}
    child_out = _outputs(child)
    assert child_out["md"] == {"foo": "bar"}
    # a change of metadata: the parent and its child show the new one
    tmpl["resources"]["r"]["metadata"] = {"foo": "baz"}
    heat.client.update_stack(heat.ctx, ident, tmpl, {}, {"prv.yaml": json.dumps(PROVIDER)}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status_reason"] == "Stack UPDATE completed successfully"
    assert _outputs(stack)["md"] == {"foo": "baz"}


FACADES = [
    (
        {"length": {"type": "number", "default": 8}},
        {"other": {"value": 1}},
        {},
        "Attribute value for facade OS::Heat::RandomString missing in provider",
    ),
    (
        {"length": {"type": "string", "default": "8"}},
        {"value": {"value": 1}},
        {},
        "Property length type mismatch between facade OS::Heat::RandomString (Integer) and "
        "provider (String)",
    ),
    (
        {"extra": {"type": "string"}},
        {"value": {"value": 1}},
        {"extra": "x"},
        "Provider requires property extra unknown in facade OS::Heat::RandomString",
    ),
]


@pytest.mark.parametrize("params,outputs,props,message", FACADES)
def test_a_provider_template_must_fit_the_type_it_stands_in_for(
    heat, params, outputs, props, message
):
    """An environment maps OS::Heat::RandomString to a template lacking an attribute
    (output), giving a property another type, or requiring one the facade does not know:
    Heat 27 refuses the stack with these messages."""
    provider = {
        "heat_template_version": "2018-08-31",
        "parameters": params,
        "outputs": outputs,
    }
    tmpl = {
        "heat_template_version": "2018-08-31",
        "resources": {"r": {"type": "OS::Heat::RandomString", "properties": props}},
    }
    env = {"resource_registry": {"OS::Heat::RandomString": "facade.yaml"}}
    with pytest.raises(exception.StackValidationFailed) as err:
        heat.client.create_stack(
            heat.ctx, "fac", tmpl, env, {"facade.yaml": json.dumps(provider)}, {}
        )
    assert str(err.value) == message


def test_a_provider_template_that_fits_its_facade(heat):
    """Missing optional facade properties and no ``show`` output are fine (Heat 27)."""
    provider = {
        "heat_template_version": "2018-08-31",
        "resources": {"inner": {"type": "OS::Heat::Value", "properties": {"value": "v"}}},
        "outputs": {"value": {"value": {"get_attr": ["inner", "value"]}}},
    }
    tmpl = {
        "heat_template_version": "2018-08-31",
        "resources": {"r": {"type": "OS::Heat::RandomString"}},
        "outputs": {"v": {"value": {"get_attr": ["r", "value"]}}},
    }
    env = {"resource_registry": {"OS::Heat::RandomString": "facade.yaml"}}
    ident = heat.client.create_stack(
        heat.ctx, "fac", tmpl, env, {"facade.yaml": json.dumps(provider)}, {}
    )
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status_reason"] == "Stack CREATE completed successfully"
    assert _outputs(stack) == {"v": "v"}


def test_group_update_to_an_invalid_member_is_refused(heat):
    """A ResourceGroup of count 0 whose member (a provider template) would get a bad
    value: updating the count to 2 is refused before anything changes, with the path
    through the group's member (reference run; the message there carries Heat's RPC
    doubling ``ValueError: : ...random: : Value``). The stack stays as it was."""
    provider = {
        "heat_template_version": "2018-08-31",
        "parameters": {"length": {"type": "string", "default": "8"}},
        "resources": {
            "random": {
                "type": "OS::Heat::RandomString",
                "properties": {"length": {"get_param": "length"}},
            }
        },
    }
    tmpl = {
        "heat_template_version": "2018-08-31",
        "parameters": {"count": {"type": "number", "default": 0}},
        "resources": {
            "grp": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {
                    "count": {"get_param": "count"},
                    "resource_def": {"type": "provider.yaml", "properties": {"length": "BAD"}},
                },
            }
        },
    }
    files = {"provider.yaml": json.dumps(provider)}
    ident = heat.client.create_stack(heat.ctx, "grp", tmpl, {}, files, {})
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status_reason"] == "Stack CREATE completed successfully"
    with pytest.raises(exception.StackValidationFailed) as err:
        heat.client.update_stack(heat.ctx, ident, tmpl, {"parameters": {"count": 2}}, files, {})
    assert str(err.value) == (
        "ValueError: resources.grp<nested_stack>.resources.0<provider.yaml>.resources.random: "
        "Value 'BAD' is not an integer"
    )
    stack = heat.client.show_stack(heat.ctx, ident)[0]
    assert (stack["stack_action"], stack["stack_status"]) == ("CREATE", "COMPLETE")


def test_preview_lists_nested_stacks_and_group_members(heat):
    """Heat 27's preview (reference run): in the template's order reversed, a provider
    template resource and a ResourceGroup are the lists of their child's resources
    (members "1", "0"), each in the child stack "<stack>-<resource>" and naming its
    parent_resource; other resources are themselves."""
    child = {
        "heat_template_version": "2018-08-31",
        "resources": {"inner": {"type": "OS::Heat::Value", "properties": {"value": "x"}}},
    }
    member = {"type": "OS::Heat::Value", "properties": {"value": "m"}}
    tmpl = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "one": {"type": "OS::Heat::Value", "properties": {"value": "a"}},
            "nest": {"type": "child.yaml"},
            "grp": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": 2, "resource_def": member},
            },
        },
    }
    preview = heat.client.preview_stack(
        heat.ctx, "pv", tmpl, {}, {"child.yaml": json.dumps(child)}, {}
    )

    def shape(resources):
        return [
            shape(r)
            if isinstance(r, list)
            else (r["resource_name"], r["stack_name"], r.get("parent_resource"))
            for r in resources
        ]

    assert shape(preview["resources"]) == [
        [("1", "pv-grp", "grp"), ("0", "pv-grp", "grp")],
        [("inner", "pv-nest", "nest")],
        ("one", "pv", None),
    ]
    inner = preview["resources"][1][0]
    assert inner["resource_identity"] == {
        "tenant": "p1",
        "stack_name": "pv-nest",
        "stack_id": "None",
        "path": "/resources/inner",
    }
    assert inner["properties"] == {"value": "x", "type": None}
    assert heat.client.list_stacks(heat.ctx, show_nested=True) == []


def test_group_member_attribute_as_a_path(heat):
    """[grp, resource.1, value] reads as resource.1.value (Heat's get_nested_attrs)."""
    tmpl = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "grp": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {
                    "count": 2,
                    "resource_def": {
                        "type": "OS::Heat::Value",
                        "properties": {"value": "v%index%"},
                    },
                },
            }
        },
        "outputs": {
            "path": {"value": {"get_attr": ["grp", "resource.1", "value"]}},
            "dotted": {"value": {"get_attr": ["grp", "resource.1.value"]}},
        },
    }
    ident = heat.client.create_stack(heat.ctx, "gp", tmpl, {}, {}, {})
    stack = _wait(heat, ident, DONE)
    assert _outputs(stack) == {"path": "v1", "dotted": "v1"}
