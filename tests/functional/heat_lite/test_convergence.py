"""Convergence through the real RPC dispatch in one process (SQLite, fake transport)."""

import time

import pytest

from heat_lite.common import exception
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


_wait = inprocess.wait_for_status


def _template(resources, outputs=None, **extra):
    tmpl = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        tmpl["outputs"] = outputs
    tmpl.update(extra)
    return tmpl


def test_create_chain_with_outputs_then_delete(heat):
    tmpl = _template(
        {
            "a": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "p"}}},
            "b": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": {"get_attr": ["a", "output"]}},
            },
            "c": {"type": "OS::Heat::None", "depends_on": ["b"]},
            "rnd": {"type": "OS::Heat::RandomString", "properties": {"length": 12}},
            "v": {
                "type": "OS::Heat::Value",
                "properties": {"value": {"get_attr": ["rnd", "value"]}},
            },
        },
        outputs={
            "o": {"value": {"get_attr": ["b", "output"]}, "description": "b's value"},
            "v": {"value": {"get_attr": ["v", "value"]}},
            "r": {"value": {"get_resource": "rnd"}},
        },
        parameters={"p": {"type": "string", "default": "hello"}},
    )
    ident = heat.client.create_stack(heat.ctx, "s1", tmpl, {}, {}, {})
    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status_reason"] == "Stack CREATE completed successfully"
    outputs = {o["output_key"]: o for o in stack["outputs"]}
    assert outputs["o"]["output_value"] == "hello"
    assert outputs["o"]["description"] == "b's value"
    assert len(outputs["v"]["output_value"]) == 12
    assert outputs["r"]["output_value"] == outputs["v"]["output_value"]

    resources = {r["resource_name"]: r for r in heat.client.list_stack_resources(heat.ctx, ident)}
    assert {r["resource_status"] for r in resources.values()} == {"COMPLETE"}
    assert resources["a"]["required_by"] == ["b"]
    assert resources["c"]["resource_type"] == "OS::Heat::None"
    shown = heat.client.describe_stack_resource(heat.ctx, ident, "b")
    assert shown["attributes"]["output"] == "hello"

    events = heat.client.list_events(heat.ctx, ident, sort_dir="asc")
    assert events[0]["resource_name"] == "s1"
    assert events[0]["resource_status_reason"] == "Stack CREATE started"
    assert events[-1]["resource_status_reason"] == "Stack CREATE completed successfully"

    heat.client.delete_stack(heat.ctx, ident)
    inprocess.wait_for(heat, ident, "DELETE_COMPLETE")
    assert heat.client.list_stack_resources(heat.ctx, ident) == []
    assert heat.client.list_stacks(heat.ctx) == []


def test_rollback_of_failed_create_deletes_everything(heat):
    tmpl = _template(
        {
            "ok": {"type": "OS::Heat::TestResource"},
            "bad": {
                "type": "OS::Heat::TestResource",
                "properties": {"fail": True},
                "depends_on": ["ok"],
            },
        }
    )
    ident = heat.client.create_stack(heat.ctx, "rb", tmpl, {}, {}, {"disable_rollback": False})
    stack = _wait(heat, ident, {"ROLLBACK_COMPLETE", "ROLLBACK_FAILED"})
    assert stack["stack_status_reason"] == "Stack ROLLBACK completed successfully"
    assert heat.client.list_stack_resources(heat.ctx, ident) == []


def test_duplicate_name_and_limits(heat):
    tmpl = _template({"r": {"type": "OS::Heat::None"}})
    heat.client.create_stack(heat.ctx, "dup", tmpl, {}, {}, {})
    with pytest.raises(exception.StackExists):
        heat.client.create_stack(heat.ctx, "dup", tmpl, {}, {}, {})


def test_resource_limit(tmp_path):
    with inprocess.heat(tmp_path, max_resources_per_stack=2) as heat:
        tmpl = _template({"r%d" % i: {"type": "OS::Heat::None"} for i in range(3)})
        with pytest.raises(exception.RequestLimitExceeded, match="Maximum resources"):
            heat.client.create_stack(heat.ctx, "big", tmpl, {}, {}, {})


@pytest.mark.parametrize(
    "template, error, message",
    [
        (
            {"heat_template_version": "2099-01-01", "resources": {}},
            exception.InvalidTemplateVersion,
            '"heat_template_version: 2099-01-01"',
        ),
        (
            {"heat_template_version": "2018-08-31", "bogus": {}},
            exception.InvalidTemplateSection,
            "The template section is invalid: bogus",
        ),
        (
            _template({"r": {"type": "OS::No::Such"}}),
            exception.StackValidationFailed,
            "The Resource Type (OS::No::Such) could not be found.",
        ),
        (
            _template({"v": {"type": "OS::Heat::Value"}}),
            exception.StackValidationFailed,
            "Property value not assigned",
        ),
        (
            _template({"t": {"type": "OS::Heat::TestResource", "properties": {"bogus": 1}}}),
            exception.StackValidationFailed,
            "Unknown Property bogus",
        ),
        (
            _template(
                {
                    "a": {"type": "OS::Heat::None", "depends_on": ["b"]},
                    "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
                }
            ),
            exception.CircularDependencyException,
            "Circular Dependency Found",
        ),
        (
            _template({"a": {"type": "OS::Heat::None", "depends_on": ["nope"]}}),
            exception.InvalidTemplateReference,
            'The specified reference "nope" (in a)',
        ),
        (
            _template(
                {"r": {"type": "OS::Heat::None"}},
                parameters={
                    "n": {"type": "number", "default": 1, "constraints": [{"range": {"max": 3}}]},
                    "s": {"type": "string", "default": "abc"},
                },
            ),
            exception.StackValidationFailed,
            "Parameter 'n' is invalid",
        ),
    ],
)
def test_invalid_templates_are_rejected_and_nothing_is_stored(heat, template, error, message):
    params = {"parameters": {"n": "7"}} if "parameters" in template else {}
    with pytest.raises(error) as err:
        heat.client.create_stack(heat.ctx, "bad", template, params, {}, {})
    assert message in str(err.value)
    assert heat.client.list_stacks(heat.ctx) == []


