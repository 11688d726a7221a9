"""Stack update (PUT / PATCH) and stack actions through the API and the real engine,
with webtest and with python-heatclient over HTTP (docs/heat-api.md §4.1, §4.2).
"""

import json
import time

import pytest
from heatclient import client as heat_client
from heatclient import exc as heat_exc
from keystoneauth1 import noauth as ks_noauth
from keystoneauth1 import session as ks_session

from tests.functional.heat_lite.api_engine.helpers import create_stack

pytestmark = pytest.mark.functional

P = "/v1/admin"
TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "parameters": {"p": {"type": "string", "default": "x"}},
    "resources": {
        "r": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "p"}}}
    },
    "outputs": {"o": {"value": {"get_attr": ["r", "output"]}}},
}
TEMPLATE2 = {
    "heat_template_version": "2016-10-14",
    "parameters": {"q": {"type": "string", "default": "qq"}},
    "resources": {
        "r": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "q"}}}
    },
    "outputs": {"o2": {"value": {"get_attr": ["r", "output"]}}},
}
ERROR_400 = (
    "The server could not comply with the request since it is either malformed or "
    "otherwise incorrect."
)
ACCEPTED = "202 Accepted\n\nThe request is accepted for processing.\n\n   "


def _wait(api, url, in_progress, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stack = api.get(url).json["stack"]
        if stack["stack_status"] != in_progress:
            return stack
        time.sleep(0.05)
    raise AssertionError("%s still %s" % (url, in_progress))


def _outputs(stack):
    return {o["output_key"]: o["output_value"] for o in stack["outputs"]}


def _error(resp):
    return resp.json["error"]["type"], resp.json["error"]["message"]


# -- update ---------------------------------------------------------------------------------


def test_put_update_through_redirect(api):
    url = create_stack(api, {"stack_name": "upd1", "template": TEMPLATE})
    body = {"template": TEMPLATE2, "parameters": {"q": "new"}, "timeout_mins": 7}
    redirect = api.put_json(P + "/stacks/upd1", body, status=302)
    assert redirect.location == url
    resp = api.put_json(redirect.location, body, status=202)
    assert resp.content_type == "text/plain"
    assert resp.text == ACCEPTED
    stack = _wait(api, url, "UPDATE_IN_PROGRESS")
    assert stack["stack_status"] == "UPDATE_COMPLETE"
    assert _outputs(stack) == {"o2": "new"}
    assert stack["parameters"]["q"] == "new"
    assert "p" not in stack["parameters"]
    assert stack["timeout_mins"] == 7


def test_patch_update_keeps_template(api):
    url = create_stack(
        api, {"stack_name": "upd2", "template": TEMPLATE, "parameters": {"p": "one"}}
    )
    redirect = api.patch_json(P + "/stacks/upd2", {"parameters": {"p": "two"}}, status=302)
    resp = api.patch_json(redirect.location, {"parameters": {"p": "two"}}, status=202)
    assert resp.text == ACCEPTED
    stack = _wait(api, url, "UPDATE_IN_PROGRESS")
    assert stack["stack_status"] == "UPDATE_COMPLETE"
    assert _outputs(stack) == {"o": "two"}
    # clear_parameters: back to the default
    api.patch_json(url, {"clear_parameters": ["p"]}, status=202)
    stack = _wait(api, url, "UPDATE_IN_PROGRESS")
    assert stack["stack_status"] == "UPDATE_COMPLETE"
    assert _outputs(stack) == {"o": "x"}
    # nothing at all: policy update_no_change, still an update
    api.patch(url, "{}", content_type="application/json", status=202)
    stack = _wait(api, url, "UPDATE_IN_PROGRESS")
    assert stack["stack_status"] == "UPDATE_COMPLETE"


def test_update_errors(api):
    url = create_stack(api, {"stack_name": "upd3", "template": TEMPLATE})
    resp = api.put(url, "", status=400)
    assert resp.json["error"]["type"] == "HTTPBadRequest"
    resp = api.put_json(url, {"parameters": {}}, status=400)
    assert _error(resp) == ("HTTPBadRequest", "No template specified")
    resp = api.put_json(url, {"template": TEMPLATE, "timeout_mins": "x"}, status=400)
    assert resp.json["error"]["type"] == "HTTPBadRequest"
    resp = api.put_json(url, {"template": TEMPLATE, "parameters": {"bogus": 1}}, status=400)
    assert resp.json["error"]["type"] == "UnknownUserParameter"
    resp = api.put_json(P + "/stacks/upd3/" + "0" * 36, {"template": TEMPLATE}, status=404)
    assert resp.json["error"]["type"] == "EntityNotFound"


def _session_client(endpoint):
    """As OSC does with --os-auth-type none: keystoneauth follows the 302s itself."""
    sess = ks_session.Session(auth=ks_noauth.NoAuth(endpoint=endpoint))
    return heat_client.Client(
        "1", session=sess, endpoint_override=endpoint, service_type="orchestration"
    )


def _plain_client(endpoint):
    return heat_client.Client("1", endpoint=endpoint, token="x")


@pytest.mark.parametrize("make_client", [_plain_client, _session_client], ids=["plain", "session"])
def test_heatclient_update(endpoint, make_client):
    hc = make_client(endpoint)
    name = "upd4" + make_client.__name__
    hc.stacks.create(stack_name=name, template=TEMPLATE, parameters={"p": "a"})

    def wait(status_in_progress):
        for _ in range(600):
            stack = hc.stacks.get(name)
            if stack.stack_status != status_in_progress:
                return stack
            time.sleep(0.05)
        raise AssertionError("still %s" % status_in_progress)

    assert wait("CREATE_IN_PROGRESS").stack_status == "CREATE_COMPLETE"
    hc.stacks.update(name, template=TEMPLATE2, parameters={"q": "b"})
    stack = wait("UPDATE_IN_PROGRESS")
    assert stack.stack_status == "UPDATE_COMPLETE"
    assert [(o["output_key"], o["output_value"]) for o in stack.outputs] == [("o2", "b")]
    hc.stacks.update(stack.id, existing=True, parameters={"q": "c"})
    stack = wait("UPDATE_IN_PROGRESS")
    assert stack.stack_status == "UPDATE_COMPLETE"
    assert [(o["output_key"], o["output_value"]) for o in stack.outputs] == [("o2", "c")]
    with pytest.raises(heat_exc.HTTPBadRequest):
        hc.stacks.update(name, template={"heat_template_version": "2016-10-14", "bogus": 1})


# -- actions --------------------------------------------------------------------------------

ACTION_TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "resources": {
        "a": {"type": "OS::Heat::TestResource"},
        "b": {"type": "OS::Heat::None", "depends_on": "a"},
    },
}


