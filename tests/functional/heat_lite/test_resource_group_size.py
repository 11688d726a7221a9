"""A ResourceGroup of more members than max_resources_per_stack (issue 29 item 3): its
create or update fails with Heat's error before any member is built, as Heat 27's
ResourceGroup fails once it has built the child's template (StackResource
_validate_nested_resources): stack validation passes (Heat validates member "0" only),
the group's action fails. A count of 10**9 took gigabytes before."""

import pytest

from heat_lite.common import exception
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status
HUGE = 10**9
LIMIT = "Request limit exceeded: Maximum resources per stack exceeded."


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _group(count, policy=None, value="a"):
    grp = {
        "type": "OS::Heat::ResourceGroup",
        "properties": {
            "count": count,
            "resource_def": {"type": "OS::Heat::TestResource", "properties": {"value": value}},
        },
    }
    if policy:
        grp["update_policy"] = policy
    return {"heat_template_version": "2018-08-31", "resources": {"grp": grp}}


def _stacks(heat):
    return {s["stack_name"] for s in heat.client.list_stacks(heat.ctx, show_nested=True)}


def _state(stack):
    return "%s_%s" % (stack["stack_action"], stack["stack_status"])


def _rstate(rsrc):
    return "%s_%s" % (rsrc["resource_action"], rsrc["resource_status"])


def _grp(heat, ident):
    return heat.client.describe_stack_resource(heat.ctx, ident, "grp")


@pytest.mark.parametrize(
    "policy",
    [None, {"batch_create": {"max_batch_size": 1}}],
    ids=["plain", "batch_create"],
)
def test_a_group_past_the_limit_fails_its_create_building_nothing(heat, policy):
    ident = heat.client.create_stack(
        heat.ctx, "huge", _group(HUGE, policy), {}, {}, {"disable_rollback": True}
    )

    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    reason = "RequestLimitExceeded: resources.grp: " + LIMIT
    assert (_state(stack), stack["stack_status_reason"]) == (
        "CREATE_FAILED",
        "Resource CREATE failed: " + reason,
    )
    grp = _grp(heat, ident)
    assert (_rstate(grp), grp["resource_status_reason"]) == ("CREATE_FAILED", reason)
    assert grp["physical_resource_id"] == ""
    assert _stacks(heat) == {"huge"}  # no child stack was made


@pytest.mark.parametrize(
    "policy",
    [None, {"rolling_update": {"max_batch_size": 1}}],
    ids=["plain", "rolling_update"],
)
def test_a_group_updated_past_the_limit_fails_its_update_keeping_its_members(heat, policy):
    ident = heat.client.create_stack(
        heat.ctx, "grows", _group(2, policy), {}, {}, {"disable_rollback": True}
    )
    assert _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})["stack_status"] == "COMPLETE"
    child_id = _grp(heat, ident)["physical_resource_id"]

    heat.client.update_stack(
        heat.ctx, ident, _group(HUGE, policy, value="b"), {}, {}, {"disable_rollback": True}
    )

    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    reason = "RequestLimitExceeded: resources.grp: " + LIMIT
    assert (_state(stack), stack["stack_status_reason"]) == (
        "UPDATE_FAILED",
        "Resource UPDATE failed: " + reason,
    )
    grp = _grp(heat, ident)
    assert (_rstate(grp), grp["resource_status_reason"]) == ("UPDATE_FAILED", reason)
    assert grp["physical_resource_id"] == child_id
    (child,) = [
        s["stack_identity"]
        for s in heat.client.list_stacks(heat.ctx, show_nested=True)
        if s["stack_identity"]["stack_id"] == child_id
    ]
    members = heat.client.list_stack_resources(heat.ctx, child)
    assert sorted(m["resource_name"] for m in members) == ["0", "1"]


def test_a_group_past_the_limit_is_refused_by_a_preview(heat):
    with pytest.raises(exception.RequestLimitExceeded) as err:
        heat.client.preview_stack(heat.ctx, "huge", _group(HUGE), {}, {}, {})
    assert str(err.value) == LIMIT
