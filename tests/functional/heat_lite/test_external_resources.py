"""external_id as Heat 27 has it (checked against the reference Heat with these templates):
the resource is adopted by that id and checked (ADOPT, then CHECK: no create), get_resource
gives the id; an update may not add, change or drop external_id (the stack's update fails
with NotSupported), and an unchanged external resource is never updated."""

import pytest

from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status


def _tmpl(external_id=None, value="v"):
    resource = {"type": "OS::Heat::TestResource", "properties": {"value": value}}
    if external_id is not None:
        resource["external_id"] = external_id
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"t": resource},
        "outputs": {"o": {"value": {"get_resource": "t"}}},
    }


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _output(stack):
    return {o["output_key"]: o["output_value"] for o in stack["outputs"]}["o"]


def _events(heat, ident):
    return [
        (e["resource_name"], e["resource_action"] + "_" + e["resource_status"])
        for e in heat.client.list_events(heat.ctx, ident, sort_dir="asc")
    ]


def test_external_resource_is_adopted_and_checked(heat):
    ident = heat.client.create_stack(heat.ctx, "ext1", _tmpl("foobar"), {}, {}, {})
    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status_reason"] == "Stack CREATE completed successfully"
    assert _output(stack) == "foobar"
    [resource] = heat.client.list_stack_resources(heat.ctx, ident)
    assert (resource["physical_resource_id"], resource["resource_action"]) == ("foobar", "CHECK")
    assert _events(heat, ident) == [
        ("ext1", "CREATE_IN_PROGRESS"),
        ("t", "ADOPT_IN_PROGRESS"),
        ("t", "ADOPT_COMPLETE"),
        ("t", "CHECK_IN_PROGRESS"),
        ("t", "CHECK_COMPLETE"),
        ("ext1", "CREATE_COMPLETE"),
    ]

    # an external resource is not updated, whatever its properties say
    heat.client.update_stack(heat.ctx, ident, _tmpl("foobar", value="new"), {}, {}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE"
    [resource] = heat.client.list_stack_resources(heat.ctx, ident)
    assert resource["resource_action"] == "CHECK"


def test_adding_external_id_on_update_fails_as_in_heat(heat):
    ident = heat.client.create_stack(heat.ctx, "ext2", _tmpl(), {}, {}, {})
    _wait(heat, ident, {"CREATE_COMPLETE"})
    heat.client.update_stack(heat.ctx, ident, _tmpl("foobar"), {}, {}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert (stack["stack_status"], stack["stack_status_reason"]) == (
        "FAILED",
        "Resource UPDATE failed: NotSupported: resources.t: Update to property external_id of "
        "t (OS::Heat::TestResource) is not supported.",
    )
    [resource] = heat.client.list_stack_resources(heat.ctx, ident)
    assert resource["resource_action"] + "_" + resource["resource_status"] == "CREATE_COMPLETE"
