"""Every delete path and the check-then-insert races, on real processes (api, engine, two
workers) over PostgreSQL and RabbitMQ.

Each delete ends DELETE_COMPLETE, the stack is gone from the list, its name is free
again, and no row is left: right after the delete none in the tables a live stack owns;
after ``heat-lite-manage purge_deleted 0 --granularity seconds``, none in any table
(the service rows of the running engines aside).

Parallel clients: 20 creates of one name give 1 stack and Heat's 409 StackExists; with
max_stacks_per_tenant = 3, 20 creates give 3 stacks and Heat's 400; two ResourceGroups of
600 cannot both complete under max_resources_per_stack = 1000.

(magnum-lite's races, a cluster's delete or its template's against its create, are in
test_cluster_faults.py.)
"""

import concurrent.futures
import subprocess
import time

import pytest
import requests
import sqlalchemy as sa
import yaml

from heat_lite.db import models
from tests.fixtures import services
from tests.integration import helpers

pytestmark = pytest.mark.integration

HOT = "2018-08-31"
MAX_STACKS = 3
# the tables a live stack owns rows in: empty as soon as a delete completes
OWNED = [
    "resource",
    "resource_data",
    "sync_point",
    "snapshot",
    "stack_lock",
    "user_creds",
    "software_deployment",
    "software_config",
]


@pytest.fixture(scope="module")
def heat(backends, tmp_path_factory):
    db_url, transport_url = backends
    procs = services.HeatProcesses(
        tmp_path_factory.mktemp("heat"),
        db_url,
        transport_url,
        workers=2,
        defaults={"max_stacks_per_tenant": MAX_STACKS},
    )
    procs.start()
    try:
        yield procs
    finally:
        procs.stop()


@pytest.fixture(scope="module")
def database(heat):
    engine = sa.create_engine(heat.database_url)
    yield engine
    engine.dispose()


def _counts(database, tables=None):
    """{table: rows} of the tables (default every table but service) that have rows."""
    names = tables or [t.name for t in models.Base.metadata.sorted_tables if t.name != "service"]
    with database.connect() as conn:
        counts = {n: conn.execute(sa.text("SELECT count(*) FROM %s" % n)).scalar() for n in names}
    return {name: n for name, n in counts.items() if n}


def _settle(database, expected=None, timeout=10):
    """Wait for the rows of the tables a live stack owns to be ``expected`` (default:
    none). The worker that writes DELETE_COMPLETE (and takes the stack off the lists)
    removes them in the same call, right after."""
    deadline = time.monotonic() + timeout
    while _counts(database, OWNED) != (expected or {}):
        assert time.monotonic() < deadline, _counts(database, OWNED)
        time.sleep(0.05)


def _purge_deleted(heat):
    proc = subprocess.run(
        [services.script("heat-lite-manage"), "--config-file", str(heat.conf)]
        + ["purge_deleted", "0", "--granularity", "seconds"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    return proc.stdout


def _delete_and_check(hc, heat, database, stack_id, name):
    hc.stacks.delete(stack_id)
    stack = helpers.wait_for_status(hc, stack_id, {"DELETE_COMPLETE", "DELETE_FAILED"})
    assert stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
    # gone from the list the moment DELETE_COMPLETE can be seen
    assert name not in [s.stack_name for s in hc.stacks.list()]
    _settle(database)
    assert heat.cloud.objects() == {}
    assert "Purged" in _purge_deleted(heat)
    assert _counts(database) == {}


def _create(hc, name, template, files=None, statuses=("CREATE_COMPLETE",)):
    created = hc.stacks.create(stack_name=name, template=template, files=files or {})
    stack_id = created["stack"]["id"]
    stack = helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack.stack_status in statuses, stack.stack_status_reason
    return stack


MEMBER = {
    "heat_template_version": HOT,
    "parameters": {"index": {"type": "number", "default": 0}},
    "resources": {"leaf": {"type": "OS::Heat::TestResource", "properties": {"value": "x"}}},
    "outputs": {"out": {"value": {"get_attr": ["leaf", "output"]}}},
}

DELETE_PATHS = {
    # the issue's reproduction: nested stacks through a group
    "resource_group": (
        {
            "a": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": 2, "resource_def": {"type": "OS::Heat::None"}},
            }
        },
        None,
    ),
    "provider_templates": (
        {
            "g": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": 2, "resource_def": {"type": "member.yaml"}},
            },
            "one": {"type": "member.yaml"},
        },
        {"member.yaml": yaml.safe_dump(MEMBER)},
    ),
    "os_heat_stack": (
        {
            "st": {
                "type": "OS::Heat::Stack",
                "properties": {
                    "template": yaml.safe_dump(
                        {
                            "heat_template_version": HOT,
                            "resources": {
                                "inner": {
                                    "type": "OS::Heat::ResourceGroup",
                                    "properties": {
                                        "count": 1,
                                        "resource_def": {"type": "OS::Heat::None"},
                                    },
                                }
                            },
                        }
                    )
                },
            }
        },
        None,
    ),
    "software_deployment": (
        {
            "server": {
                "type": "OS::Nova::Server",
                "properties": {"image": "fedora-coreos-40", "flavor": "m1.small"},
            },
            "cfg": {
                "type": "OS::Heat::SoftwareConfig",
                "properties": {"group": "script", "config": "#!/bin/sh\necho hi"},
            },
            "dep": {
                "type": "OS::Heat::SoftwareDeployment",
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "server": {"get_resource": "server"},
                    "signal_transport": "NO_SIGNAL",
                },
            },
        },
        None,
    ),
}


