"""Breakpoints (resource_registry hooks) through the in-process engine: a resource stops
at its hook, with Heat's events, until an ``unset_hook`` signal clears it."""

import time

import pytest
import yaml

from heat_lite.common import exception
from heat_lite.db import api as db_api
from heat_lite.engine import hooks
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        try:
            yield h
        finally:
            # a failed test may leave a worker paused: release it so the engine stops
            for stack in h.client.list_stacks(h.ctx, show_nested=True):
                for row in db_api.resource_get_all_by_stack(stack["stack_identity"]["stack_id"]):
                    for hook in hooks.HOOK_TYPES:
                        db_api.resource_data_delete(row.id, hook)


def _template(resources):
    return {"heat_template_version": "2018-08-31", "resources": resources}


CHAIN = _template(
    {
        "a": {"type": "OS::Heat::TestResource", "properties": {"value": "x"}},
        "b": {"type": "OS::Heat::None", "depends_on": "a"},
    }
)


def _hooks(entries):
    return {"resource_registry": {"resources": entries}}


def _events(heat, ident):
    return [
        (
            e["resource_name"],
            "%s_%s" % (e["resource_action"], e["resource_status"]),
            e["resource_status_reason"],
        )
        for e in heat.client.list_events(heat.ctx, ident, sort_dir="asc")
    ]


def _wait_event(heat, ident, reason, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for event in _events(heat, ident):
            if event[2] == reason:
                return event
        time.sleep(0.02)
    raise AssertionError("no event %r in %s" % (reason, _events(heat, ident)))


def _status(heat, ident, name):
    rsrc = heat.client.describe_stack_resource(heat.ctx, ident, name)
    return "%s_%s" % (rsrc["resource_action"], rsrc["resource_status"])


def test_pre_create_hook_pauses_until_cleared(heat):
    ident = heat.client.create_stack(
        heat.ctx, "hk", CHAIN, _hooks({"a": {"hooks": "pre-create"}}), {}, {}
    )
    paused = _wait_event(heat, ident, "CREATE paused until Hook pre-create is cleared")
    assert paused[:2] == ("a", "INIT_COMPLETE")
    time.sleep(0.2)
    stack = heat.client.show_stack(heat.ctx, ident)[0]
    assert (stack["stack_action"], stack["stack_status"]) == ("CREATE", "IN_PROGRESS")
    assert _status(heat, ident, "a") == "INIT_COMPLETE"
    assert _status(heat, ident, "b") == "INIT_COMPLETE"

    stack_desc = 'Stack "hk" [%s]' % ident["stack_id"]
    with pytest.raises(exception.InvalidBreakPointHook) as err:
        heat.client.resource_signal(heat.ctx, ident, "a", {"unset_hook": "pre-update"})
    assert str(err.value).startswith(
        'The "pre-update" hook is not defined on TestResource "a" %s' % stack_desc
    )
    with pytest.raises(exception.InvalidBreakPointHook) as err:
        heat.client.resource_signal(heat.ctx, ident, "b", {"unset_hook": "pre-create"})
    assert str(err.value).startswith(
        'The "pre-create" hook is not defined on NoneResource "b" %s' % stack_desc
    )
    with pytest.raises(exception.InvalidBreakPointHook) as err:
        heat.client.resource_signal(heat.ctx, ident, "a", {"unset_hook": "bogus"})
    assert str(err.value).startswith('Invalid hook type "bogus" for TestResource "a"')

    heat.client.resource_signal(heat.ctx, ident, "a", {"unset_hook": "pre-create"})
    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    events = [e for e in _events(heat, ident) if e[0] == "a"]
    assert events == [
        ("a", "INIT_COMPLETE", "CREATE paused until Hook pre-create is cleared"),
        ("a", "INIT_COMPLETE", "Hook pre-create is cleared"),
        ("a", "CREATE_IN_PROGRESS", "state changed"),
        ("a", "CREATE_COMPLETE", "state changed"),
    ]
    # nothing set any more: clearing it again is an error
    with pytest.raises(exception.InvalidBreakPointHook):
        heat.client.resource_signal(heat.ctx, ident, "a", {"unset_hook": "pre-create"})


def test_wildcard_pre_update_and_pre_delete_hooks(heat):
    env = _hooks({"*": {"hooks": ["pre-update", "pre-delete"]}})
    ident = heat.client.create_stack(heat.ctx, "hu", CHAIN, env, {}, {})
    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE"

    changed = _template(
        {
            "a": {"type": "OS::Heat::TestResource", "properties": {"value": "y"}},
            "b": {"type": "OS::Heat::None", "depends_on": "a"},
        }
    )
    heat.client.update_stack(heat.ctx, ident, changed, env, {}, {})
    paused = _wait_event(heat, ident, "UPDATE paused until Hook pre-update is cleared")
    assert paused[:2] == ("a", "CREATE_COMPLETE")
    heat.client.resource_signal(heat.ctx, ident, "a", {"unset_hook": "pre-update"})
    # b did not change, but Heat stops every resource of the update at its hook
    _wait_event(heat, ident, "Hook pre-update is cleared")
    deadline = time.monotonic() + 10
    while (
        sum(e[2] == "UPDATE paused until Hook pre-update is cleared" for e in _events(heat, ident))
        < 2
    ):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    heat.client.resource_signal(heat.ctx, ident, "b", {"unset_hook": "pre-update"})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert heat.client.describe_stack_resource(heat.ctx, ident, "a")["attributes"]["output"] == "y"

    heat.client.delete_stack(heat.ctx, ident)
    paused = _wait_event(heat, ident, "DELETE paused until Hook pre-delete is cleared")
    assert paused[0] == "b"  # dependents first
    heat.client.resource_signal(heat.ctx, ident, "b", {"unset_hook": "pre-delete"})
    deadline = time.monotonic() + 10
    while not any(
        e[:1] == ("a",) and e[2].startswith("DELETE paused") for e in _events(heat, ident)
    ):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    heat.client.resource_signal(heat.ctx, ident, "a", {"unset_hook": "pre-delete"})
    _wait(heat, ident, {"DELETE_COMPLETE"})


def test_hooks_of_a_nested_stack_come_from_the_parent_resource_entry(heat):
    leaf = _template({"inner": {"type": "OS::Heat::None"}})
    files = {"file:///leaf.yaml": yaml.safe_dump(leaf)}
    tmpl = _template({"nest": {"type": "file:///leaf.yaml"}})
    env = _hooks({"nest": {"inner": {"hooks": "pre-create"}}})
    ident = heat.client.create_stack(heat.ctx, "hn", tmpl, env, files, {})
    deadline = time.monotonic() + 10
    children = []
    while not children:
        assert time.monotonic() < deadline
        rows = heat.client.list_stacks(heat.ctx, show_nested=True)
        children = [r for r in rows if r["stack_name"].startswith("hn-nest-")]
        time.sleep(0.02)
    child_ident = {
        "tenant": "p1",
        "stack_name": children[0]["stack_name"],
        "stack_id": children[0]["stack_identity"]["stack_id"],
        "path": "",
    }
    _wait_event(heat, child_ident, "CREATE paused until Hook pre-create is cleared")
    heat.client.resource_signal(heat.ctx, child_ident, "inner", {"unset_hook": "pre-create"})
    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]


