"""The read-only endpoints through real clients, against the API + real engine over HTTP:
python-heatclient in both transport modes, and the ``openstack`` CLI as a subprocess.
"""

import json
import os
import subprocess
import sys
import time

import pytest
from heatclient import client as heat_client
from heatclient import exc as heat_exc
from keystoneauth1 import noauth as ks_noauth
from keystoneauth1 import session as ks_session

from tests.functional.heat_lite.api_engine import test_info

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "description": "clients",
    "parameters": {
        "p": {"type": "string", "default": "x", "label": "The P"},
        "secret": {"type": "string", "hidden": True, "default": "s"},
    },
    "resources": {
        "r": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "p"}}}
    },
    "outputs": {"o": {"value": {"get_attr": ["r", "output"]}, "description": "out o"}},
}

OPENSTACK = os.path.join(os.path.dirname(sys.executable), "openstack")


def _plain(endpoint):
    return heat_client.Client("1", endpoint=endpoint, token="x")


def _session(endpoint):
    """As OSC does with --os-auth-type none: keystoneauth follows the 302s itself."""
    sess = ks_session.Session(auth=ks_noauth.NoAuth(endpoint=endpoint))
    return heat_client.Client(
        "1", session=sess, endpoint_override=endpoint, service_type="orchestration"
    )


@pytest.fixture(scope="module")
def stack_name(endpoint):
    hc = _plain(endpoint)
    hc.stacks.create(
        stack_name="clients1",
        template=TEMPLATE,
        parameters={"p": "y", "secret": "hush"},
        files={"a.txt": "hello"},
    )
    for _ in range(600):
        status = hc.stacks.get("clients1").stack_status
        if status != "CREATE_IN_PROGRESS":
            break
        time.sleep(0.05)
    assert status == "CREATE_COMPLETE"
    return "clients1"


@pytest.mark.parametrize("make_client", [_plain, _session], ids=["plain", "session"])
def test_heatclient_info_calls(endpoint, make_client):
    hc = make_client(endpoint)
    versions = hc.template_versions.list()
    assert "heat_template_version.2018-08-31" in [v.version for v in versions]
    functions = hc.template_versions.get("heat_template_version.2016-10-14")
    assert "get_file" in [f.functions for f in functions]
    with pytest.raises(heat_exc.HTTPNotFound):
        hc.template_versions.get("bogus")

    assert [t.resource_type for t in hc.resource_types.list()] == test_info.TYPES
    listed = hc.resource_types.list(filters={"name": "OS::Heat::T"}, with_description=True)
    assert [t.resource_type for t in listed] == ["OS::Heat::TestResource"]
    schema = hc.resource_types.get("OS::Heat::TestResource")
    assert schema["support_status"]["status"] == "SUPPORTED"
    assert schema["properties"]["wait_secs"]["default"] == 0
    generated = hc.resource_types.generate_template("OS::Heat::TestResource", "hot")
    assert generated["resources"]["TestResource"]["type"] == "OS::Heat::TestResource"

    assert hc.build_info.build_info() == {
        "api": {"revision": "unknown"},
        "engine": {"revision": "unknown"},
    }
    assert [s.status for s in hc.services.list()] == ["up"]

    result = hc.stacks.validate(template=TEMPLATE, parameters={"p": "z"})
    assert result["Parameters"]["p"]["Value"] == "z"
    assert result["Parameters"]["secret"]["NoEcho"] == "true"
    with pytest.raises(heat_exc.HTTPBadRequest) as err:
        hc.stacks.validate(template={"heat_template_version": "2016-10-14", "bogus": {}})
    assert "The template section is invalid: bogus" in str(err.value)

    preview = hc.stacks.preview(stack_name="prev1", template=TEMPLATE)
    assert preview.id == "None"
    assert [r["resource_name"] for r in preview.resources] == ["r"]


