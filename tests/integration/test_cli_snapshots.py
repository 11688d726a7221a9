"""The real ``openstack stack snapshot create|list|show|delete|restore`` commands against
heat-lite's real processes (api, engine, workers on PostgreSQL and RabbitMQ): what the
CLI prints, and a restore that brings back the resources and outputs of the template
the snapshot was taken of after the stack was updated to another.
"""

import time

import pytest
import yaml

from tests.fixtures import cli as cli_mod

pytestmark = pytest.mark.integration

TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "parameters": {"p": {"type": "string", "default": "one"}},
    "resources": {
        "v": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "p"}}},
        "rand": {"type": "OS::Heat::RandomString", "properties": {"length": 10}},
    },
    "outputs": {
        "o": {"value": {"get_attr": ["v", "value"]}},
        "rand": {"value": {"get_attr": ["rand", "value"]}},
    },
}
TEMPLATE2 = {
    "heat_template_version": "2016-10-14",
    "resources": {"w": {"type": "OS::Heat::TestResource", "properties": {"value": "two"}}},
    "outputs": {"o": {"value": {"get_attr": ["w", "output"]}}},
}

# long enough that the next CLI call (1-5 s to start on a loaded 2-core machine) finds it
# still in progress
SLOW = {
    "heat_template_version": "2016-10-14",
    "resources": {"t": {"type": "OS::Heat::TestResource", "properties": {"wait_secs": 10}}},
}


@pytest.fixture(scope="module")
def cli(heat, tmp_path_factory):
    cwd = tmp_path_factory.mktemp("cli")
    (cwd / "t1.yaml").write_text(yaml.safe_dump(TEMPLATE))
    (cwd / "t2.yaml").write_text(yaml.safe_dump(TEMPLATE2))
    (cwd / "slow.yaml").write_text(yaml.safe_dump(SLOW))
    return cli_mod.OpenStackCLI(heat.endpoint, cwd=cwd)


def _until(check, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value is not None:
            return value
        time.sleep(0.2)
    raise AssertionError("timed out")


def _settled(cli, name):
    def check():
        status = cli.value("stack", "show", name, "-c", "stack_status")
        return None if status.endswith("_IN_PROGRESS") else status

    return _until(check)


def _outputs(cli, name):
    stack = cli.json("stack", "show", name)
    return {o["output_key"]: o["output_value"] for o in stack["outputs"]}


def test_cli_snapshot_create_list_show_restore_delete(cli):
    cli("stack", "create", "-t", "t1.yaml", "--parameter", "p=kept", "clisnap")
    assert _settled(cli, "clisnap") == "CREATE_COMPLETE"
    before = _outputs(cli, "clisnap")
    assert before["o"] == "kept"

    created = cli.json("stack", "snapshot", "create", "clisnap", "--name", "s1")
    assert list(created) == [
        "ID",
        "name",
        "action",
        "status",
        "status_reason",
        "data",
        "creation_time",
    ]
    assert (created["name"], created["action"], created["status"]) == (
        "s1",
        "CREATE",
        "IN_PROGRESS",
    )
    assert created["status_reason"] is None
    assert created["data"]["resources"] == {}
    sid = created["ID"]

    def listed():
        rows = cli.json("stack", "snapshot", "list", "clisnap")
        return rows if rows[0]["status"] != "IN_PROGRESS" else None

    (row,) = _until(listed)
    assert row == {
        "id": sid,
        "name": "s1",
        "action": "CREATE",
        "status": "COMPLETE",
        "status_reason": "Stack SNAPSHOT completed successfully",
        "creation_time": created["creation_time"],
    }
    assert _settled(cli, "clisnap") == "SNAPSHOT_COMPLETE"

    shown = yaml.safe_load(cli("stack", "snapshot", "show", "clisnap", sid))["snapshot"]
    assert (shown["id"], shown["status"]) == (sid, "COMPLETE")
    data = shown["data"]
    assert (data["name"], data["action"], data["status"]) == ("clisnap", "SNAPSHOT", "COMPLETE")
    assert data["environment"]["parameters"] == {"p": "kept"}
    assert data["resources"]["rand"]["resource_data"] == {"value": before["rand"]}
    assert {r["action"] for r in data["resources"].values()} == {"SNAPSHOT"}

    # update to another template, then restore the snapshot
    cli("stack", "update", "-t", "t2.yaml", "clisnap")
    assert _settled(cli, "clisnap") == "UPDATE_COMPLETE"
    assert _outputs(cli, "clisnap") == {"o": "two"}
    assert cli("stack", "snapshot", "restore", "clisnap", sid) == ""
    assert _settled(cli, "clisnap") == "RESTORE_COMPLETE"
    assert _outputs(cli, "clisnap") == before
    resources = cli.json("stack", "resource", "list", "clisnap")
    assert sorted((r["resource_name"], r["resource_status"]) for r in resources) == [
        ("rand", "CREATE_COMPLETE"),
        ("v", "CREATE_COMPLETE"),
    ]
    template = cli.json("stack", "template", "show", "clisnap")
    assert template == TEMPLATE

    # delete: gone from the list, and show/restore/delete of it fail as the CLI says
    assert cli("stack", "snapshot", "delete", "-y", "clisnap", sid) == ""
    assert cli.json("stack", "snapshot", "list", "clisnap") == []
    err = cli.error("stack", "snapshot", "show", "clisnap", sid)
    assert "Snapshot ID <%s> not found for stack <clisnap>" % sid in err
    err = cli.error("stack", "snapshot", "restore", "clisnap", sid)
    assert "Stack clisnap or snapshot %s not found." % sid in err
    err = cli.error("stack", "snapshot", "delete", "-y", "clisnap", sid)
    assert "Snapshot ID <%s> not found for stack <clisnap>" % sid in err


def test_cli_snapshot_errors(cli):
    err = cli.error("stack", "snapshot", "create", "no-such-stack", "--name", "x")
    assert "Stack not found: no-such-stack" in err
    err = cli.error("stack", "snapshot", "list", "no-such-stack")
    assert "Stack not found: no-such-stack" in err
    # a stack being created cannot be snapshotted: Heat's 409 message
    cli("stack", "create", "-t", "slow.yaml", "clisnap-busy")
    err = cli.error("stack", "snapshot", "create", "clisnap-busy")
    assert "Stack clisnap-busy already has an action (CREATE) in progress." in err
    assert _settled(cli, "clisnap-busy") == "CREATE_COMPLETE"
