"""``openstack stack resource ...`` and ``openstack stack event ...`` (the real CLI) against
real heat-lite processes: what each command prints, as the reference Heat 27 prints it
for the same templates.

Known difference kept: Heat lists resources in the database's physical row order (no
ORDER BY); heat-lite lists them in creation order, so the checks sort by name.
"""

import re
import time

import pytest

from tests.integration import cli_templates, helpers

pytestmark = pytest.mark.integration

TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")
UUID_RE = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


@pytest.fixture(scope="module")
def stacks(cli, cli_hc, cli_dir):
    """re1 (demo.yaml, p=y), nest1 (parent.yaml with a provider-template child), meta1."""
    cli_templates.write_all(cli_dir)
    cli("stack", "create", "-t", "demo.yaml", "--parameter", "p=y", "re1")
    cli("stack", "create", "-t", "parent.yaml", "nest1")
    cli("stack", "create", "-t", "meta.yaml", "meta1")
    ids = {}
    for name in ("re1", "nest1", "meta1"):
        ids[name] = helpers.wait_for_status(cli_hc, name, {"CREATE_COMPLETE"}, timeout=60).id
    return ids


def _by_name(rows, key="resource_name"):
    return {row[key]: row for row in rows}


def test_resource_list_long_filters(cli, stacks):
    rows = sorted(cli.json("stack", "resource", "list", "re1"), key=lambda r: r["resource_name"])
    assert [list(r) for r in rows] == [
        ["resource_name", "physical_resource_id", "resource_type", "resource_status",
         "updated_time"],
    ] * 2  # fmt: skip
    n, r = rows
    assert (n["resource_name"], n["resource_type"], n["resource_status"]) == (
        "n",
        "OS::Heat::None",
        "CREATE_COMPLETE",
    )
    assert UUID_RE.match(n["physical_resource_id"])
    assert (r["resource_name"], r["resource_type"]) == ("r", "OS::Heat::TestResource")
    assert re.match(r"^re1-r-[a-z0-9]{12}$", r["physical_resource_id"])
    assert TIME_RE.match(r["updated_time"])

    long_rows = cli.json("stack", "resource", "list", "re1", "--long")
    assert {row["stack_name"] for row in long_rows} == {"re1"}
    assert {row["resource_name"] for row in long_rows} == {"n", "r"}

    def names(*args):
        return sorted(cli.value("stack", "resource", "list", "re1", "-c", "resource_name",
                                *args).split())  # fmt: skip

    assert names("--filter", "name=r") == ["r"]
    assert names("--filter", "type=TestRes") == ["r"]  # a substring of the type
    assert names("--filter", "status=COMPLETE") == ["n", "r"]
    # <ACTION>_<STATUS> filters on both, as Heat's translate_filters
    assert names("--filter", "status=CREATE_COMPLETE") == ["n", "r"]
    assert names("--filter", "status=UPDATE_COMPLETE") == []
    assert names("--filter", "action=CREATE", "--filter", "name=n") == ["n"]
    assert names("--filter", "type=OS::Nova::Server") == []
    assert cli.error("stack", "resource", "list", "re1", "--filter", "bogus=x") == (
        "ERROR: Invalid filter parameters ['bogus']"
    )
    assert cli.error("stack", "resource", "list", "nope") == "Stack not found: nope"


def test_resource_list_nested_depth(cli, stacks):
    top = _by_name(cli.json("stack", "resource", "list", "nest1"))
    assert sorted(top) == ["kid", "top"]
    assert top["kid"]["resource_type"].startswith("file://")
    assert top["kid"]["resource_type"].endswith("/child.yaml")

    deep = _by_name(cli.json("stack", "resource", "list", "nest1", "--nested-depth", "1"))
    assert sorted(deep) == ["kid", "leaf", "top"]
    child_name = deep["leaf"]["stack_name"]
    assert re.match(r"^nest1-kid-[a-z0-9]{12}$", child_name)
    assert (deep["kid"]["stack_name"], deep["top"]["stack_name"]) == ("nest1", "nest1")
    assert deep["leaf"]["physical_resource_id"].startswith(child_name + "-leaf-")
    # the nested stack is the kid's physical resource
    assert deep["kid"]["physical_resource_id"] == cli.value(
        "stack", "show", child_name, "-c", "id"
    )  # fmt: skip
    assert cli.value("stack", "show", child_name, "-c", "parent") == stacks["nest1"]
    # stack list shows nested stacks only with --nested (and then a Parent column)
    assert child_name not in cli.value("stack", "list", "-c", "Stack Name").split()
    nested = {row["Stack Name"]: row for row in cli.json("stack", "list", "--nested")}
    assert list(nested[child_name])[-1] == "Parent"
    assert (nested[child_name]["Parent"], nested["nest1"]["Parent"]) == (stacks["nest1"], None)


