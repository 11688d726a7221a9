"""Stack update as a convergence traversal: in place, replacement, added and removed
resources, PATCH (existing) semantics; through the real RPC dispatch in one process."""

import pytest

from heat_lite.common import exception
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


_wait = inprocess.wait_for_status


def _tmpl(a_value, replace=False, extra=None):
    resources = {
        "a": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": a_value, "update_replace": replace},
        },
        "b": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": {"get_attr": ["a", "output"]}},
        },
    }
    resources.update(extra or {})
    return {
        "heat_template_version": "2018-08-31",
        "resources": resources,
        "outputs": {
            "o": {"value": {"get_attr": ["b", "output"]}},
            "ref": {"value": {"get_resource": "a"}},
        },
    }


def _resources(heat, ident):
    return {r["resource_name"]: r for r in heat.client.list_stack_resources(heat.ctx, ident)}


def _outputs(stack):
    return {o["output_key"]: o["output_value"] for o in stack["outputs"]}


def test_update_in_place_add_and_remove(heat):
    ident = heat.client.create_stack(
        heat.ctx, "up", _tmpl("one", extra={"gone": {"type": "OS::Heat::None"}}), {}, {}, {}
    )
    stack = _wait(heat, ident, {"CREATE_COMPLETE"})
    assert _outputs(stack)["o"] == "one"
    before = _resources(heat, ident)

    heat.client.update_stack(
        heat.ctx, ident, _tmpl("two", extra={"new": {"type": "OS::Heat::None"}}), {}, {}, {}
    )
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status_reason"] == "Stack UPDATE completed successfully"
    assert _outputs(stack)["o"] == "two"
    after = _resources(heat, ident)
    assert set(after) == {"a", "b", "new"}
    assert after["a"]["resource_action"] == "UPDATE"
    assert after["a"]["physical_resource_id"] == before["a"]["physical_resource_id"]
    assert after["new"]["resource_action"] == "CREATE"
    events = heat.client.list_events(heat.ctx, ident, sort_dir="asc")
    assert ("gone", "DELETE", "COMPLETE") in {
        (e["resource_name"], e["resource_action"], e["resource_status"]) for e in events
    }


def test_update_replace(heat):
    ident = heat.client.create_stack(heat.ctx, "rep", _tmpl("one"), {}, {}, {})
    stack = _wait(heat, ident, {"CREATE_COMPLETE"})
    old_ref = _outputs(stack)["ref"]
    # as Heat 27's TestResource: turning update_replace on alone is an update in place ...
    heat.client.update_stack(heat.ctx, ident, _tmpl("one", replace=True), {}, {}, {})
    inprocess.wait_for(heat, ident, "UPDATE_COMPLETE")
    rsrcs = _resources(heat, ident)
    assert rsrcs["a"]["physical_resource_id"] == old_ref
    assert rsrcs["a"]["resource_action"] == "UPDATE"
    # ... a new value while it is on replaces the resource
    heat.client.update_stack(heat.ctx, ident, _tmpl("two", replace=True), {}, {}, {})
    stack = inprocess.wait_for(heat, ident, "UPDATE_COMPLETE")
    rsrcs = _resources(heat, ident)
    assert rsrcs["a"]["physical_resource_id"] != old_ref
    assert rsrcs["a"]["resource_action"] == "CREATE"
    assert _outputs(stack)["ref"] == rsrcs["a"]["physical_resource_id"]
    reasons = [
        e["resource_status_reason"]
        for e in heat.client.list_events(heat.ctx, ident, sort_dir="asc")
        if e["resource_name"] == "a"
    ]
    assert "The Resource a requires replacement." in reasons
    assert len(heat.client.list_stack_resources(heat.ctx, ident)) == 2


def test_patch_keeps_template_and_merges_parameters(heat):
    tmpl = {
        "heat_template_version": "2018-08-31",
        "parameters": {"p": {"type": "string", "default": "x"}},
        "resources": {
            "v": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "p"}}}
        },
        "outputs": {"o": {"value": {"get_attr": ["v", "output"]}}},
    }
    ident = heat.client.create_stack(heat.ctx, "patch", tmpl, {"parameters": {"p": "y"}}, {}, {})
    _wait(heat, ident, {"CREATE_COMPLETE"})
    heat.client.update_stack(
        heat.ctx, ident, None, {"parameters": {"p": "z"}}, {}, {"existing": True}
    )
    stack = inprocess.wait_for(heat, ident, "UPDATE_COMPLETE")
    assert _outputs(stack)["o"] == "z"
    assert stack["parameters"]["p"] == "z"


def test_update_refused_while_deleted_or_invalid(heat):
    ident = heat.client.create_stack(heat.ctx, "gone", _tmpl("one"), {}, {}, {})
    _wait(heat, ident, {"CREATE_COMPLETE"})
    bad = _tmpl("one", extra={"x": {"type": "OS::No::Such"}})
    with pytest.raises(exception.StackValidationFailed):
        heat.client.update_stack(heat.ctx, ident, bad, {}, {}, {})
    heat.client.delete_stack(heat.ctx, ident)
    _wait(heat, ident, {"DELETE_COMPLETE"})
    with pytest.raises(exception.HeatException):
        heat.client.update_stack(heat.ctx, ident, _tmpl("two"), {}, {}, {})
