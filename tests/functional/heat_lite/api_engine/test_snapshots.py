"""Stack snapshots through the API and the real engine, with webtest (docs/heat-api.md
§4.1, §5.8; docs/rpc-and-convergence.md §4.17): the SNAPSHOT traversal and its events,
the snapshot's shape and data, errors with Heat's bodies, project isolation, and a
restore that brings an earlier template's resources, data and outputs back after an
update (RESTORE traversal).
"""

import re
import time

import pytest

from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.db import snapshots as db_snapshots
from tests.functional.heat_lite.api_engine.helpers import create_stack, wait_stack

pytestmark = pytest.mark.functional

P = "/v1/admin"
TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "resources": {
        "rand": {"type": "OS::Heat::RandomString", "properties": {"length": 12}},
        "v": {"type": "OS::Heat::Value", "properties": {"value": "one"}},
    },
    "outputs": {
        "o": {"value": {"get_attr": ["v", "value"]}},
        "secret": {"value": {"get_attr": ["rand", "value"]}},
    },
}
TEMPLATE2 = {
    "heat_template_version": "2016-10-14",
    "resources": {
        "v": {"type": "OS::Heat::Value", "properties": {"value": "two"}},
        "w": {"type": "OS::Heat::Value", "properties": {"value": "extra"}},
    },
    "outputs": {"o": {"value": {"get_attr": ["v", "value"]}}},
}
ERROR_400 = (
    "The server could not comply with the request since it is either malformed or "
    "otherwise incorrect."
)
ACCEPTED = "202 Accepted\n\nThe request is accepted for processing.\n\n   "
MEMBER = {"X-User-Id": "u-p9", "X-Project-Id": "p9", "X-Roles": "member,reader"}
TIME_RE = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$")


def _error(resp):
    return resp.json["error"]["type"], resp.json["error"]["message"]


def _outputs(stack):
    return {o["output_key"]: o["output_value"] for o in stack["outputs"]}


