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
