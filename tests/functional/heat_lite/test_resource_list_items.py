"""The engine keeps the resource list items it made (service_resources._formatted): a
row that changed since is shown as it is now, one that did not as it was shown before;
through the real RPC dispatch in one process."""

import pytest

from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"a": {"type": "OS::Heat::None"}, "b": {"type": "OS::Heat::None"}},
}


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _resources(heat, ident):
    return {r["resource_name"]: r for r in heat.client.list_stack_resources(heat.ctx, ident)}


def _state(item):
    return item["resource_action"], item["resource_status"], item["resource_status_reason"]


def test_a_changed_row_is_shown_as_it_is_now(heat):
    ident = heat.client.create_stack(heat.ctx, "items", TEMPLATE, {}, {}, {})
    inprocess.wait_for_status(heat, ident, {"CREATE_COMPLETE"})
    before = _resources(heat, ident)
    assert _state(before["a"])[:2] == ("CREATE", "COMPLETE")

    heat.client.resource_mark_unhealthy(heat.ctx, ident, "a", True, resource_status_reason="bad")
    after = _resources(heat, ident)
    assert _state(after["a"]) == ("CHECK", "FAILED", "bad")
    assert after["b"] == before["b"]

    heat.client.resource_mark_unhealthy(heat.ctx, ident, "a", False, resource_status_reason="ok")
    assert _state(_resources(heat, ident)["a"]) == ("CHECK", "COMPLETE", "ok")


def test_each_stack_gets_its_own_items(heat):
    first = heat.client.create_stack(heat.ctx, "one", TEMPLATE, {}, {}, {})
    second = heat.client.create_stack(heat.ctx, "two", TEMPLATE, {}, {}, {})
    for ident in (first, second):
        inprocess.wait_for_status(heat, ident, {"CREATE_COMPLETE"})
    for ident in (first, second):
        items = _resources(heat, ident)
        assert {item["stack_name"] for item in items.values()} == {ident["stack_name"]}
        assert items["a"]["resource_identity"]["stack_id"] == ident["stack_id"]


def _if_changed(heat, ident, version, **kwargs):
    return heat.client.list_stack_resources_if_changed(heat.ctx, ident, version, **kwargs)


def test_an_unchanged_list_is_not_sent_again(heat):
    ident = heat.client.create_stack(heat.ctx, "versions", TEMPLATE, {}, {}, {})
    inprocess.wait_for_status(heat, ident, {"CREATE_COMPLETE"})
    first = _if_changed(heat, ident, None)
    assert first["version"]
    assert first["resources"] == heat.client.list_stack_resources(heat.ctx, ident)
    assert _if_changed(heat, ident, first["version"]) == {
        "version": first["version"],
        "resources": None,
    }

    # a resource's state changes: a new version, and the list as it is now
    heat.client.resource_mark_unhealthy(heat.ctx, ident, "a", True, resource_status_reason="bad")
    second = _if_changed(heat, ident, first["version"])
    assert second["version"] not in (None, first["version"])
    assert _state(_resources(heat, ident)["a"]) == ("CHECK", "FAILED", "bad")
    assert second["resources"] == heat.client.list_stack_resources(heat.ctx, ident)

    # a resource added and one removed by an update (new rows, a new template)
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"a": {"type": "OS::Heat::None"}, "c": {"type": "OS::Heat::None"}},
    }
    heat.client.update_stack(heat.ctx, ident, template, {}, {}, {})
    inprocess.wait_for_status(heat, ident, {"UPDATE_COMPLETE"})
    third = _if_changed(heat, ident, second["version"])
    assert third["version"] not in (None, first["version"], second["version"])
    assert sorted(r["resource_name"] for r in third["resources"]) == ["a", "c"]
    assert third["resources"] == heat.client.list_stack_resources(heat.ctx, ident)


def test_an_other_project_gets_not_found_whatever_version_it_sends(heat):
    from heat_lite.common import context, exception

    ident = heat.client.create_stack(heat.ctx, "private", TEMPLATE, {}, {}, {})
    inprocess.wait_for_status(heat, ident, {"CREATE_COMPLETE"})
    version = _if_changed(heat, ident, None)["version"]
    stranger = context.RequestContext(user_id="u2", project_id="p2", roles=["member"])
    with pytest.raises(exception.EntityNotFound):
        heat.client.list_stack_resources_if_changed(stranger, ident, version)


def test_lists_with_detail_or_nested_stacks_have_no_version(heat):
    ident = heat.client.create_stack(heat.ctx, "plain", TEMPLATE, {}, {}, {})
    inprocess.wait_for_status(heat, ident, {"CREATE_COMPLETE"})
    for kwargs in ({"with_detail": True}, {"nested_depth": 1}):
        answer = _if_changed(heat, ident, None, **kwargs)
        assert answer["version"] is None
        assert answer["resources"] == heat.client.list_stack_resources(heat.ctx, ident, **kwargs)
