"""The real ``openstack software config`` / ``openstack software deployment`` commands
against heat-lite's real processes (api, engine, workers on PostgreSQL and RabbitMQ).
"""

import json
import os
import subprocess
import sys

import pytest
import requests
import yaml

pytestmark = pytest.mark.integration

OPENSTACK = os.path.join(os.path.dirname(sys.executable), "openstack")


def openstack(heat, *args, fmt="json"):
    """Run the CLI as a user of project admin; its parsed output (or text)."""
    cmd = [OPENSTACK, "--os-auth-type", "none", "--os-endpoint", heat.endpoint, *args]
    if fmt:
        cmd += ["-f", fmt]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, (cmd, proc.stdout, proc.stderr)
    if fmt == "json":
        return json.loads(proc.stdout)
    if fmt == "yaml":
        return yaml.safe_load(proc.stdout)
    return proc.stdout


def openstack_fails(heat, *args):
    cmd = [OPENSTACK, "--os-auth-type", "none", "--os-endpoint", heat.endpoint, *args]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0, proc.stdout
    return proc.stderr


def test_software_config_create_list_show_delete(heat, tmp_path):
    script = tmp_path / "script.sh"
    script.write_text("#!/bin/sh\necho $foo\n")
    definition = tmp_path / "definition.yaml"
    definition.write_text(
        yaml.safe_dump(
            {
                "inputs": [{"name": "foo", "default": "bar"}],
                "outputs": [{"name": "result", "error_output": False}],
                "options": {"opt": True},
            }
        )
    )
    created = openstack(
        heat,
        "software",
        "config",
        "create",
        "cli-config",
        "--group",
        "script",
        "--config-file",
        str(script),
        "--definition-file",
        str(definition),
    )
    assert created["name"] == "cli-config"
    assert created["group"] == "script"
    assert created["config"] == "#!/bin/sh\necho $foo\n"
    assert created["inputs"] == [{"name": "foo", "type": "String", "default": "bar"}]
    assert created["outputs"] == [{"name": "result", "type": "String", "error_output": False}]
    assert created["options"] == {"opt": True}

    listed = openstack(heat, "software", "config", "list")
    (item,) = [c for c in listed if c["id"] == created["id"]]
    assert (item["name"], item["group"]) == ("cli-config", "script")
    assert item["creation_time"] == created["creation_time"]

    shown = openstack(heat, "software", "config", "show", created["id"], fmt="yaml")
    assert shown["id"] == created["id"]
    assert shown["inputs"] == created["inputs"]
    config_only = openstack(
        heat, "software", "config", "show", "--config-only", created["id"], fmt=None
    )
    assert config_only.strip() == "#!/bin/sh\necho $foo"

    openstack(heat, "software", "config", "delete", created["id"], fmt=None)
    assert created["id"] not in [c["id"] for c in openstack(heat, "software", "config", "list")]
    err = openstack_fails(heat, "software", "config", "show", created["id"])
    assert "Configuration not found: %s" % created["id"] in err


def test_software_deployment_create_list_show_metadata_delete(heat):
    config = openstack(heat, "software", "config", "create", "cli-dep-config", "--group", "script")
    server = "cli-server-1"
    deployment = openstack(
        heat,
        "software",
        "deployment",
        "create",
        "cli-deployment",
        "--config",
        config["id"],
        "--server",
        server,
        "--input-value",
        "foo=bar",
        "--action",
        "CREATE",
        "--signal-transport",
        "NO_SIGNAL",
    )
    assert deployment["server_id"] == server
    assert deployment["action"] == "CREATE"
    assert deployment["status"] == "IN_PROGRESS"
    assert deployment["config_id"] != config["id"]  # the CLI derives a config

    listed = openstack(heat, "software", "deployment", "list", "--server", server)
    assert [(d["id"], d["server_id"], d["action"], d["status"]) for d in listed] == [
        (deployment["id"], server, "CREATE", "IN_PROGRESS")
    ]
    assert openstack(heat, "software", "deployment", "list", "--server", "other") == []

    shown = openstack(heat, "software", "deployment", "show", deployment["id"])
    assert shown["id"] == deployment["id"]
    assert shown["config_id"] == deployment["config_id"]
    assert shown["status"] == "IN_PROGRESS"

    metadata = json.loads(
        openstack(heat, "software", "deployment", "metadata", "show", server, fmt=None)
    )
    assert [m["id"] for m in metadata] == [deployment["config_id"]]
    assert metadata[0]["name"] == "cli-deployment"
    inputs = {i["name"]: i.get("value") for i in metadata[0]["inputs"]}
    assert inputs["foo"] == "bar"
    assert inputs["deploy_server_id"] == server
    assert inputs["deploy_action"] == "CREATE"

    openstack(heat, "software", "deployment", "delete", deployment["id"], fmt=None)
    assert openstack(heat, "software", "deployment", "list", "--server", server) == []
    # the CLI deleted the derived config too; the original one stays
    configs = [c["id"] for c in openstack(heat, "software", "config", "list")]
    assert deployment["config_id"] not in configs and config["id"] in configs
    err = openstack_fails(heat, "software", "deployment", "show", deployment["id"])
    assert "Software Deployment not found: %s" % deployment["id"] in err


@pytest.mark.parametrize(
    "path,body,status",
    [
        ("/software_configs", {"name": {"a": 1}}, 400),
        ("/software_configs", {"name": "n" * 300}, 400),
        ("/software_configs", {"inputs": "x"}, 400),
        ("/software_deployments", {"server_id": "s"}, 404),
        ("/software_deployments", {"config_id": 42, "server_id": "s"}, 404),
        ("/software_deployments", {"config_id": "x" * 40, "server_id": "s"}, 404),
    ],
)
def test_bad_input_on_postgresql_is_4xx(heat, path, body, status, expect_log_errors):
    # inputs that are not a list: as Heat 27's, the engine's RPC server logs the TypeError
    expect_log_errors(r"TypeError: Software Config I/O Schema must be in a list")
    resp = requests.post(heat.endpoint + path, json=body, timeout=30)
    assert resp.status_code == status, resp.text
    assert resp.json()["error"]["type"]


def test_deployment_fields_too_long_for_postgresql_are_400(heat):
    config = requests.post(
        heat.endpoint + "/software_configs", json={"name": "c"}, timeout=30
    ).json()["software_config"]
    for body in ({"server_id": "s" * 37}, {"server_id": "s", "status": "x" * 256}):
        resp = requests.post(
            heat.endpoint + "/software_deployments",
            json=dict(body, config_id=config["id"]),
            timeout=30,
        )
        assert resp.status_code == 400, resp.text
        assert resp.json()["error"]["type"] == "Invalid"