def test_resource_show_metadata(cli, stacks):
    shown = cli.json("stack", "resource", "show", "re1", "r")
    stack_url = "%s/stacks/re1/%s" % (cli.endpoint, stacks["re1"])
    assert shown["links"] == [
        {"href": stack_url + "/resources/r", "rel": "self"},
        {"href": stack_url, "rel": "stack"},
    ]
    assert shown["attributes"] == {"output": "y"}
    assert (shown["resource_name"], shown["logical_resource_id"]) == ("r", "r")
    assert shown["resource_status"] == "CREATE_COMPLETE"
    assert shown["resource_status_reason"] == "state changed"
    assert shown["required_by"] == ["n"]
    assert shown["description"] == ""
    assert TIME_RE.match(shown["creation_time"]) and TIME_RE.match(shown["updated_time"])
    assert "metadata" not in shown
    with_attr = cli.json("stack", "resource", "show", "re1", "r", "--with-attr", "foo")
    assert with_attr["attributes"] == {"output": "y", "foo": None}
    assert cli.error("stack", "resource", "show", "re1", "nope") == (
        "Stack or resource not found: re1 nope"
    )

    kid = cli.json("stack", "resource", "show", "nest1", "kid")
    assert kid["attributes"] == {"out": "hello"}  # a provider template's outputs
    assert [link["rel"] for link in kid["links"]] == ["self", "stack", "nested"]
    assert re.search(r"/stacks/nest1-kid-[a-z0-9]{12}/%s$" % kid["physical_resource_id"],
                     kid["links"][2]["href"])  # fmt: skip

    assert cli.json("stack", "resource", "metadata", "meta1", "m") == {
        "role": "db",
        "ports": [1, 2],
    }
    assert cli.json("stack", "resource", "metadata", "re1", "r") == {}


def test_resource_signal_and_mark_unhealthy(cli, stacks):
    # OS::Heat::None and OS::Heat::TestResource have no signal handler: 400
    assert cli.error("stack", "resource", "signal", "re1", "n") == (
        "ERROR: signal is not supported for resource."
    )
    assert cli.error("stack", "resource", "signal", "re1", "r", "--data", '{"a": 1}') == (
        "ERROR: signal is not supported for resource."
    )

    def state():
        return cli.value("stack", "resource", "show", "re1", "r", "-c", "resource_status",
                         "-c", "resource_status_reason").splitlines()  # fmt: skip

    assert cli("stack", "resource", "mark", "unhealthy", "re1", "r", "gone bad") == ""
    assert state() == ["CHECK_FAILED", "gone bad"]
    cli("stack", "resource", "mark", "unhealthy", "--reset", "re1", "r")
    assert state() == ["CHECK_COMPLETE", "state changed by resource_mark_unhealthy api"]
    assert cli.error("stack", "resource", "mark", "unhealthy", "re1", "nope", "x") == (
        "Stack or resource not found: re1 nope"
    )
    statuses = cli.lines("stack", "event", "list", "re1", "--resource", "r",
                         "-c", "resource_status")  # fmt: skip
    assert statuses == [["CREATE_IN_PROGRESS"], ["CREATE_COMPLETE"], ["CHECK_FAILED"],
                        ["CHECK_COMPLETE"]]  # fmt: skip


def test_event_list_show(cli, stacks):
    events = cli.json("stack", "event", "list", "meta1")
    assert [list(e) for e in events] == [
        ["resource_name", "id", "resource_status", "resource_status_reason", "event_time",
         "physical_resource_id", "logical_resource_id"],
    ] * 4  # fmt: skip
    assert [(e["resource_name"], e["resource_status"], e["resource_status_reason"])
            for e in events] == [
        ("meta1", "CREATE_IN_PROGRESS", "Stack CREATE started"),
        ("m", "CREATE_IN_PROGRESS", "state changed"),
        ("m", "CREATE_COMPLETE", "state changed"),
        ("meta1", "CREATE_COMPLETE", "Stack CREATE completed successfully"),
    ]  # fmt: skip
    stack_events = [e for e in events if e["resource_name"] == "meta1"]
    assert {e["physical_resource_id"] for e in stack_events} == {stacks["meta1"]}
    # before a resource has a physical id its physical name stands in (as Heat)
    assert re.match(r"^meta1-m-[a-z0-9]{12}$", events[1]["physical_resource_id"])
    assert UUID_RE.match(events[2]["physical_resource_id"])
    assert all(TIME_RE.match(e["event_time"]) and UUID_RE.match(e["id"]) for e in events)

    def column(*args, col="resource_name"):
        return cli.value("stack", "event", "list", *args, "-c", col).split()

    assert column("meta1", "--sort", "resource_name:desc") == ["meta1", "meta1", "m", "m"]
    assert column("meta1", "--limit", "2", col="resource_status") == [
        "CREATE_IN_PROGRESS",
        "CREATE_IN_PROGRESS",
    ]
    assert column("meta1", "--resource", "m", col="resource_status") == [
        "CREATE_IN_PROGRESS",
        "CREATE_COMPLETE",
    ]
    assert cli.error("stack", "event", "list", "meta1", "--resource", "nope") == (
        "ERROR: No events found for resource nope"
    )

    event = cli.json("stack", "event", "show", "meta1", "m", events[2]["id"])
    stack_url = "%s/stacks/meta1/%s" % (cli.endpoint, stacks["meta1"])
    assert event["links"] == [
        {"href": "%s/resources/m/events/%s" % (stack_url, events[2]["id"]), "rel": "self"},
        {"href": stack_url + "/resources/m", "rel": "resource"},
        {"href": stack_url, "rel": "stack"},
    ]
    assert event["resource_type"] == "OS::Heat::None"
    assert (event["resource_status"], event["logical_resource_id"]) == ("CREATE_COMPLETE", "m")
    assert cli.error("stack", "event", "show", "meta1", "m", "nope") == "ERROR: No event nope found"
    assert event["resource_properties"] == {}
    # the properties the resource was created with (as Heat 27 prints them)
    (done,) = [
        e for e in cli.json("stack", "event", "list", "re1", "--resource", "r")
        if e["resource_status"] == "CREATE_COMPLETE"
    ]  # fmt: skip
    shown = cli.json("stack", "event", "show", "re1", "r", done["id"])
    assert shown["resource_properties"] == {"value": "y"}


