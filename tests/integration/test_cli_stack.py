"""``openstack stack ...`` (the real CLI, python-heatclient's OSC plugin) against real
heat-lite processes on PostgreSQL and RabbitMQ: what each command prints.

Expected values were taken from the same commands against the reference Heat 27 on the
same templates (``pytest --against-heat URL`` runs this module against another Heat to
compare); differences kept on purpose are noted
where they are checked. Each test drives one stack through a group of commands.
"""

import json
import re

import pytest

from tests.integration import cli_templates, helpers

pytestmark = pytest.mark.integration

TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
LIST_COLUMNS = ["ID", "Stack Name", "Project", "Stack Status", "Creation Time", "Updated Time"]


@pytest.fixture(scope="module", autouse=True)
def templates(cli_dir):
    return cli_templates.write_all(cli_dir)


def _wait(hc, name, statuses):
    return helpers.wait_for_status(hc, name, statuses, timeout=60)


def test_create_wait_show_outputs_template_environment_files(cli, cli_dir):
    events, created = cli.waited(
        "stack", "create", "-t", "demo.yaml", "-e", "env.yaml",
        "--parameter", "p=y", "--tags", "cq,b", "--wait", "s1",
    )  # fmt: skip
    assert created["stack_name"] == "s1"
    assert created["stack_status"] == "CREATE_COMPLETE"
    assert created["stack_status_reason"] == "Stack CREATE completed successfully"
    assert created["description"] == "demo"
    assert created["updated_time"] is None
    assert TIME_RE.match(created["creation_time"])
    # --wait prints the events as they come: "<time> <event id> [s1.r]: <STATUS>  <reason>"
    assert events[0].endswith("[s1]: CREATE_IN_PROGRESS  Stack CREATE started")
    assert events[-1].endswith("[s1]: CREATE_COMPLETE  Stack CREATE completed successfully")
    assert any(e.endswith("[s1.r]: CREATE_COMPLETE  state changed") for e in events)
    assert any(e.endswith("[s1.n]: CREATE_COMPLETE  state changed") for e in events)

    stack = cli.json("stack", "show", "s1")
    stack_id = stack["id"]
    assert UUID_RE.match(stack_id)
    # the environment file wins over --parameter (as in Heat); hidden values are masked
    assert stack["parameters"] == {
        "OS::stack_id": stack_id,
        "OS::project_id": "admin",
        "OS::stack_name": "s1",
        "p": "fromenv",
        "secret": "******",
    }
    outputs = {o["output_key"]: o for o in stack["outputs"]}
    assert outputs["o"] == {"output_key": "o", "description": "out o", "output_value": "fromenv"}
    assert outputs["ref"]["description"] == "No description given"
    assert outputs["ref"]["output_value"].startswith("s1-r-")
    assert stack["links"] == [{"href": cli.endpoint + "/stacks/s1/" + stack_id, "rel": "self"}]
    assert stack["tags"] == ["cq", "b"]
    assert (stack["disable_rollback"], stack["timeout_mins"], stack["parent"]) == (True, None, None)
    assert (stack["stack_owner"], stack["stack_user_project_id"]) == ("admin", "admin")
    assert (stack["capabilities"], stack["notification_topics"]) == ([], [])
    assert stack["deletion_time"] is None
    assert cli.value("stack", "show", stack_id, "-c", "stack_name") == "s1"
    assert cli.error("stack", "show", "nope") == "Stack not found: nope"

    assert cli.json("stack", "output", "list", "s1") == [
        {"output_key": "o", "description": "out o"},
        {"output_key": "ref", "description": "No description given"},
    ]
    assert cli.json("stack", "output", "show", "s1", "o") == outputs["o"]
    assert cli.json("stack", "output", "show", "s1", "--all") == outputs
    assert cli.error("stack", "output", "show", "s1", "nope") == (
        "Stack s1 or output nope not found."
    )

    template = cli.json("stack", "template", "show", "s1")
    assert template["heat_template_version"] == "2016-10-14"
    assert template["description"] == "demo"
    assert template["resources"]["r"] == {
        "type": "OS::Heat::TestResource",
        "properties": {"value": {"get_param": "p"}},
    }
    assert template["outputs"]["ref"] == {"value": {"get_resource": "r"}}

    assert cli.json("stack", "environment", "show", "s1") == {
        "parameters": {"p": "fromenv"},
        "resource_registry": {"resources": {}},
        "parameter_defaults": {},
    }
    env_url = "file://%s/env.yaml" % cli_dir
    files = cli.json("stack", "file", "list", "s1")
    assert files == {"files": {env_url: json.dumps({"parameters": {"p": "fromenv"}})}}