def _resources(api, url):
    return {
        r["resource_name"]: (r["resource_status"], r["resource_status_reason"])
        for r in api.get(url + "/resources").json["resources"]
    }


def _events(api, url, action):
    events = api.get(url + "/events?sort_dir=asc").json["events"]
    return [
        (e["resource_name"], e["resource_status"], e["resource_status_reason"])
        for e in events
        if e["resource_status"].startswith(action)
    ]


def _act(api, url, body, status=200):
    return api.post_json(url + "/actions", body, status=status)


def test_check_suspend_resume(api):
    url = create_stack(api, {"stack_name": "act1", "template": ACTION_TEMPLATE})
    resp = _act(api, url, {"check": None})
    assert resp.content_type == "application/json"
    assert resp.json is None
    stack = _wait(api, url, "CHECK_IN_PROGRESS")
    assert (stack["stack_status"], stack["stack_status_reason"]) == (
        "CHECK_COMPLETE",
        "Stack CHECK completed successfully. 'CHECK' not fully supported (see resources)",
    )
    assert _resources(api, url) == {
        "a": ("CHECK_COMPLETE", "state changed"),
        "b": ("CHECK_COMPLETE", "CHECK not supported for OS::Heat::None"),
    }
    assert _events(api, url, "CHECK") == [
        ("act1", "CHECK_IN_PROGRESS", "Stack CHECK started"),
        ("a", "CHECK_IN_PROGRESS", "state changed"),
        ("a", "CHECK_COMPLETE", "state changed"),
        ("b", "CHECK_COMPLETE", "CHECK not supported for OS::Heat::None"),
        (
            "act1",
            "CHECK_COMPLETE",
            "Stack CHECK completed successfully. 'CHECK' not fully supported (see resources)",
        ),
    ]

    # through the name redirect, as clients do
    redirect = api.post_json(P + "/stacks/act1/actions", {"suspend": None}, status=302)
    assert redirect.location == url + "/actions"
    api.post_json(redirect.location, {"suspend": None}, status=200)
    stack = _wait(api, url, "SUSPEND_IN_PROGRESS")
    assert (stack["stack_status"], stack["stack_status_reason"]) == (
        "SUSPEND_COMPLETE",
        "Stack SUSPEND completed successfully",
    )
    # reverse dependency order
    assert _events(api, url, "SUSPEND") == [
        ("act1", "SUSPEND_IN_PROGRESS", "Stack SUSPEND started"),
        ("b", "SUSPEND_IN_PROGRESS", "state changed"),
        ("b", "SUSPEND_COMPLETE", "state changed"),
        ("a", "SUSPEND_IN_PROGRESS", "state changed"),
        ("a", "SUSPEND_COMPLETE", "state changed"),
        ("act1", "SUSPEND_COMPLETE", "Stack SUSPEND completed successfully"),
    ]
    _act(api, url, {"suspend": None})  # already suspended: nothing happens
    assert len(_events(api, url, "SUSPEND")) == 6

    resp = api.patch_json(url, {"parameters": {}}, status=400)
    assert _error(resp) == (
        "NotSupported",
        "Updating a stack when it is suspended is not supported.",
    )

    _act(api, url, {"resume": None})
    stack = _wait(api, url, "RESUME_IN_PROGRESS")
    assert stack["stack_status"] == "RESUME_COMPLETE"
    assert _events(api, url, "RESUME") == [
        ("act1", "RESUME_IN_PROGRESS", "Stack RESUME started"),
        ("a", "RESUME_IN_PROGRESS", "state changed"),
        ("a", "RESUME_COMPLETE", "state changed"),
        ("b", "RESUME_IN_PROGRESS", "state changed"),
        ("b", "RESUME_COMPLETE", "state changed"),
        ("act1", "RESUME_COMPLETE", "Stack RESUME completed successfully"),
    ]
    _act(api, url, {"resume": None})
    assert len(_events(api, url, "RESUME")) == 6
    assert _resources(api, url) == {
        "a": ("RESUME_COMPLETE", "state changed"),
        "b": ("RESUME_COMPLETE", "state changed"),
    }

    # and it can be updated again
    api.patch_json(url, {"parameters": {}}, status=202)
    assert _wait(api, url, "UPDATE_IN_PROGRESS")["stack_status"] == "UPDATE_COMPLETE"