def test_event_list_nested_depth(cli, stacks):
    columns = ("-c", "resource_name", "-c", "resource_status", "-c", "stack_name")
    rows = cli.lines("stack", "event", "list", "nest1", "--nested-depth", "1", *columns)
    child = cli.value("stack", "resource", "show", "nest1", "kid", "-c", "physical_resource_id")
    child_name = cli.value("stack", "show", child, "-c", "stack_name")
    assert sorted(map(tuple, rows)) == sorted([
        ("nest1", "CREATE_IN_PROGRESS", "nest1"),
        ("kid", "CREATE_IN_PROGRESS", "nest1"),
        ("top", "CREATE_IN_PROGRESS", "nest1"),
        ("top", "CREATE_COMPLETE", "nest1"),
        ("kid", "CREATE_COMPLETE", "nest1"),
        ("nest1", "CREATE_COMPLETE", "nest1"),
        (child_name, "CREATE_IN_PROGRESS", child_name),
        ("leaf", "CREATE_IN_PROGRESS", child_name),
        ("leaf", "CREATE_COMPLETE", child_name),
        (child_name, "CREATE_COMPLETE", child_name),
    ])  # fmt: skip
    # the server merges them in time order: the child's come between kid's IN_PROGRESS
    # and COMPLETE (each event links its root stack, so the client does not walk itself)
    assert rows.index(["kid", "CREATE_IN_PROGRESS", "nest1"]) < rows.index(
        ["leaf", "CREATE_COMPLETE", child_name]
    )
    assert rows.index(["leaf", "CREATE_COMPLETE", child_name]) < rows.index(
        ["kid", "CREATE_COMPLETE", "nest1"]
    )
    assert rows[-1] == ["nest1", "CREATE_COMPLETE", "nest1"]


def test_hook_poll_and_clear(cli, cli_hc, stacks):
    cli("stack", "create", "-t", "demo.yaml", "-e", "hook_env.yaml", "hk1")
    deadline = time.monotonic() + 60
    reason = "CREATE paused until Hook pre-create is cleared"
    while not any(e.resource_status_reason == reason for e in cli_hc.events.list("hk1")):
        assert time.monotonic() < deadline, "the hook never paused r"
        time.sleep(0.1)

    (paused,) = cli.json("stack", "hook", "poll", "hk1")
    assert list(paused) == [
        "Resource Name", "ID", "Resource Status Reason", "Resource Status", "Event Time",
    ]  # fmt: skip
    assert (paused["Resource Name"], paused["Resource Status"]) == ("r", "INIT_COMPLETE")
    assert paused["Resource Status Reason"] == reason
    assert cli.value("stack", "show", "hk1", "-c", "stack_status") == "CREATE_IN_PROGRESS"

    assert cli("stack", "hook", "clear", "hk1", "r", "--pre-create") == ""
    helpers.wait_for_status(cli_hc, "hk1", {"CREATE_COMPLETE"}, timeout=60)
    rows = cli.lines("stack", "event", "list", "hk1", "--resource", "r", "-c", "resource_status")
    assert rows == [["INIT_COMPLETE"]] * 2 + [["CREATE_IN_PROGRESS"], ["CREATE_COMPLETE"]]
    assert cli.error("stack", "hook", "poll", "hk1") == (
        "Stack status CREATE_COMPLETE not IN_PROGRESS"
    )