def test_create_errors(cli):
    """What the CLI prints for Heat's 400/409 answers to a bad create."""
    cli("stack", "create", "-t", "demo.yaml", "e1")
    assert cli.error("stack", "create", "-t", "demo.yaml", "e1") == (
        "ERROR: The Stack (e1) already exists."
    )
    assert cli.error("stack", "create", "-t", "demo.yaml", "1bad") == (
        'ERROR: Invalid stack name 1bad must contain only alphanumeric or "_-." characters, '
        "must start with alpha and must be 255 characters or less."
    )
    assert cli.error("stack", "create", "-t", "demo.yaml", "--parameter", "nope=1", "e2") == (
        "ERROR: The Parameter (nope) was not defined in template."
    )
    assert cli.error("stack", "create", "-t", "bad_type.yaml", "e2") == (
        "ERROR: The Resource Type (OS::Heat::Nope) could not be found."
    )
    assert cli.error("stack", "show", "e2") == "Stack not found: e2"


def test_output_error(cli, cli_hc):
    cli("stack", "create", "-t", "output_error.yaml", "oe1")
    _wait(cli_hc, "oe1", {"CREATE_COMPLETE"})
    assert cli.error("stack", "output", "show", "oe1", "listy") == (
        'Output error: "list_join" must operate on a list'
    )
    output = cli.json("stack", "output", "show", "oe1", "--all")["listy"]
    assert output == {
        "output_key": "listy",
        "description": "No description given",
        "output_error": '"list_join" must operate on a list',
        "output_value": None,
    }
    assert list(output) == ["output_key", "description", "output_error", "output_value"]
    assert cli.json("stack", "show", "oe1")["outputs"] == [output]


def test_list_sort_limit_marker_filters(cli, cli_hc):
    ids = {}
    for name in ("l1", "l2", "l3"):
        ids[name] = cli.value(
            "stack", "create", "-t", "demo.yaml", "--tags", "lst", name, "-c", "id"
        )  # fmt: skip
    for name in ids:
        _wait(cli_hc, name, {"CREATE_COMPLETE"})

    rows = cli.json("stack", "list", "--tags", "lst", "--sort", "stack_name:asc")
    assert [list(r) for r in rows] == [LIST_COLUMNS] * 3
    assert [(r["Stack Name"], r["ID"]) for r in rows] == [(n, ids[n]) for n in ("l1", "l2", "l3")]
    assert {(r["Project"], r["Stack Status"], r["Updated Time"]) for r in rows} == {
        ("admin", "CREATE_COMPLETE", None)
    }
    assert all(TIME_RE.match(r["Creation Time"]) for r in rows)

    def names(*args):
        return cli.value("stack", "list", "--tags", "lst", "-c", "Stack Name", *args).split()

    assert names("--sort", "stack_name:desc") == ["l3", "l2", "l1"]
    assert names() == ["l3", "l2", "l1"]  # default: newest first
    assert names("--limit", "2") == ["l3", "l2"]
    # as against Heat 27: the page is taken in the default order, then sorted by the client
    assert names("--sort", "stack_name:asc", "--limit", "2") == ["l2", "l3"]
    assert names("--marker", ids["l3"]) == ["l2", "l1"]
    # Heat 27 answers 500 to a filter with --tags (its tag join breaks filter_by)
    assert names("--property", "name=l2") == ["l2"]
    assert names("--property", "stack_status=CREATE_COMPLETE", "--sort", "stack_name") == [
        "l1",
        "l2",
        "l3",
    ]
    assert names("--property", "status=FAILED") == []
    assert names("--property", "stack_status=CREATE_FAILED") == []
    assert cli.value("stack", "list", "--tags", "nosuchtag") == ""
    # Heat's default policy denies stacks:global_index, which --long asks for
    assert cli.error("stack", "list", "--long") == (
        "ERROR: You are not authorized to use stacks:global_index."
    )

    cli("stack", "delete", "-y", "l3")
    _wait(cli_hc, ids["l3"], {"DELETE_COMPLETE"})
    assert names() == ["l2", "l1"]
    deleted = cli.json("stack", "list", "--deleted", "--property", "name=l3")
    assert [(r["Stack Name"], r["Stack Status"]) for r in deleted] == [("l3", "DELETE_COMPLETE")]
    assert TIME_RE.match(deleted[0]["Deletion Time"])