@pytest.mark.parametrize("path", sorted(DELETE_PATHS))
def test_delete_leaves_nothing(hc, heat, database, path):
    resources, files = DELETE_PATHS[path]
    template = {"heat_template_version": HOT, "resources": resources}
    name = "del-" + path.replace("_", "-")
    stack = _create(hc, name, template, files)
    events = hc.events.list(stack.id, nested_depth=2)
    assert len(events) >= 4
    _delete_and_check(hc, heat, database, stack.id, name)
    # the name is free again (it was taken for ever when the nested delete failed)
    again = _create(hc, name, template, files)
    _delete_and_check(hc, heat, database, again.id, name)


def _updated(value, count):
    return {
        "heat_template_version": HOT,
        "resources": {
            "t": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": value, "update_replace": value != "v1"},
            },
            "g": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": count, "resource_def": {"type": "OS::Heat::None"}},
            },
        },
    }


def test_delete_after_updates_and_a_rollback_leaves_nothing(hc, heat, database):
    stack = _create(hc, "del-updated", _updated("v1", 2))
    hc.stacks.update(stack.id, template=_updated("v2", 3))
    done = helpers.wait_for_status(hc, stack.id, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert done.stack_status == "UPDATE_COMPLETE", done.stack_status_reason
    failing = _updated("v3", 1)
    failing["resources"]["t"]["properties"]["fail"] = True
    hc.stacks.update(stack.id, template=failing, disable_rollback=False)
    done = helpers.wait_for_status(hc, stack.id, {"ROLLBACK_COMPLETE", "ROLLBACK_FAILED"})
    assert done.stack_status == "ROLLBACK_COMPLETE", done.stack_status_reason
    _delete_and_check(hc, heat, database, stack.id, "del-updated")


def test_delete_with_snapshots_leaves_nothing(hc, heat, database):
    template = {
        "heat_template_version": HOT,
        "resources": DELETE_PATHS["resource_group"][0],
    }
    stack = _create(hc, "del-snapshots", template)
    for name in ("s1", "s2"):
        snap = hc.stacks.snapshot(stack.id, name)
        deadline = time.monotonic() + 60
        while hc.stacks.snapshot_show(stack.id, snap["id"])["snapshot"]["status"] != "COMPLETE":
            assert time.monotonic() < deadline
            time.sleep(0.1)
        helpers.wait_for_status(hc, stack.id, {"SNAPSHOT_COMPLETE"})
    assert len(hc.stacks.snapshot_list(stack.id)["snapshots"]) == 2
    _delete_and_check(hc, heat, database, stack.id, "del-snapshots")


# -- parallel clients --------------------------------------------------------------------


class ProjectClient:
    """A member of ``project`` (noauth identity headers) on the REST API."""

    def __init__(self, heat, project):
        self.url = heat.endpoint.replace("/v1/admin", "/v1/%s" % project) + "/stacks"
        self.headers = {"X-Project-Id": project, "X-Roles": "member", "X-User-Id": "u1"}

    def create(self, body):
        return requests.post(self.url, json=body, headers=self.headers, timeout=120)

    def create_in_parallel(self, bodies):
        with concurrent.futures.ThreadPoolExecutor(len(bodies)) as pool:
            return list(pool.map(self.create, bodies))

    def list(self):
        answer = requests.get(self.url, headers=self.headers, timeout=30)
        assert answer.status_code == 200, answer.text
        return answer.json()["stacks"]

    def delete_all(self):
        """Delete every stack of the project; each one must end DELETE_COMPLETE."""
        for stack in self.list():
            url = "%s/%s/%s" % (self.url, stack["stack_name"], stack["id"])
            assert requests.delete(url, headers=self.headers, timeout=30).status_code == 204
            deadline = time.monotonic() + 120
            while True:
                shown = requests.get(url, headers=self.headers, timeout=30).json()["stack"]
                if shown["stack_status"] in ("DELETE_COMPLETE", "DELETE_FAILED"):
                    break
                assert time.monotonic() < deadline, shown["stack_status"]
                time.sleep(0.05)
            assert shown["stack_status"] == "DELETE_COMPLETE", shown["stack_status_reason"]
            assert stack["stack_name"] not in [s["stack_name"] for s in self.list()]


def _none_template(count=1):
    return {
        "heat_template_version": HOT,
        "resources": {"r%d" % i: {"type": "OS::Heat::None"} for i in range(count)},
    }


def test_parallel_creates_of_one_name_give_one_stack(heat, database):
    body = {"stack_name": "same", "template": _none_template()}
    project = ProjectClient(heat, "p-name")
    answers = project.create_in_parallel([body] * 20)
    statuses = sorted(a.status_code for a in answers)
    assert statuses == [201] + [409] * 19
    for answer in answers:
        if answer.status_code == 409:
            error = answer.json()["error"]
            assert (error["type"], error["message"]) == (
                "StackExists",
                "The Stack (same) already exists.",
            )
    assert [s["stack_name"] for s in project.list()] == ["same"]
    project.delete_all()
    _settle(database)
    _purge_deleted(heat)
    assert _counts(database) == {}


def test_parallel_creates_respect_max_stacks_per_tenant(heat, database):
    bodies = [{"stack_name": "s%d" % i, "template": _none_template()} for i in range(20)]
    project = ProjectClient(heat, "p-limit")
    answers = project.create_in_parallel(bodies)
    assert sorted(a.status_code for a in answers) == [201] * MAX_STACKS + [400] * 17
    for answer in answers:
        if answer.status_code == 400:
            error = answer.json()["error"]
            assert error["type"] == "RequestLimitExceeded"
            assert error["message"] == (
                "Request limit exceeded: You have reached the maximum stacks per tenant, "
                "%d. Please delete some stacks." % MAX_STACKS
            )
    assert len(project.list()) == MAX_STACKS
    project.delete_all()
    _settle(database)
    _purge_deleted(heat)
    assert _counts(database) == {}


def test_two_groups_of_600_cannot_both_complete(hc, heat, database):
    group = {
        "type": "OS::Heat::ResourceGroup",
        "properties": {"count": 600, "resource_def": {"type": "OS::Heat::None"}},
    }
    template = {"heat_template_version": HOT, "resources": {"g1": group, "g2": group}}
    stack = _create(hc, "two-groups", template, statuses=("CREATE_FAILED",))
    assert "Maximum resources per stack exceeded." in stack.stack_status_reason
    with database.connect() as conn:
        rows = conn.execute(sa.text("SELECT count(*) FROM resource")).scalar()
    assert rows <= 1000
    _delete_and_check(hc, heat, database, stack.id, "two-groups")


def test_purge_deleted_leaves_live_stacks_intact(hc, heat, database):
    template = {"heat_template_version": HOT, "resources": DELETE_PATHS["resource_group"][0]}
    live = _create(hc, "purge-live", template)
    before = hc.resources.list(live.id, nested_depth=2)
    live_rows = _counts(database)
    live_owned = _counts(database, OWNED)
    gone = _create(hc, "purge-gone", template)
    hc.stacks.delete(gone.id)
    helpers.wait_for_status(hc, gone.id, {"DELETE_COMPLETE"})
    assert "purge-gone" not in [s.stack_name for s in hc.stacks.list()]
    _settle(database, live_owned)
    assert "Purged 2 deleted stacks." in _purge_deleted(heat)  # the root and its group
    # every table holds exactly what it held with only the live tree in it
    assert _counts(database) == live_rows
    after = hc.resources.list(live.id, nested_depth=2)
    assert sorted((r.resource_name, r.resource_status) for r in after) == sorted(
        (r.resource_name, r.resource_status) for r in before
    )
    assert hc.stacks.get(live.id).stack_status == "CREATE_COMPLETE"
    _delete_and_check(hc, heat, database, live.id, "purge-live")