def test_resume_without_suspend_fails(api):
    url = create_stack(api, {"stack_name": "act2", "template": ACTION_TEMPLATE})
    _act(api, url, {"resume": None})
    stack = _wait(api, url, "RESUME_IN_PROGRESS")
    assert stack["stack_status"] == "RESUME_FAILED"
    assert stack["stack_status_reason"] == (
        "Resource RESUME failed: Error: resources.a: "
        "State ('CREATE', 'COMPLETE') invalid for resume"
    )


def test_action_errors(api):
    url = create_stack(api, {"stack_name": "act3", "template": ACTION_TEMPLATE})
    assert _error(_act(api, url, {}, status=400)) == ("HTTPBadRequest", "No action specified")
    resp = _act(api, url, {"suspend": None, "resume": None}, status=400)
    assert _error(resp) == ("HTTPBadRequest", "Multiple actions specified")
    resp = _act(api, url, {"bogus": None}, status=400)
    assert _error(resp) == ("HTTPBadRequest", "Invalid action bogus specified")
    for action in ("cancel_update", "cancel_without_rollback"):
        resp = _act(api, url, {action: None}, status=400)
        assert _error(resp) == (
            "NotSupported",
            "Cancelling update when stack is CREATE_COMPLETE is not supported.",
        )
    resp = _act(api, P + "/stacks/act3/" + "0" * 36, {"check": None}, status=404)
    assert resp.json["error"]["type"] == "EntityNotFound"


def _slow(secs):
    return {
        "heat_template_version": "2016-10-14",
        "parameters": {"p": {"type": "string", "default": "x"}},
        "resources": {
            "r": {
                "type": "OS::Heat::TestResource",
                "properties": {"value": {"get_param": "p"}, "wait_secs": secs},
            }
        },
        "outputs": {"o": {"value": {"get_attr": ["r", "output"]}}},
    }