def test_update_variants(cli, cli_hc):
    cli("stack", "create", "-t", "demo.yaml", "--parameter", "p=a", "--tags", "keep", "u1")
    _wait(cli_hc, "u1", {"CREATE_COMPLETE"})

    # PATCH keeps template, tags and the other parameters; parameters the template does
    # not declare are dropped (a full update would refuse them)
    cli("stack", "update", "u1", "--existing", "--parameter", "p=b", "--parameter", "nope=1")
    _wait(cli_hc, "u1", {"UPDATE_COMPLETE"})
    assert cli.json("stack", "environment", "show", "u1")["parameters"] == {"p": "b"}
    shown = cli.json("stack", "show", "u1")
    assert shown["parameters"]["p"] == "b"
    assert shown["tags"] == ["keep"]
    assert shown["description"] == "demo"
    assert TIME_RE.match(shown["updated_time"])

    # a full update with a new template (-t) removes n; PUT without --tags drops the tags
    events, updated = cli.waited(
        "stack", "update", "u1", "-t", "demo2.yaml", "--parameter", "p=c", "--wait"
    )  # fmt: skip
    assert updated["stack_status"] == "UPDATE_COMPLETE"
    assert updated["description"] == "demo2"
    assert events[-1].endswith("[u1]: UPDATE_COMPLETE  Stack UPDATE completed successfully")
    assert any(e.endswith("[u1.n]: DELETE_COMPLETE  state changed") for e in events)
    assert any(e.endswith("[u1.r]: UPDATE_COMPLETE  state changed") for e in events)
    shown = cli.json("stack", "show", "u1")
    assert shown["outputs"] == [{"output_key": "o", "description": "No description given",
                                 "output_value": "c"}]  # fmt: skip
    assert shown["tags"] == []
    assert cli.value("stack", "resource", "list", "u1", "-c", "resource_name") == "r"

    # --rollback enabled is stored with the update
    cli("stack", "update", "u1", "--existing", "--parameter", "p=d", "--rollback", "enabled")
    _wait(cli_hc, "u1", {"UPDATE_COMPLETE"})
    shown = cli.json("stack", "show", "u1")
    assert shown["disable_rollback"] is False
    assert cli.error("stack", "update", "u1", "-t", "demo2.yaml", "--parameter", "nope=1") == (
        "ERROR: The Parameter (nope) was not defined in template."
    )
    assert shown["outputs"][0]["output_value"] == "d"


def test_update_dry_run(cli, cli_hc):
    cli("stack", "create", "-t", "demo.yaml", "--parameter", "p=a", "u2")
    _wait(cli_hc, "u2", {"CREATE_COMPLETE"})

    changes = cli.json("stack", "update", "u2", "--existing", "--parameter", "p=b", "--dry-run")
    assert sorted(changes) == ["added", "deleted", "replaced", "unchanged", "updated"]
    assert [r["resource_name"] for r in changes["updated"]] == ["r"]
    assert [r["resource_name"] for r in changes["unchanged"]] == ["n"]
    assert changes["added"] == changes["deleted"] == changes["replaced"] == []
    # updated: the current resource; unchanged: the new definition, not created yet
    current = changes["updated"][0]
    assert (current["resource_action"], current["resource_status"]) == ("CREATE", "COMPLETE")
    assert current["physical_resource_id"].startswith("u2-r-")
    assert current["attributes"] == {"output": "a"}
    assert current["required_by"] == ["n"]
    new = changes["unchanged"][0]
    assert (new["resource_action"], new["resource_status"]) == ("INIT", "COMPLETE")
    assert (new["physical_resource_id"], new["creation_time"]) == ("", None)
    assert new["resource_identity"]["path"] == "/resources/n"
    assert new["stack_identity"]["stack_name"] == "u2"

    changes = cli.json(
        "stack", "update", "u2", "-t", "demo2.yaml", "--parameter", "p=a", "--dry-run"
    )  # fmt: skip
    assert [r["resource_name"] for r in changes["deleted"]] == ["n"]
    assert [r["resource_name"] for r in changes["unchanged"]] == ["r"]
    changes = cli.json("stack", "update", "u2", "-t", "demo_changes.yaml", "--dry-run")
    # Heat's lists come from sets (any order): compared sorted
    assert {kind: sorted(r["resource_name"] for r in items) for kind, items in changes.items()} == {
        "added": ["extra"],
        "deleted": [],
        "replaced": ["n", "r"],
        "unchanged": [],
        "updated": [],
    }
    changes = cli.json(
        "stack", "update", "u2", "-t", "demo_none_props.yaml", "--parameter", "p=a", "--dry-run"
    )  # fmt: skip
    assert sorted(r["resource_name"] for r in changes["unchanged"]) == ["n", "r"]
    # nothing was changed by the previews
    assert cli.value("stack", "show", "u2", "-c", "stack_status") == "CREATE_COMPLETE"

    # and the update itself leaves the OS::Heat::None alone, as Heat does
    cli("stack", "update", "u2", "-t", "demo_none_props.yaml", "--parameter", "p=a")
    helpers.wait_for_status(cli_hc, "u2", {"UPDATE_COMPLETE"}, timeout=60)
    statuses = cli.value("stack", "event", "list", "u2", "--resource", "n", "-c", "resource_status")
    assert statuses.split() == ["CREATE_IN_PROGRESS", "CREATE_COMPLETE"]


