"""OS::Heat::ResourceGroup update_policy through the in-process engine: batch_create
creates the members in batches, rolling_update replaces their definition batch by batch
(highest index first), as Heat 27 does."""

import pytest
import yaml

from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _group(value, count=3, policy=None):
    grp = {
        "type": "OS::Heat::ResourceGroup",
        "properties": {
            "count": count,
            "resource_def": {"type": "OS::Heat::TestResource", "properties": {"value": value}},
        },
    }
    if policy:
        grp["update_policy"] = policy
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"grp": grp},
        "outputs": {"values": {"value": {"get_attr": ["grp", "output"]}}},
    }


def _child(heat, ident):
    child_id = heat.client.describe_stack_resource(heat.ctx, ident, "grp")["physical_resource_id"]
    for row in heat.client.list_stacks(heat.ctx, show_nested=True):
        if row["stack_identity"]["stack_id"] == child_id:
            return row["stack_identity"]
    raise AssertionError("no child stack %s" % child_id)


def _events(heat, ident):
    return [
        (
            e["resource_name"],
            "%s_%s" % (e["resource_action"], e["resource_status"]),
            e["resource_status_reason"],
        )
        for e in heat.client.list_events(heat.ctx, ident, sort_dir="asc")
    ]


def _outputs(stack):
    return {o["output_key"]: o["output_value"] for o in stack["outputs"]}