def test_cancel_update_rolls_back(api):
    url = create_stack(
        api,
        {"stack_name": "act4", "template": _slow(0), "parameters": {"p": "old"}},
    )
    api.put_json(url, {"template": _slow(3), "parameters": {"p": "new"}}, status=202)
    _act(api, url, {"cancel_update": None})
    stack = _wait(api, url, "UPDATE_IN_PROGRESS")
    stack = _wait(api, url, "ROLLBACK_IN_PROGRESS")
    assert stack["stack_status"] == "ROLLBACK_COMPLETE"
    assert _outputs(stack) == {"o": "old"}


def test_cancel_without_rollback(api):
    body = {"stack_name": "act5", "template": _slow(3)}
    url = api.post_json(P + "/stacks", body).location
    _act(api, url, {"cancel_without_rollback": None})
    stack = _wait(api, url, "CREATE_IN_PROGRESS")
    assert (stack["stack_status"], stack["stack_status_reason"]) == (
        "CREATE_FAILED",
        "Stack CREATE cancelled",
    )
    # the stack can still be deleted
    api.delete(url, status=204)


# -- resource metadata, signal, mark unhealthy ----------------------------------------------

MD_TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "parameters": {"p": {"type": "string", "default": "x"}},
    "resources": {
        "a": {"type": "OS::Heat::TestResource", "metadata": {"k": {"get_param": "p"}, "n": 1}},
        "b": {"type": "OS::Heat::None", "metadata": {"ref": {"get_resource": "a"}}},
    },
}


def test_resource_metadata(api):
    url = create_stack(api, {"stack_name": "md1", "template": MD_TEMPLATE})
    assert api.get(url + "/resources/a/metadata").json == {"metadata": {"k": "x", "n": 1}}
    physical = api.get(url + "/resources/a").json["resource"]["physical_resource_id"]
    assert api.get(url + "/resources/b/metadata").json == {"metadata": {"ref": physical}}
    assert "metadata" not in api.get(url + "/resources/a").json["resource"]
    resp = api.get(url + "/resources/nope/metadata", status=404)
    assert _error(resp) == (
        "ResourceNotFound",
        "The Resource (nope) could not be found in Stack md1.",
    )
    # a new parameter value alone does not change stored metadata (as Heat) ...
    api.patch_json(url, {"parameters": {"p": "y"}}, status=202)
    assert _wait(api, url, "UPDATE_IN_PROGRESS")["stack_status"] == "UPDATE_COMPLETE"
    assert api.get(url + "/resources/a/metadata").json == {"metadata": {"k": "x", "n": 1}}
    # ... a new metadata snippet does
    template = {**MD_TEMPLATE, "resources": dict(MD_TEMPLATE["resources"])}
    template["resources"]["a"] = {"type": "OS::Heat::TestResource", "metadata": {"n": 2}}
    api.put_json(url, {"template": template}, status=202)
    assert _wait(api, url, "UPDATE_IN_PROGRESS")["stack_status"] == "UPDATE_COMPLETE"
    assert api.get(url + "/resources/a/metadata").json == {"metadata": {"n": 2}}


def test_resource_signal_not_supported(api):
    url = create_stack(api, {"stack_name": "sig1", "template": MD_TEMPLATE})
    for name, body in (("a", {"x": 1}), ("b", None)):
        if body is None:
            resp = api.post(url + "/resources/%s/signal" % name, status=400)
        else:
            resp = api.post_json(url + "/resources/%s/signal" % name, body, status=400)
        assert _error(resp) == (
            "ResourceActionNotSupported",
            "signal is not supported for resource.",
        )
    resp = api.post_json(url + "/resources/nope/signal", {}, status=404)
    assert resp.json["error"]["type"] == "ResourceNotFound"