def test_preview_create(cli):
    stack = cli.json("stack", "create", "--dry-run", "-t", "demo.yaml", "--parameter", "p=q", "pv")
    assert stack["id"] == "None"
    assert stack["stack_name"] == "pv"
    assert stack["description"] == "demo"
    assert stack["parameters"]["p"] == "q"
    assert stack["tags"] == []
    # nothing is created: get_attr has no value yet, get_resource gives the name (as Heat)
    assert stack["outputs"] == [
        {"output_key": "o", "description": "out o", "output_value": None},
        {"output_key": "ref", "description": "No description given", "output_value": "r"},
    ]
    resources = {r["resource_name"]: r for r in stack["resources"]}
    assert sorted(resources) == ["n", "r"]
    assert resources["r"]["resource_type"] == "OS::Heat::TestResource"
    assert (resources["r"]["resource_action"], resources["r"]["resource_status"]) == (
        "INIT",
        "COMPLETE",
    )
    assert resources["r"]["properties"]["value"] == "q"
    assert resources["r"]["required_by"] == ["n"]
    assert cli.error("stack", "show", "pv") == "Stack not found: pv"


def test_actions_check_suspend_resume_cancel(cli, cli_hc):
    cli("stack", "create", "-t", "demo.yaml", "a1")
    _wait(cli_hc, "a1", {"CREATE_COMPLETE"})

    def resource_states():
        return sorted(cli.lines("stack", "resource", "list", "a1", "-c", "resource_name",
                                "-c", "resource_status"))  # fmt: skip

    for command, action in (("check", "CHECK"), ("suspend", "SUSPEND"), ("resume", "RESUME")):
        (row,) = cli.json("stack", command, "a1")
        assert list(row) == ["ID", "Stack Name", "Stack Status", "Creation Time", "Updated Time"]
        assert row["Stack Name"] == "a1"
        assert row["Stack Status"] in {action + "_IN_PROGRESS", action + "_COMPLETE"}
        _wait(cli_hc, "a1", {action + "_COMPLETE"})
        assert resource_states() == [["n", action + "_COMPLETE"], ["r", action + "_COMPLETE"]]
        reason = cli.value("stack", "show", "a1", "-c", "stack_status_reason")
        assert reason.startswith("Stack %s completed successfully" % action)

    # the CLI refuses locally unless the stack is in progress
    assert cli.error("stack", "cancel", "a1") == (
        "Stack a1 with status 'resume_complete' not in cancelable state"
    )
    assert (
        cli.error("stack", "hook", "poll", "a1") == "Stack status RESUME_COMPLETE not IN_PROGRESS"
    )


def test_cancel_create_without_rollback(cli, cli_hc):
    cli("stack", "create", "-t", "slow.yaml", "c1")
    _wait(cli_hc, "c1", {"CREATE_IN_PROGRESS"})
    cli("stack", "cancel", "--no-rollback", "c1")
    _wait(cli_hc, "c1", {"CREATE_FAILED"})
    assert cli.value("stack", "show", "c1", "-c", "stack_status_reason") == (
        "Stack CREATE cancelled"
    )


