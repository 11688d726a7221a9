"""A deprecated type changed to its replacement keeps the resource (issue 14 item 8).

Reference run on Heat 27: OS::Heat::SoftwareDeployments changed to
OS::Heat::SoftwareDeploymentGroup is UPDATE_IN_PROGRESS -> UPDATE_COMPLETE with the same
physical id (Heat's support_status substitute_class, heat/engine/resource.py load and
heat/engine/support.py is_substituted).
"""

import pytest

from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _template(type_name):
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "deps": {
                "type": type_name,
                "properties": {"config": "abc", "servers": {}, "signal_transport": "NO_SIGNAL"},
            }
        },
    }


def _deps(heat, ident):
    [row] = heat.client.list_stack_resources(heat.ctx, ident)
    return row


def _events(heat, ident):
    return [
        "%s_%s" % (e["resource_action"], e["resource_status"])
        for e in heat.client.list_events(heat.ctx, ident)
        if e["resource_name"] == "deps"
    ]


@pytest.mark.parametrize(
    "old, new, replaced",
    [
        ("OS::Heat::SoftwareDeployments", "OS::Heat::SoftwareDeploymentGroup", False),
        ("OS::Heat::StructuredDeployments", "OS::Heat::StructuredDeploymentGroup", False),
        ("OS::Heat::SoftwareDeploymentGroup", "OS::Heat::SoftwareDeployments", True),
    ],
)
def test_a_deprecated_type_changed_to_its_substitute(heat, old, new, replaced):
    ident = heat.client.create_stack(heat.ctx, "sd", _template(old), {}, {}, {})
    _wait(heat, ident, {"CREATE_COMPLETE"})
    before = _deps(heat, ident)
    heat.client.update_stack(heat.ctx, ident, _template(new), {}, {}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status_reason"] == "Stack UPDATE completed successfully"
    after = _deps(heat, ident)
    assert after["resource_type"] == new
    if replaced:
        assert after["physical_resource_id"] != before["physical_resource_id"]
        return
    assert after["physical_resource_id"] == before["physical_resource_id"]
    assert after["resource_status"] == "COMPLETE" and after["resource_action"] == "UPDATE"
    assert sorted(_events(heat, ident)) == sorted(
        ["CREATE_IN_PROGRESS", "CREATE_COMPLETE", "UPDATE_IN_PROGRESS", "UPDATE_COMPLETE"]
    )