def test_mark_unhealthy(api):
    url = create_stack(api, {"stack_name": "mu1", "template": MD_TEMPLATE})
    rurl = url + "/resources/a"
    body = {"mark_unhealthy": True, "resource_status_reason": "bad"}
    resp = api.patch_json(rurl, body, status=200)
    assert resp.content_type == "application/json" and resp.json is None
    assert _resources(api, url)["a"] == ("CHECK_FAILED", "bad")
    api.patch_json(rurl, {"mark_unhealthy": True})
    reason = "state changed by resource_mark_unhealthy api"
    assert _resources(api, url)["a"] == ("CHECK_FAILED", reason)
    # by physical id
    physical = api.get(rurl).json["resource"]["physical_resource_id"]
    api.patch_json(url + "/resources/" + physical, {"mark_unhealthy": "false"})
    assert _resources(api, url)["a"] == ("CHECK_COMPLETE", reason)
    # false on a healthy resource: nothing
    api.patch_json(url + "/resources/b", {"mark_unhealthy": False})
    assert _resources(api, url)["b"] == ("CREATE_COMPLETE", "state changed")
    assert [e[1:] for e in _events(api, url, "CHECK")] == [
        ("CHECK_FAILED", "bad"),
        ("CHECK_FAILED", reason),
        ("CHECK_COMPLETE", reason),
    ]

    resp = api.patch_json(rurl, {"foo": 1, "mark_unhealthy": True}, status=400)
    assert _error(resp) == ("HTTPBadRequest", "Invalid keys in resource mark unhealthy {'foo'}")
    resp = api.patch_json(rurl, {}, status=400)
    assert _error(resp) == (
        "HTTPBadRequest",
        "Missing mandatory (mark_unhealthy) key from mark unhealthy request",
    )
    resp = api.patch_json(rurl, {"mark_unhealthy": "maybe"}, status=400)
    assert _error(resp) == (
        "HTTPBadRequest",
        'Unrecognized value "maybe" for "mark_unhealthy", acceptable values are: true, false.',
    )
    resp = api.patch_json(url + "/resources/nope", {"mark_unhealthy": True}, status=404)
    assert resp.json["error"]["type"] == "ResourceNotFound"

    # a resource held by a running operation: 409
    api.put_json(url, {"template": _slow(3)}, status=202)
    for _ in range(100):
        if _resources(api, url).get("r", ("",))[0] == "CREATE_IN_PROGRESS":
            break
        time.sleep(0.05)
    resp = api.patch_json(url + "/resources/r", {"mark_unhealthy": True}, status=409)
    assert _error(resp) == (
        "ActionInProgress",
        "Stack mu1 already has an action (UPDATE) in progress.",
    )


def test_heatclient_actions_and_resources(endpoint):
    hc = heat_client.Client("1", endpoint=endpoint, token="x")
    hc.stacks.create(stack_name="hca1", template=MD_TEMPLATE)

    def wait(action):
        for _ in range(600):
            stack = hc.stacks.get("hca1")
            if stack.stack_status != action + "_IN_PROGRESS":
                return stack.stack_status
            time.sleep(0.05)
        raise AssertionError("still %s_IN_PROGRESS" % action)

    assert wait("CREATE") == "CREATE_COMPLETE"
    hc.actions.check("hca1")
    assert wait("CHECK") == "CHECK_COMPLETE"
    hc.actions.suspend("hca1")
    assert wait("SUSPEND") == "SUSPEND_COMPLETE"
    hc.actions.resume("hca1")
    assert wait("RESUME") == "RESUME_COMPLETE"
    with pytest.raises(heat_exc.HTTPBadRequest) as err:
        hc.actions.cancel_update("hca1")
    assert "Cancelling update when stack is RESUME_COMPLETE is not supported." in str(err.value)

    assert hc.resources.metadata("hca1", "a") == {"k": "x", "n": 1}
    with pytest.raises(heat_exc.HTTPBadRequest) as err:
        hc.resources.signal("hca1", "a", data={"x": 1})
    assert "signal is not supported for resource." in str(err.value)
    hc.resources.mark_unhealthy("hca1", "a", True, "broken")
    rsrc = hc.resources.get("hca1", "a")
    assert (rsrc.resource_status, rsrc.resource_status_reason) == ("CHECK_FAILED", "broken")


# -- abandon and export ---------------------------------------------------------------------


@pytest.fixture
def abandon_enabled():
    from heat_lite.conf import CONF

    CONF.set_override("enable_stack_abandon", True)
    yield
    CONF.clear_override("enable_stack_abandon")