def test_cancel_update_rolls_back(cli, cli_hc):
    cli("stack", "create", "-t", "slow_update.yaml", "c2")
    _wait(cli_hc, "c2", {"CREATE_COMPLETE"})
    cli("stack", "update", "c2", "--existing", "--parameter", "v=b",
        "--parameter", "update_wait=20")  # fmt: skip
    _wait(cli_hc, "c2", {"UPDATE_IN_PROGRESS"})
    (row,) = cli.json("stack", "cancel", "c2")
    assert (row["Stack Name"], row["Stack Status"]) == ("c2", "ROLLBACK_IN_PROGRESS")
    # the rollback of the resource waits for its update in flight (20 s) to end
    helpers.wait_for_status(cli_hc, "c2", {"ROLLBACK_COMPLETE"}, timeout=120)
    shown = cli.json("stack", "show", "c2")
    assert shown["stack_status_reason"] == "Stack ROLLBACK completed successfully"
    assert shown["outputs"][0]["output_value"] == "a"
    reasons = cli.lines("stack", "event", "list", "c2", "--resource", "c2",
                        "-c", "resource_status")  # fmt: skip
    assert reasons[-3:] == [["UPDATE_IN_PROGRESS"], ["ROLLBACK_IN_PROGRESS"],
                            ["ROLLBACK_COMPLETE"]]  # fmt: skip


def test_failures_list(cli, cli_hc):
    cli("stack", "create", "-t", "fail.yaml", "f1")
    _wait(cli_hc, "f1", {"CREATE_FAILED"})
    assert cli.value("stack", "show", "f1", "-c", "stack_status_reason") == (
        "Resource CREATE failed: ValueError: resources.bad: Test Resource failed bad"
    )
    assert cli("stack", "failures", "list", "f1").splitlines() == [
        "f1.bad:",
        "  resource_type: OS::Heat::TestResource",
        "  physical_resource_id: ",
        "  status: CREATE_FAILED",
        "  status_reason: |",
        "    ValueError: resources.bad: Test Resource failed bad",
    ]
    assert cli("stack", "failures", "list", "f1", "--long").startswith("f1.bad:")


def test_delete_wait_and_errors(cli, cli_hc):
    stack_id = cli.value("stack", "create", "-t", "slow_delete.yaml", "d1", "-c", "id")
    _wait(cli_hc, "d1", {"CREATE_COMPLETE"})
    out = cli("stack", "delete", "-y", "--wait", "d1")
    assert "[d1]: DELETE_IN_PROGRESS  Stack DELETE started" in out
    assert cli.error("stack", "show", "d1") == "Stack not found: d1"
    # soft-deleted: still found by id
    assert cli.lines(
        "stack", "show", stack_id, "-c", "stack_status", "-c", "stack_status_reason"
    ) == [
        ["DELETE_COMPLETE"],
        ["Stack", "DELETE", "completed", "successfully"],
    ]
    assert sorted(cli.error("stack", "delete", "-y", "nope").splitlines()) == [
        "Stack not found: nope",
        "Unable to delete 1 of the 1 stacks.",
    ]


def _physical_ids(cli, stack):
    rows = cli.lines("stack", "resource", "list", stack, "-c", "resource_name",
                     "-c", "physical_resource_id")  # fmt: skip
    return dict(rows)


def test_abandon_adopt(cli, cli_hc, cli_dir):
    cli("stack", "create", "-t", "demo.yaml", "--tags", "ab", "ab1")
    _wait(cli_hc, "ab1", {"CREATE_COMPLETE"})
    before = _physical_ids(cli, "ab1")

    cli("stack", "abandon", "ab1", "--output-file", "ab1.json")
    data = json.loads((cli_dir / "ab1.json").read_text())
    assert sorted(data) == [
        "action", "environment", "files", "id", "name", "project_id", "resources",
        "stack_user_project_id", "status", "tags", "template",
    ]  # fmt: skip
    assert (data["name"], data["action"], data["status"]) == ("ab1", "CREATE", "COMPLETE")
    assert data["tags"] == ["ab"]
    assert data["resources"]["r"]["resource_id"] == before["r"]
    assert data["resources"]["r"]["resource_data"] == {"value": "x"}
    assert data["resources"]["n"]["type"] == "OS::Heat::None"
    assert cli.error("stack", "show", "ab1") == "Stack not found: ab1"

    events, adopted = cli.waited("stack", "adopt", "--adopt-file", "ab1.json", "--wait", "ab2")
    assert adopted["stack_status"] == "ADOPT_COMPLETE"
    assert events[-1].endswith("[ab2]: ADOPT_COMPLETE  Stack ADOPT completed successfully")
    after = _physical_ids(cli, "ab2")
    assert after == before
    assert cli.json("stack", "output", "show", "ab2", "o")["output_value"] == "x"


