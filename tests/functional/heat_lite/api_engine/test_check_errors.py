"""A node's check that fails for an unexpected reason ends (issue 29 item 2).

Any error inside a worker's check of a node ends its resource ``<ACTION>_FAILED`` with the
error and the stack FAILED with ``Resource <ACTION> failed: <reason>``: the node is not
sent again for ever. The real API, engine and worker in this process; the broken plugins
are resource types registered for the test.
"""

import json

import pytest

from heat_lite.engine import resources
from heat_lite.engine.resources.openstack.heat import test_resource
from tests.functional.heat_lite.api_engine.helpers import create_stack, wait_stack

pytestmark = pytest.mark.functional


def _nested(length):
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"s": {"type": "OS::Heat::RandomString", "properties": {"length": length}}},
        "outputs": {"value": {"value": {"get_attr": ["s", "value"]}}},
    }


MAIN = {
    "heat_template_version": "2018-08-31",
    "resources": {"r": {"type": "OS::Heat::RandomString"}},
    "outputs": {"value": {"value": {"get_attr": ["r", "value"]}}},
}


def _outputs(stack):
    return {o["output_key"]: o.get("output_value") for o in stack["outputs"]}


def _resource(api, url, name):
    return api.get(url + "/resources/" + name).json["resource"]


def test_a_type_mapped_to_another_provider_template_file_updates_the_child(api):
    """The environment maps the type to new/nested.yaml instead of nested.yaml (which the
    update no longer carries): the resource is updated in place, its child to the new
    file's template, as Heat does (its TemplateResource is one class for every file)."""
    url = create_stack(
        api,
        {
            "stack_name": "remap",
            "template": MAIN,
            "files": {"file:///tmp/nested.yaml": json.dumps(_nested(4))},
            "environment": {
                "resource_registry": {"OS::Heat::RandomString": "file:///tmp/nested.yaml"}
            },
        },
    )
    before = _resource(api, url, "r")
    assert len(_outputs(api.get(url).json["stack"])["value"]) == 4

    api.put_json(
        url,
        {
            "template": MAIN,
            "files": {"file:///tmp/new/nested.yaml": json.dumps(_nested(6))},
            "environment": {
                "resource_registry": {"OS::Heat::RandomString": "file:///tmp/new/nested.yaml"}
            },
        },
    )

    stack = wait_stack(api, url, "UPDATE_IN_PROGRESS")
    assert (stack["stack_status"], stack["stack_status_reason"]) == (
        "UPDATE_COMPLETE",
        "Stack UPDATE completed successfully",
    )
    after = _resource(api, url, "r")
    assert after["physical_resource_id"] == before["physical_resource_id"]
    assert after["resource_status"] == "UPDATE_COMPLETE"
    assert len(_outputs(stack)["value"]) == 6


class _CheckFails(test_resource.TestResource):
    """Its update check (outside the action's own error handling) raises."""

    def update_needed_anyway(self, new_defn):
        raise RuntimeError("update check exploded")


class _ReferenceFails(test_resource.TestResource):
    """Created fine; reading its reference (the data sent on) raises."""

    def get_reference_id(self):
        raise KeyError("no reference")


class _CreateFails(test_resource.TestResource):
    def handle_create(self):
        raise ZeroDivisionError("handle_create exploded")


@pytest.fixture
def broken_types(monkeypatch):
    for name, cls in (
        ("Test::CheckFails", _CheckFails),
        ("Test::ReferenceFails", _ReferenceFails),
        ("Test::CreateFails", _CreateFails),
    ):
        monkeypatch.setitem(resources.registry(), name, cls)


def _template(rtype, **outputs):
    return {
        "heat_template_version": "2018-08-31",
        "resources": {"r": {"type": rtype}},
        "outputs": {k: {"value": v} for k, v in outputs.items()},
    }


def _create(api, name, template):
    body = {"stack_name": name, "template": template, "disable_rollback": True}
    url = api.post_json("/v1/admin/stacks", body).location
    return url, wait_stack(api, url, "CREATE_IN_PROGRESS")


def _state(stack):
    return stack["stack_status"], stack["stack_status_reason"]


def _resource_state(api, url):
    r = _resource(api, url, "r")
    return r["resource_status"], r["resource_status_reason"]


def test_an_error_in_an_update_check_fails_the_resource_and_the_stack(
    api, broken_types, expect_log_errors
):
    expect_log_errors(r"Unexpected error in UPDATE of resource r")
    template = _template("Test::CheckFails")
    url, stack = _create(api, "check-fails", template)
    assert stack["stack_status"] == "CREATE_COMPLETE"

    api.patch_json(url, {"template": template, "disable_rollback": True})

    stack = wait_stack(api, url, "UPDATE_IN_PROGRESS")
    reason = "RuntimeError: resources.r: update check exploded"
    assert _state(stack) == ("UPDATE_FAILED", "Resource UPDATE failed: " + reason)
    assert _resource_state(api, url) == ("UPDATE_FAILED", reason)


def test_an_error_after_the_action_fails_the_resource_and_the_stack(
    api, broken_types, expect_log_errors
):
    expect_log_errors(r"Unexpected error checking resource r")
    url, stack = _create(
        api, "reference-fails", _template("Test::ReferenceFails", ref={"get_resource": "r"})
    )

    reason = "KeyError: resources.r: 'no reference'"
    assert _state(stack) == ("CREATE_FAILED", "Resource CREATE failed: " + reason)
    assert _resource_state(api, url) == ("CREATE_FAILED", reason)


def test_an_error_in_a_handler_fails_the_resource_and_the_stack(api, broken_types):
    url, stack = _create(api, "create-fails", _template("Test::CreateFails"))

    reason = "ZeroDivisionError: resources.r: handle_create exploded"
    assert _state(stack) == ("CREATE_FAILED", "Resource CREATE failed: " + reason)
    assert _resource_state(api, url) == ("CREATE_FAILED", reason)