def test_abandon_and_export_disabled(api):
    url = create_stack(api, {"stack_name": "ab1", "template": MD_TEMPLATE})
    for resp in (api.get(url + "/export", status=400), api.delete(url + "/abandon", status=400)):
        assert _error(resp) == ("NotSupported", "Stack Abandon is not supported.")
    assert api.get(url).json["stack"]["stack_status"] == "CREATE_COMPLETE"


def test_export_and_abandon(api, abandon_enabled):
    body = {"stack_name": "ab2", "template": MD_TEMPLATE, "parameters": {"p": "v"}, "tags": "t1"}
    url = create_stack(api, body)
    stack_id = url.rsplit("/", 1)[1]
    physical = api.get(url + "/resources/a").json["resource"]["physical_resource_id"]
    exported = api.get(url + "/export").json
    assert exported["resources"]["a"] == {
        "name": "a",
        "resource_id": physical,
        "type": "OS::Heat::TestResource",
        "action": "CREATE",
        "status": "COMPLETE",
        "metadata": {"k": "v", "n": 1},
        "resource_data": {"value": "test_string"},
    }
    assert exported["resources"]["b"]["metadata"] == {"ref": physical}
    assert {k: exported[k] for k in ("name", "id", "action", "status", "template", "tags")} == {
        "name": "ab2",
        "id": stack_id,
        "action": "CREATE",
        "status": "COMPLETE",
        "template": MD_TEMPLATE,
        "tags": ["t1"],
    }
    assert exported["environment"]["parameters"] == {"p": "v"}
    assert exported["files"] == {}
    assert exported["project_id"] == "admin"
    assert api.get(url).json["stack"]["stack_status"] == "CREATE_COMPLETE"

    abandoned = api.delete(url + "/abandon", status=200).json
    assert abandoned == exported
    assert _wait(api, url, "DELETE_IN_PROGRESS")["stack_status"] == "DELETE_COMPLETE"
    # the resources went through DELETE without their handlers (retained)
    assert [e[:2] for e in _events(api, url, "DELETE")] == [
        ("ab2", "DELETE_IN_PROGRESS"),
        ("b", "DELETE_IN_PROGRESS"),
        ("b", "DELETE_COMPLETE"),
        ("a", "DELETE_IN_PROGRESS"),
        ("a", "DELETE_COMPLETE"),
        ("ab2", "DELETE_COMPLETE"),
    ]
    api.get(P + "/stacks/ab2", status=404)


def test_abandon_skips_physical_delete(api, abandon_enabled):
    template = {
        "heat_template_version": "2016-10-14",
        "resources": {
            "r": {
                "type": "OS::Heat::TestResource",
                "properties": {"action_wait_secs": {"delete": 600}},
            }
        },
    }
    url = create_stack(api, {"stack_name": "ab3", "template": template})
    api.delete(url + "/abandon", status=200)
    stack = _wait(api, url, "DELETE_IN_PROGRESS", timeout=20)
    assert stack["stack_status"] == "DELETE_COMPLETE"


def test_adopt_disabled(api):
    adopt = json.dumps({"template": MD_TEMPLATE, "resources": {}})
    body = {"stack_name": "adopt1", "adopt_stack_data": adopt}
    resp = api.post_json(P + "/stacks", body, status=400)
    assert _error(resp) == ("NotSupported", "Stack Adopt is not supported.")
    api.get(P + "/stacks/adopt1", status=404)
    for data, message in (
        ("{}", "Invalid adopt data: 'template'"),
        ("[1]", "Invalid adopt data: The template is not a JSON object or YAML mapping."),
        ({"template": MD_TEMPLATE}, ERROR_400),
    ):
        body = {"stack_name": "adopt1", "adopt_stack_data": data}
        resp = api.post_json(P + "/stacks", body, status=400)
        assert _error(resp) == ("HTTPBadRequest", message)


@pytest.fixture
def adopt_enabled(abandon_enabled):
    from heat_lite.conf import CONF

    CONF.set_override("enable_stack_adopt", True)
    yield
    CONF.clear_override("enable_stack_adopt")