def test_delete_while_create_is_in_progress(heat):
    tmpl = _template(
        {
            "slow%d" % i: {"type": "OS::Heat::TestResource", "properties": {"wait_secs": 1}}
            for i in range(3)
        }
        | {"after": {"type": "OS::Heat::None", "depends_on": ["slow0", "slow1", "slow2"]}}
    )
    ident = heat.client.create_stack(heat.ctx, "busy", tmpl, {}, {}, {})
    time.sleep(0.3)  # the slow resources are being created (and locked) now
    heat.client.delete_stack(heat.ctx, ident)
    stack = _wait(heat, ident, {"DELETE_COMPLETE", "DELETE_FAILED"})
    assert stack["stack_status_reason"] == "Stack DELETE completed successfully"
    assert heat.client.list_stack_resources(heat.ctx, ident) == []


def test_pseudo_parameters_resolve_in_properties(heat):
    tmpl = _template(
        {
            "v": {
                "type": "OS::Heat::Value",
                "properties": {
                    "value": {
                        "list_join": [
                            ":",
                            [{"get_param": "OS::stack_name"}, {"get_param": "OS::stack_id"}],
                        ]
                    }
                },
            }
        },
        outputs={"o": {"value": {"get_attr": ["v", "value"]}}},
    )
    ident = heat.client.create_stack(heat.ctx, "pseudo", tmpl, {}, {}, {})
    stack = inprocess.wait_for(heat, ident, "CREATE_COMPLETE")
    assert stack["outputs"][0]["output_value"] == "pseudo:%s" % ident["stack_id"]


def test_stack_limit_per_tenant(tmp_path):
    with inprocess.heat(tmp_path, max_stacks_per_tenant=1) as heat:
        tmpl = _template({"r": {"type": "OS::Heat::None"}})
        heat.client.create_stack(heat.ctx, "one", tmpl, {}, {}, {})
        with pytest.raises(exception.RequestLimitExceeded) as err:
            heat.client.create_stack(heat.ctx, "two", tmpl, {}, {}, {})
        assert str(err.value) == (
            "Request limit exceeded: You have reached the maximum stacks per tenant, 1. "
            "Please delete some stacks."
        )


def _wait_resource(heat, ident, name, state, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for r in heat.client.list_stack_resources(heat.ctx, ident):
            if "%s_%s" % (r["resource_action"], r["resource_status"]) == state and (
                r["resource_name"] == name
            ):
                return
        time.sleep(0.02)
    raise AssertionError("%s never reached %s" % (name, state))


@pytest.mark.parametrize("how", ["delete", "abandon"])
def test_delete_during_create_aborts_the_running_task(heat, how):
    """A resource still creating (for 10 minutes) when its stack is deleted is told to stop:
    it ends CREATE_FAILED "CREATE aborted (user triggered cancel)" and the delete goes on at
    once (docs/rpc-and-convergence.md §4.14), instead of waiting for the create to finish."""
    tmpl = _template(
        {
            "slow": {
                "type": "OS::Heat::TestResource",
                "properties": {"action_wait_secs": {"create": 600}},
            },
            "after": {"type": "OS::Heat::TestResource", "depends_on": ["slow"]},
        }
    )
    ident = heat.client.create_stack(heat.ctx, "dx", tmpl, {}, {}, {})
    _wait_resource(heat, ident, "slow", "CREATE_IN_PROGRESS")
    if how == "delete":
        heat.client.delete_stack(heat.ctx, ident)
    else:
        from heat_lite.conf import CONF

        CONF.set_override("enable_stack_abandon", True)
        try:
            heat.client.abandon_stack(heat.ctx, ident)
        finally:
            CONF.clear_override("enable_stack_abandon")
    inprocess.wait_for(heat, ident, "DELETE_COMPLETE")
    events = [
        (
            e["resource_name"],
            "%s_%s" % (e["resource_action"], e["resource_status"]),
            e["resource_status_reason"],
        )
        for e in heat.client.list_events(heat.ctx, ident, sort_dir="asc")
    ]
    assert ("dx", "CREATE_FAILED", "Stack CREATE cancelled") in events
    assert ("slow", "CREATE_FAILED", "CREATE aborted (user triggered cancel)") in events
    assert events.index(("dx", "CREATE_FAILED", "Stack CREATE cancelled")) < events.index(
        ("slow", "CREATE_FAILED", "CREATE aborted (user triggered cancel)")
    )
    assert events[-1] == ("dx", "DELETE_COMPLETE", "Stack DELETE completed successfully")
    # the create was cut short, not waited for: it never completed, "after" never began
    assert [e for e in events if e[:2] == ("slow", "CREATE_COMPLETE") or e[0] == "after"] == []