def test_heatclient_python_api_fields(cli, cli_hc):
    """The same stacks read back through python-heatclient's Python API:
    docs/heat-api.md §5 shapes."""
    cli("stack", "create", "-t", "demo.yaml", "--tags", "py", "py1")
    _wait(cli_hc, "py1", {"CREATE_COMPLETE"})
    stack = cli_hc.stacks.get("py1")
    info = stack.to_dict()
    assert {
        "id", "stack_name", "description", "template_description", "stack_status",
        "stack_status_reason", "creation_time", "updated_time", "deletion_time",
        "disable_rollback", "timeout_mins", "stack_owner", "parent", "stack_user_project_id",
        "tags", "capabilities", "notification_topics", "parameters", "outputs", "links",
    } <= set(info)  # fmt: skip
    assert isinstance(info["parameters"], dict) and isinstance(info["outputs"], list)
    assert isinstance(info["disable_rollback"], bool)
    assert TIME_RE.match(info["creation_time"])
    assert info["links"][0]["href"] == "%s/stacks/py1/%s" % (cli.endpoint, stack.id)

    (item,) = [s for s in cli_hc.stacks.list(tags="py")]
    assert set(item.to_dict()) == {
        "id", "stack_name", "description", "stack_status", "stack_status_reason",
        "creation_time", "updated_time", "deletion_time", "stack_owner", "parent",
        "stack_user_project_id", "tags", "links", "project",
    }  # fmt: skip
    assert item.description == ""
    assert item.tags == ["py"]

    resources = {r.resource_name: r.to_dict() for r in cli_hc.resources.list("py1")}
    assert set(resources["r"]) == {
        "resource_name", "logical_resource_id", "physical_resource_id", "resource_type",
        "resource_status", "resource_status_reason", "creation_time", "updated_time",
        "required_by", "links",
    }  # fmt: skip
    assert [link["rel"] for link in resources["r"]["links"]] == ["self", "stack"]
    assert resources["r"]["links"][0]["href"].endswith("/stacks/py1/%s/resources/r" % stack.id)
    shown = cli_hc.resources.get("py1", "r").to_dict()
    assert shown["attributes"] == {"output": "x"}
    assert shown["description"] == ""

    events = [e.to_dict() for e in cli_hc.events.list("py1")]
    assert {"id", "event_time", "resource_name", "logical_resource_id", "physical_resource_id",
            "resource_status", "resource_status_reason", "links"} == set(events[0])  # fmt: skip
    assert all(TIME_RE.match(e["event_time"]) for e in events)
    rels = [link["rel"] for link in events[0]["links"]]
    assert rels == ["self", "resource", "stack"]
    (created,) = [e for e in events if e["resource_name"] == "r" and
                  e["resource_status"] == "CREATE_COMPLETE"]  # fmt: skip
    detail = cli_hc.events.get("py1", "r", created["id"]).to_dict()
    assert set(detail) == set(created) | {"resource_type", "resource_properties"}
    assert detail["resource_type"] == "OS::Heat::TestResource"
    # with nested_depth the server adds a root_stack link to every event
    nested = [e.to_dict() for e in cli_hc.events.list("py1", nested_depth=1)]
    assert {link["rel"] for link in nested[0]["links"]} == {"self", "resource", "stack",
                                                            "root_stack"}  # fmt: skip

    detailed = {
        r.resource_name: r.to_dict() for r in cli_hc.resources.list("py1", with_detail=True)
    }
    assert set(detailed["r"]) == set(resources["r"]) | {"description", "attributes"}
    assert detailed["r"]["attributes"] == {"output": "x"}