def _done(heat, ident, action):
    stack = _wait(heat, ident, {action + "_COMPLETE", action + "_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    return stack


def test_rolling_update_one_member_at_a_time_highest_index_first(heat):
    policy = {"rolling_update": {"max_batch_size": 1}}
    ident = heat.client.create_stack(heat.ctx, "roll", _group("v1", policy=policy), {}, {}, {})
    _done(heat, ident, "CREATE")
    heat.client.update_stack(heat.ctx, ident, _group("v2", policy=policy), {}, {}, {})
    stack = _done(heat, ident, "UPDATE")
    assert _outputs(stack) == {"values": ["v2", "v2", "v2"]}
    events = _events(heat, _child(heat, ident))
    updates = [name for name, state, _r in events if state == "UPDATE_COMPLETE" and name != ""]
    child_name = _child(heat, ident)["stack_name"]
    assert [n for n in updates if n != child_name] == ["2", "1", "0"]
    # one child update per batch, each finished before the next starts
    started = [e for e in events if e[2] == "Stack UPDATE started"]
    assert len(started) == 3
    sequence = [
        e[0]
        for e in events
        if e[2] in ("Stack UPDATE started", "state changed") and e[1].startswith("UPDATE")
    ]
    assert sequence == [child_name, "2", "2", child_name, "1", "1", child_name, "0", "0"]


def test_rolling_update_batches_of_two_keep_min_in_service(heat):
    policy = {"rolling_update": {"max_batch_size": 2, "min_in_service": 1}}
    ident = heat.client.create_stack(
        heat.ctx, "roll2", _group("v1", count=4, policy=policy), {}, {}, {}
    )
    _done(heat, ident, "CREATE")
    heat.client.update_stack(heat.ctx, ident, _group("v2", count=4, policy=policy), {}, {}, {})
    stack = _done(heat, ident, "UPDATE")
    assert _outputs(stack) == {"values": ["v2"] * 4}
    events = _events(heat, _child(heat, ident))
    child_name = _child(heat, ident)["stack_name"]
    batches, current = [], None
    for name, state, reason in events:
        if reason == "Stack UPDATE started":
            current = []
            batches.append(current)
        elif state == "UPDATE_COMPLETE" and name != child_name:
            current.append(name)
    assert [sorted(b) for b in batches] == [["2", "3"], ["0", "1"]]


def test_an_update_without_a_definition_change_is_one_batch(heat):
    policy = {"rolling_update": {"max_batch_size": 1}}
    ident = heat.client.create_stack(heat.ctx, "grow", _group("v1", 2, policy), {}, {}, {})
    _done(heat, ident, "CREATE")
    heat.client.update_stack(heat.ctx, ident, _group("v1", 3, policy), {}, {}, {})
    stack = _done(heat, ident, "UPDATE")
    assert _outputs(stack) == {"values": ["v1"] * 3}
    events = _events(heat, _child(heat, ident))
    assert len([e for e in events if e[2] == "Stack UPDATE started"]) == 1


def test_batch_create(heat):
    policy = {"batch_create": {"max_batch_size": 2}}
    ident = heat.client.create_stack(heat.ctx, "bc", _group("v1", policy=policy), {}, {}, {})
    stack = _done(heat, ident, "CREATE")
    assert _outputs(stack) == {"values": ["v1"] * 3}
    child = _child(heat, ident)
    events = _events(heat, child)
    created = [e[0] for e in events if e[1] == "CREATE_COMPLETE" and e[0] != child["stack_name"]]
    assert sorted(created[:2]) == ["0", "1"] and created[2:] == ["2"]
    # the first batch creates the child stack, the next one updates it
    reasons = [e[2] for e in events if e[0] == child["stack_name"]]
    assert reasons[0] == "Stack CREATE started"
    assert "Stack UPDATE started" in reasons


def test_a_pause_that_cannot_fit_the_stack_timeout_fails_the_update(heat):
    policy = {"rolling_update": {"max_batch_size": 1, "pause_time": 3600}}
    ident = heat.client.create_stack(heat.ctx, "slow", _group("v1", policy=policy), {}, {}, {})
    _done(heat, ident, "CREATE")
    heat.client.update_stack(heat.ctx, ident, _group("v2", policy=policy), {}, {}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "FAILED"
    assert stack["stack_status_reason"] == (
        "Resource UPDATE failed: ValueError: resources.grp: The current update policy will "
        "result in stack update timeout."
    )


def test_group_attributes_refs_map_and_removed_list(heat):
    member = {
        "heat_template_version": "2018-08-31",
        "parameters": {"ip": {"type": "string"}},
        "resources": {
            "v": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "ip"}}}
        },
        "outputs": {"ip": {"value": {"get_attr": ["v", "value"]}}},
    }
    files = {"file:///member.yaml": yaml.safe_dump(member)}

    def tmpl(remove=()):
        return {
            "heat_template_version": "2018-08-31",
            "resources": {
                "grp": {
                    "type": "OS::Heat::ResourceGroup",
                    "properties": {
                        "count": 2,
                        "removal_policies": [{"resource_list": list(remove)}],
                        "resource_def": {
                            "type": "file:///member.yaml",
                            "properties": {"ip": "10.0.0.%index%"},
                        },
                    },
                }
            },
            "outputs": {
                "by_member": {"value": {"get_attr": ["grp", "attributes", "ip"]}},
                "refs_map": {"value": {"get_attr": ["grp", "refs_map"]}},
                "removed": {"value": {"get_attr": ["grp", "removed_rsrc_list"]}},
            },
        }

    ident = heat.client.create_stack(heat.ctx, "attrs", tmpl(), {}, files, {})
    outputs = _outputs(_done(heat, ident, "CREATE"))
    assert outputs["by_member"] == {"0": "10.0.0.0", "1": "10.0.0.1"}
    assert sorted(outputs["refs_map"]) == ["0", "1"]
    assert outputs["removed"] == []
    heat.client.update_stack(heat.ctx, ident, tmpl(remove=["0"]), {}, files, {})
    outputs = _outputs(_done(heat, ident, "UPDATE"))
    assert outputs["by_member"] == {"1": "10.0.0.1", "2": "10.0.0.2"}
    assert sorted(outputs["refs_map"]) == ["1", "2"]
    assert outputs["removed"] == ["0"]


def test_rolling_update_with_a_pause_between_batches(heat):
    policy = {"rolling_update": {"max_batch_size": 2, "pause_time": 0.1}}
    ident = heat.client.create_stack(heat.ctx, "paused", _group("v1", policy=policy), {}, {}, {})
    _done(heat, ident, "CREATE")
    heat.client.update_stack(heat.ctx, ident, _group("v2", policy=policy), {}, {}, {})
    stack = _done(heat, ident, "UPDATE")
    assert _outputs(stack) == {"values": ["v2"] * 3}
    events = _events(heat, _child(heat, ident))
    assert len([e for e in events if e[2] == "Stack UPDATE started"]) == 2