def test_abandon_then_adopt(api, adopt_enabled):
    url = create_stack(
        api, {"stack_name": "ad1", "template": MD_TEMPLATE, "parameters": {"p": "v"}}
    )
    data = api.delete(url + "/abandon", status=200).json
    assert _wait(api, url, "DELETE_IN_PROGRESS")["stack_status"] == "DELETE_COMPLETE"

    body = {"stack_name": "ad2", "adopt_stack_data": json.dumps(data)}
    url2 = api.post_json(P + "/stacks", body, status=201).location
    stack = _wait(api, url2, "ADOPT_IN_PROGRESS")
    assert (stack["stack_status"], stack["stack_status_reason"]) == (
        "ADOPT_COMPLETE",
        "Stack ADOPT completed successfully",
    )
    assert stack["parameters"]["p"] == "v"
    assert _resources(api, url2) == {
        "a": ("ADOPT_COMPLETE", "state changed"),
        "b": ("ADOPT_COMPLETE", "state changed"),
    }
    for name in ("a", "b"):
        shown = api.get(url2 + "/resources/" + name).json["resource"]
        assert shown["physical_resource_id"] == data["resources"][name]["resource_id"]
        metadata = api.get(url2 + "/resources/%s/metadata" % name).json["metadata"]
        assert metadata == data["resources"][name]["metadata"]

    # a resource missing from the data cannot be adopted
    data["resources"].pop("b")
    body = {"stack_name": "ad3", "adopt_stack_data": json.dumps(data)}
    url3 = api.post_json(P + "/stacks", body, status=201).location
    stack = _wait(api, url3, "ADOPT_IN_PROGRESS")
    assert (stack["stack_status"], stack["stack_status_reason"]) == (
        "ADOPT_FAILED",
        "Resource ADOPT failed: Exception: resources.b: Resource ID was not provided.",
    )


CHECK_FAILS_TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "f": {"type": "OS::Heat::TestResource", "properties": {"fail": True}},
        "a": {"type": "OS::Heat::TestResource", "depends_on": ["f"]},
        "b": {"type": "OS::Heat::TestResource", "depends_on": ["f"]},
        "c": {"type": "OS::Heat::TestResource", "depends_on": ["a"]},
    },
}


def test_check_collects_every_failure_then_fails_the_stack(api):
    """a and b were never created (f failed, rollback disabled): both fail their check,
    the traversal goes on (c, after a, is skipped) and the stack reason lists both."""
    url = api.post_json(
        P + "/stacks",
        {"stack_name": "chk2", "template": CHECK_FAILS_TEMPLATE, "disable_rollback": True},
    ).location
    assert _wait(api, url, "CREATE_IN_PROGRESS")["stack_status"] == "CREATE_FAILED"
    _act(api, url, {"check": None})
    stack = _wait(api, url, "CHECK_IN_PROGRESS")
    assert stack["stack_status"] == "CHECK_FAILED"
    assert stack["stack_status_reason"] == (
        "Resource CHECK failed: "
        "a: Error: resources.a: Resource a not created yet.; "
        "b: Error: resources.b: Resource b not created yet."
    )
    resources = _resources(api, url)
    assert resources["a"] == ("CHECK_FAILED", "Can not check a, resource not created yet.")
    assert resources["b"] == ("CHECK_FAILED", "Can not check b, resource not created yet.")
    assert resources["f"][0] == "CHECK_COMPLETE"
    assert resources["c"] == ("INIT_COMPLETE", "")


def test_event_show_has_the_resource_properties_of_its_time(api):
    """As Heat 27: a create's events show the new properties, an update's IN_PROGRESS
    event the old ones and its COMPLETE event the new ones; list items show none."""
    url = create_stack(api, {"stack_name": "evp", "template": TEMPLATE, "parameters": {"p": "y"}})
    api.put_json(url, {"template": TEMPLATE, "parameters": {"p": "z"}}, status=202)
    assert _wait(api, url, "UPDATE_IN_PROGRESS")["stack_status"] == "UPDATE_COMPLETE"
    listed = api.get(url + "/resources/r/events?sort_dir=asc").json["events"]
    assert all("resource_properties" not in e for e in listed)
    shown = [api.get(url + "/resources/r/events/" + e["id"]).json["event"] for e in listed]
    assert [(e["resource_status"], e["resource_properties"]) for e in shown] == [
        ("CREATE_IN_PROGRESS", {"value": "y"}),
        ("CREATE_COMPLETE", {"value": "y"}),
        ("UPDATE_IN_PROGRESS", {"value": "y"}),
        ("UPDATE_COMPLETE", {"value": "z"}),
    ]