def _wait_snapshot(api, url, snapshot_id, headers=None, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        snap = api.get("%s/snapshots/%s" % (url, snapshot_id), headers=headers).json["snapshot"]
        if snap["status"] != "IN_PROGRESS":
            return snap
        time.sleep(0.05)
    raise AssertionError("snapshot %s still IN_PROGRESS" % snapshot_id)


def _create_in(api, project, headers, body):
    """create_stack for a caller of another project."""
    url = api.post_json("/v1/%s/stacks" % project, body, headers=headers).location
    stack = wait_stack(api, url, "CREATE_IN_PROGRESS", headers=headers)
    assert stack["stack_status"] == "CREATE_COMPLETE", stack["stack_status_reason"]
    return url


def _stack_events(api, url):
    events = api.get(url + "/events?sort_dir=asc").json["events"]
    return [(e["resource_name"], e["resource_status"], e["resource_status_reason"]) for e in events]


def test_snapshot_create_show_list(api):
    url = create_stack(api, {"stack_name": "snap1", "template": TEMPLATE})
    stack_id = url.rsplit("/", 1)[1]
    created = api.post_json(url + "/snapshots", {"name": "first"}, status=200).json
    assert set(created) == {
        "id",
        "name",
        "action",
        "status",
        "status_reason",
        "data",
        "creation_time",
    }
    assert created["name"] == "first"
    assert (created["action"], created["status"], created["status_reason"]) == (
        "CREATE",
        "IN_PROGRESS",
        None,
    )
    assert TIME_RE.match(created["creation_time"])
    # while in progress: the stack's data without its resources (Heat's no_resources)
    assert created["data"]["resources"] == {}
    assert created["data"]["template"] == TEMPLATE
    assert (created["data"]["action"], created["data"]["status"]) == ("CREATE", "COMPLETE")

    snap = _wait_snapshot(api, url, created["id"])
    assert (snap["action"], snap["status"]) == ("CREATE", "COMPLETE")
    assert snap["status_reason"] == "Stack SNAPSHOT completed successfully"
    assert snap["creation_time"] == created["creation_time"]
    data = snap["data"]
    assert list(data) == [
        "name",
        "id",
        "action",
        "environment",
        "files",
        "status",
        "template",
        "resources",
        "project_id",
        "stack_user_project_id",
        "tags",
    ]
    assert (data["name"], data["id"], data["project_id"]) == ("snap1", stack_id, "admin")
    assert (data["action"], data["status"], data["tags"]) == ("SNAPSHOT", "COMPLETE", [])
    assert data["template"] == TEMPLATE
    rand = data["resources"]["rand"]
    assert (rand["type"], rand["action"], rand["status"]) == (
        "OS::Heat::RandomString",
        "SNAPSHOT",
        "COMPLETE",
    )
    stack = api.get(url).json["stack"]
    assert rand["resource_data"] == {"value": _outputs(stack)["secret"]}
    assert data["resources"]["v"]["resource_data"] == {}

    assert stack["stack_status"] == "SNAPSHOT_COMPLETE"
    assert stack["stack_status_reason"] == "Stack SNAPSHOT completed successfully"
    events = _stack_events(api, url)[-6:]
    assert events[0] == ("snap1", "SNAPSHOT_IN_PROGRESS", "Stack SNAPSHOT started")
    assert events[-1] == ("snap1", "SNAPSHOT_COMPLETE", "Stack SNAPSHOT completed successfully")
    # the two resources are independent: their events may interleave
    assert sorted(events[1:-1]) == [
        ("rand", "SNAPSHOT_COMPLETE", "state changed"),
        ("rand", "SNAPSHOT_IN_PROGRESS", "state changed"),
        ("v", "SNAPSHOT_COMPLETE", "state changed"),
        ("v", "SNAPSHOT_IN_PROGRESS", "state changed"),
    ]
    resources = api.get(url + "/resources").json["resources"]
    assert {r["resource_status"] for r in resources} == {"SNAPSHOT_COMPLETE"}

    # an unnamed one; the list is oldest first and carries the data too
    unnamed = api.post_json(url + "/snapshots", {}, status=200).json
    assert unnamed["name"] is None
    _wait_snapshot(api, url, unnamed["id"])
    listed = api.get(url + "/snapshots").json["snapshots"]
    assert [s["id"] for s in listed] == [created["id"], unnamed["id"]]
    assert listed[0] == snap


def test_snapshot_errors(api):
    url = create_stack(api, {"stack_name": "snap2", "template": TEMPLATE})
    # no body, a body that is not an object, a name that is not a string
    resp = api.post(url + "/snapshots", status=400)
    assert _error(resp) == ("HTTPBadRequest", ERROR_400)
    resp = api.post(url + "/snapshots", "[1]", content_type="application/json", status=400)
    assert _error(resp) == ("HTTPBadRequest", ERROR_400)
    resp = api.post_json(url + "/snapshots", {"name": {"a": 1}}, status=400)
    assert _error(resp) == ("HTTPBadRequest", ERROR_400)
    # unknown snapshot ids
    for method, suffix in (("GET", ""), ("DELETE", ""), ("POST", "/restore")):
        resp = api.request(url + "/snapshots/nope" + suffix, method=method, expect_errors=True)
        assert resp.status_int == 404
        assert _error(resp) == ("NotFound", "Snapshot with id nope not found")
    # another stack's snapshot
    other = create_stack(api, {"stack_name": "snap2b", "template": TEMPLATE2})
    sid = api.post_json(other + "/snapshots", {"name": "x"}).json["id"]
    _wait_snapshot(api, other, sid)
    resp = api.get("%s/snapshots/%s" % (url, sid), status=404)
    assert _error(resp) == (
        "SnapshotNotFound",
        "The Snapshot (%s) for Stack (snap2) could not be found." % sid,
    )
    # the stack URL must be the full one (clients resolve the name first), as Heat
    assert api.get(P + "/stacks/snap2/snapshots", status=404).json["error"]["type"] == (
        "EntityNotFound"
    )
    api.post_json(P + "/stacks/snap2/snapshots", {}, status=405)
    api.put_json(url + "/snapshots", {}, status=405)
    api.get(url + "/snapshots/%s/restore" % sid, status=405)


def test_snapshot_while_in_progress_and_incomplete_snapshot(api):
    url = create_stack(api, {"stack_name": "snap3", "template": TEMPLATE2})
    stack_id = url.rsplit("/", 1)[1]
    # a snapshot still being taken (its row as stack_snapshot stores it): no delete, no
    # restore
    sid = db_snapshots.snapshot_create(
        {"stack_id": stack_id, "name": "busy", "tenant": "admin", "status": "IN_PROGRESS"}
    ).id
    resp = api.delete("%s/snapshots/%s" % (url, sid), status=400)
    assert _error(resp) == ("NotSupported", "Deleting in-progress snapshot is not supported.")
    resp = api.post("%s/snapshots/%s/restore" % (url, sid), status=400)
    assert _error(resp) == ("NotSupported", "Restoring incomplete snapshot is not supported.")
    db_snapshots.snapshot_update(sid, {"status": "FAILED", "status_reason": "broken"})
    resp = api.post("%s/snapshots/%s/restore" % (url, sid), status=400)
    assert _error(resp) == ("NotSupported", "Restoring incomplete snapshot is not supported.")
    # a failed one can be deleted: 204, then it is gone
    resp = api.delete("%s/snapshots/%s" % (url, sid), status=204)
    assert resp.body == b""
    api.get("%s/snapshots/%s" % (url, sid), status=404)
    assert api.get(url + "/snapshots").json["snapshots"] == []
    # no snapshot of a stack that is IN_PROGRESS
    slow = {
        "heat_template_version": "2016-10-14",
        "resources": {"t": {"type": "OS::Heat::TestResource", "properties": {"wait_secs": 0.5}}},
    }
    api.put_json(url, {"template": slow}, status=202)
    resp = api.post_json(url + "/snapshots", {}, status=409)
    assert _error(resp) == (
        "ActionInProgress",
        "Stack snap3 already has an action (UPDATE) in progress.",
    )
    assert wait_stack(api, url, "UPDATE_IN_PROGRESS")["stack_status"] == "UPDATE_COMPLETE"


def test_max_snapshots_per_stack(api):
    url = _create_in(api, "p9", MEMBER, {"stack_name": "snap4", "template": TEMPLATE2})
    CONF.set_override("max_snapshots_per_stack", 1)
    try:
        sid = api.post_json(url + "/snapshots", {}, headers=MEMBER).json["id"]
        _wait_snapshot(api, url, sid, headers=MEMBER)
        resp = api.post_json(url + "/snapshots", {}, headers=MEMBER, status=400)
        assert _error(resp) == (
            "RequestLimitExceeded",
            "Request limit exceeded: You have reached the maximum snapshots per stack, 1. "
            "Please delete some snapshots.",
        )
        # an admin is not limited
        admin_sid = api.post_json(url.replace("/p9/", "/admin/") + "/snapshots", {}).json
        assert admin_sid["status"] == "IN_PROGRESS"
    finally:
        CONF.clear_override("max_snapshots_per_stack")


def test_snapshots_of_another_project(api):
    url = _create_in(api, "p9", MEMBER, {"stack_name": "snap5", "template": TEMPLATE2})
    sid = api.post_json(url + "/snapshots", {"name": "mine"}, headers=MEMBER).json["id"]
    _wait_snapshot(api, url, sid, headers=MEMBER)
    other = {"X-User-Id": "u-p8", "X-Project-Id": "p8", "X-Roles": "member,reader"}
    foreign = url.replace("/p9/", "/p8/")
    for method, suffix in (
        ("GET", ""),
        ("GET", "/" + sid),
        ("DELETE", "/" + sid),
        ("POST", "/%s/restore" % sid),
    ):
        resp = api.request(
            foreign + "/snapshots" + suffix, method=method, headers=other, expect_errors=True
        )
        assert resp.status_int == 404
        assert _error(resp) == ("EntityNotFound", "The Stack (snap5) could not be found.")
    # a reader may look, not snapshot; the owner still has it
    reader = dict(MEMBER, **{"X-Roles": "reader"})
    assert api.get(url + "/snapshots", headers=reader).json["snapshots"][0]["id"] == sid
    resp = api.post_json(url + "/snapshots", {}, headers=reader, status=403)
    assert _error(resp) == ("Forbidden", "You are not authorized to use stacks:snapshot.")
    resp = api.post(url + "/snapshots/%s/restore" % sid, headers=reader, status=403)
    assert _error(resp)[1] == "You are not authorized to use stacks:restore_snapshot."
    # an admin of another project cannot reach the project's snapshot row (Heat's
    # snapshot tenant check), though it can read the stack
    resp = api.get(url.replace("/p9/", "/admin/") + "/snapshots/" + sid, status=404)
    assert _error(resp) == ("NotFound", "Snapshot with id %s not found" % sid)


def test_restore_brings_back_the_snapshot(api):
    url = create_stack(api, {"stack_name": "snap6", "template": TEMPLATE})
    before = api.get(url).json["stack"]
    sid = api.post_json(url + "/snapshots", {"name": "before-update"}).json["id"]
    _wait_snapshot(api, url, sid)

    api.put_json(url, {"template": TEMPLATE2}, status=202)
    updated = wait_stack(api, url, "UPDATE_IN_PROGRESS")
    assert updated["stack_status"] == "UPDATE_COMPLETE"
    assert _outputs(updated) == {"o": "two"}

    resp = api.post("%s/snapshots/%s/restore" % (url, sid), status=202)
    assert (resp.content_type, resp.text) == ("text/plain", ACCEPTED)
    restored = wait_stack(api, url, "RESTORE_IN_PROGRESS")
    assert restored["stack_status"] == "RESTORE_COMPLETE"
    assert restored["stack_status_reason"] == "Stack RESTORE completed successfully"
    # the first template's resources and outputs; the random string got its value back
    assert _outputs(restored) == _outputs(before)
    assert api.get(url + "/template").json == TEMPLATE
    resources = {r["resource_name"]: r for r in api.get(url + "/resources").json["resources"]}
    assert set(resources) == {"rand", "v"}
    assert resources["rand"]["resource_status"] == "CREATE_COMPLETE"
    assert resources["v"]["resource_status"] == "UPDATE_COMPLETE"
    events = _stack_events(api, url)
    start = events.index(("snap6", "RESTORE_IN_PROGRESS", "Stack RESTORE started"))
    assert events[-1] == ("snap6", "RESTORE_COMPLETE", "Stack RESTORE completed successfully")
    assert set(events[start + 1 : -1]) == {
        ("w", "DELETE_IN_PROGRESS", "state changed"),
        ("w", "DELETE_COMPLETE", "state changed"),
        ("rand", "CREATE_IN_PROGRESS", "state changed"),
        ("rand", "CREATE_COMPLETE", "state changed"),
        ("v", "UPDATE_IN_PROGRESS", "state changed"),
        ("v", "UPDATE_COMPLETE", "state changed"),
    }
    # the snapshot is still there, and can be restored again
    assert api.get(url + "/snapshots").json["snapshots"][0]["status"] == "COMPLETE"


def test_deleting_a_stack_deletes_its_snapshots(api):
    url = create_stack(api, {"stack_name": "snap7", "template": TEMPLATE2})
    sid = api.post_json(url + "/snapshots", {}).json["id"]
    _wait_snapshot(api, url, sid)
    api.delete(url, status=204)
    assert wait_stack(api, url, "DELETE_IN_PROGRESS")["stack_status"] == "DELETE_COMPLETE"
    # the soft-deleted stack is still shown, but not its snapshots (as Heat); they are gone
    api.get(url + "/snapshots", status=404)
    assert db_snapshots.snapshot_get_all(url.rsplit("/", 1)[1]) == []


def test_a_snapshot_superseded_by_an_update_fails(api):
    """Heat 27 leaves such a snapshot IN_PROGRESS for ever (and then refuses to delete
    it); here it is marked FAILED, so it can be deleted."""
    url = create_stack(api, {"stack_name": "snap8", "template": TEMPLATE2})
    stack_id = url.rsplit("/", 1)[1]
    # the stack as stack_snapshot leaves it while its SNAPSHOT traversal runs
    sid = db_snapshots.snapshot_create(
        {"stack_id": stack_id, "name": "cut", "tenant": "admin", "status": "IN_PROGRESS"}
    ).id
    db_api.stack_update(
        stack_id, {"action": "SNAPSHOT", "status": "IN_PROGRESS", "current_traversal": sid}
    )
    api.patch_json(url, {"parameters": {}}, status=202)
    assert wait_stack(api, url, "UPDATE_IN_PROGRESS")["stack_status"] == "UPDATE_COMPLETE"
    snap = api.get("%s/snapshots/%s" % (url, sid)).json["snapshot"]
    assert (snap["status"], snap["status_reason"]) == ("FAILED", "Stack SNAPSHOT cancelled")
    api.delete("%s/snapshots/%s" % (url, sid), status=204)
