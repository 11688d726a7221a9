"""``openstack stack create --pre-create``, ``stack hook poll`` and ``stack hook clear``
(the real CLI) against real heat-lite processes: the output the reference Heat 27 gives.
"""

import time

import pytest
import yaml

from tests.integration import helpers

pytestmark = pytest.mark.integration

CHAIN = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "a": {"type": "OS::Heat::None"},
        "b": {"type": "OS::Heat::None", "depends_on": "a"},
    },
}
PAUSED = "CREATE paused until Hook pre-create is cleared"


def _poll(cli, stack, until, timeout=30, nested=False):
    deadline = time.monotonic() + timeout
    args = ("--nested-depth", "2") if nested else ()
    while True:
        rows = cli.json("stack", "hook", "poll", stack, *args)
        if until(rows) or time.monotonic() > deadline:
            return rows
        time.sleep(0.2)


def test_pre_create_hook_poll_and_clear(cli, cli_hc, cli_dir):
    (cli_dir / "chain.yaml").write_text(yaml.safe_dump(CHAIN))
    cli("stack", "create", "-t", "chain.yaml", "--pre-create", "a", "hk1")
    rows = _poll(cli, "hk1", lambda rows: rows)
    assert [(r["Resource Name"], r["Resource Status"], r["Resource Status Reason"])
            for r in rows] == [("a", "INIT_COMPLETE", PAUSED)]  # fmt: skip
    resources = {r["resource_name"]: r["resource_status"]
                 for r in cli.json("stack", "resource", "list", "hk1")}  # fmt: skip
    assert resources == {"a": "INIT_COMPLETE", "b": "INIT_COMPLETE"}

    error = cli.error("stack", "hook", "clear", "hk1", "a", "--pre-update")
    assert 'ERROR: The "pre-update" hook is not defined on NoneResource "a" Stack "hk1"' in error

    cli("stack", "hook", "clear", "hk1", "a")  # no option: Heat clears the pre-create hook
    stack = helpers.wait_for_status(cli_hc, "hk1", {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack.stack_status == "CREATE_COMPLETE"
    events = cli.json("stack", "event", "list", "hk1")
    reasons = [e["resource_status_reason"] for e in events if e["resource_name"] == "a"]
    assert reasons[:2] == [PAUSED, "Hook pre-create is cleared"]
    error = cli.error("stack", "hook", "poll", "hk1")
    assert "Stack status CREATE_COMPLETE not IN_PROGRESS" in error


def test_nested_hook_poll_and_clear(cli, cli_hc, cli_dir):
    (cli_dir / "inner.yaml").write_text(yaml.safe_dump(CHAIN))
    parent = {
        "heat_template_version": "2018-08-31",
        "resources": {"nest": {"type": "inner.yaml"}},
    }
    (cli_dir / "outer.yaml").write_text(yaml.safe_dump(parent))
    cli("stack", "create", "-t", "outer.yaml", "--pre-create", "nest/b", "hk2")
    rows = _poll(cli, "hk2", lambda rows: rows, nested=True)
    assert [(r["Resource Name"], r["Resource Status Reason"]) for r in rows] == [("b", PAUSED)]
    assert rows[0]["Stack Name"].startswith("hk2-nest-")
    cli("stack", "hook", "clear", "hk2", "nest/b")
    stack = helpers.wait_for_status(cli_hc, "hk2", {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack.stack_status == "CREATE_COMPLETE"