def test_delete_while_paused_at_a_hook(heat):
    ident = heat.client.create_stack(
        heat.ctx, "hd", CHAIN, _hooks({"a": {"hooks": ["pre-create"]}}), {}, {}
    )
    _wait_event(heat, ident, "CREATE paused until Hook pre-create is cleared")
    heat.client.delete_stack(heat.ctx, ident)
    _wait(heat, ident, {"DELETE_COMPLETE"})


def test_invalid_hook_type_is_rejected(heat):
    with pytest.raises(exception.InvalidBreakPointHook) as err:
        heat.client.create_stack(
            heat.ctx, "hx", CHAIN, _hooks({"a": {"hooks": ["pre-create", "nope"]}}), {}, {}
        )
    assert str(err.value) == (
        "Invalid hook type \"['pre-create', 'nope']\" for resource breakpoint, acceptable "
        "hook types are: ('pre-create', 'pre-update', 'pre-delete', 'post-create', "
        "'post-update', 'post-delete')"
    )
    assert heat.client.list_stacks(heat.ctx) == []


def test_post_create_hook_holds_the_dependents(heat):
    ident = heat.client.create_stack(
        heat.ctx, "hp", CHAIN, _hooks({"a": {"hooks": "post-create"}}), {}, {}
    )
    paused = _wait_event(heat, ident, "CREATE paused until Hook post-create is cleared")
    assert paused[:2] == ("a", "CREATE_COMPLETE")
    time.sleep(0.2)
    assert _status(heat, ident, "b") == "INIT_COMPLETE"
    heat.client.resource_signal(heat.ctx, ident, "a", {"unset_hook": "post-create"})
    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert [e[2] for e in _events(heat, ident) if e[0] == "a"][-2:] == [
        "CREATE paused until Hook post-create is cleared",
        "Hook post-create is cleared",
    ]


def test_delete_while_paused_at_a_pre_update_hook(heat):
    env = _hooks({"a": {"hooks": "pre-update"}})
    ident = heat.client.create_stack(heat.ctx, "hpu", CHAIN, env, {}, {})
    _wait(heat, ident, {"CREATE_COMPLETE"})
    changed = _template(
        {
            "a": {"type": "OS::Heat::TestResource", "properties": {"value": "z"}},
            "b": {"type": "OS::Heat::None", "depends_on": "a"},
        }
    )
    heat.client.update_stack(heat.ctx, ident, changed, env, {}, {})
    _wait_event(heat, ident, "UPDATE paused until Hook pre-update is cleared")
    heat.client.delete_stack(heat.ctx, ident)
    _wait(heat, ident, {"DELETE_COMPLETE"})
    reasons = [e[2] for e in _events(heat, ident) if e[0] == "a"]
    assert "Failure occurred while waiting." in reasons


def test_an_update_does_not_end_a_wait_at_a_hook(heat):
    ident = heat.client.create_stack(
        heat.ctx, "hup", CHAIN, _hooks({"a": {"hooks": "pre-create"}}), {}, {}
    )
    _wait_event(heat, ident, "CREATE paused until Hook pre-create is cleared")
    heat.client.update_stack(heat.ctx, ident, CHAIN, _hooks({"a": {"hooks": "pre-create"}}), {}, {})
    time.sleep(0.3)
    assert _status(heat, ident, "a") == "INIT_COMPLETE"
    assert "Failure occurred while waiting." not in [e[2] for e in _events(heat, ident)]
    heat.client.resource_signal(heat.ctx, ident, "a", {"unset_hook": "pre-create"})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _status(heat, ident, "a") == "CREATE_COMPLETE"