@pytest.mark.parametrize("make_client", [_plain, _session], ids=["plain", "session"])
def test_heatclient_stack_data(endpoint, stack_name, make_client):
    hc = make_client(endpoint)
    assert hc.stacks.output_list(stack_name) == {
        "outputs": [{"output_key": "o", "description": "out o"}]
    }
    assert hc.stacks.output_show(stack_name, "o") == {
        "output": {"output_key": "o", "description": "out o", "output_value": "y"}
    }
    with pytest.raises(heat_exc.HTTPNotFound) as err:
        hc.stacks.output_show(stack_name, "nope")
    assert "Specified output key nope not found." in str(err.value)
    env = hc.stacks.environment(stack_name)
    assert env["parameters"] == {"p": "y", "secret": "******"}
    assert env["resource_registry"] == {"resources": {}}
    assert hc.stacks.files(stack_name) == {"a.txt": "hello"}
    assert hc.stacks.template(stack_name) == TEMPLATE


def _openstack(endpoint, *args):
    """Run the real CLI against heat-lite; its parsed ``-f json`` output."""
    cmd = [OPENSTACK, "--os-auth-type", "none", "--os-endpoint", endpoint, *args, "-f", "json"]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


def test_openstack_cli_templates_and_types(endpoint):
    versions = _openstack(endpoint, "orchestration", "template", "version", "list")
    assert {
        "Version": "heat_template_version.2016-10-14",
        "Type": "hot",
        "Aliases": ["heat_template_version.newton"],
    } in versions
    functions = _openstack(
        endpoint, "orchestration", "template", "function", "list", "heat_template_version.pike"
    )
    assert {
        "Functions": "get_file",
        "Description": "A function for including a file inline.",
    } in functions
    types = _openstack(endpoint, "orchestration", "resource", "type", "list")
    assert {"Resource Type": "OS::Heat::RandomString"} in types
    shown = _openstack(endpoint, "orchestration", "resource", "type", "show", "OS::Heat::Value")
    assert shown["properties"]["value"]["type"] == "any"
    assert shown["attributes"]["show"] == {
        "description": "Detailed information about resource.",
        "type": "map",
    }
    info = _openstack(endpoint, "orchestration", "build", "info")
    assert info == {"api": {"revision": "unknown"}, "engine": {"revision": "unknown"}}
    services = _openstack(endpoint, "orchestration", "service", "list")
    assert [(s["Binary"], s["Topic"], s["Status"]) for s in services] == [
        ("heat-engine", "engine", "up")
    ]


def test_openstack_cli_validate_and_stack_data(endpoint, stack_name, tmp_path):
    template = tmp_path / "t.yaml"
    template.write_text(json.dumps(TEMPLATE))
    env = tmp_path / "env.yaml"
    env.write_text("parameter_defaults:\n  secret: dd\n")
    result = _openstack(
        endpoint,
        "orchestration",
        "template",
        "validate",
        "-t",
        str(template),
        "-e",
        str(env),
        "--parameter",
        "p=zz",
    )
    assert result == {
        "Description": "clients",
        "Parameters": {
            "p": {
                "Type": "String",
                "Description": "",
                "NoEcho": "false",
                "Label": "The P",
                "Default": "x",
                "Value": "zz",
            },
            "secret": {
                "Type": "String",
                "Description": "",
                "NoEcho": "true",
                "Label": "secret",
                "Default": "dd",
            },
        },
        "Environment": {
            "resource_registry": {"resources": {}},
            "parameters": {"p": "zz"},
            "parameter_defaults": {"secret": "dd"},
            "event_sinks": [],
        },
    }
    assert _openstack(endpoint, "stack", "output", "show", stack_name, "o") == {
        "output_key": "o",
        "description": "out o",
        "output_value": "y",
    }
    assert _openstack(endpoint, "stack", "environment", "show", stack_name) == {
        "parameters": {"p": "y", "secret": "******"},
        "resource_registry": {"resources": {}},
        "parameter_defaults": {},
    }
    assert _openstack(endpoint, "stack", "file", "list", stack_name) == {
        "files": {"a.txt": "hello"}
    }
    dry_run = _openstack(endpoint, "stack", "create", "-t", str(template), "--dry-run", "cli2")
    assert dry_run["id"] == "None"
    assert dry_run["parameters"]["OS::stack_name"] == "cli2"
