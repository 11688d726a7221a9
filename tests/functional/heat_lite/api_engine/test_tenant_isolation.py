"""Tenant isolation on every endpoint (issue: heat-lite API): another project's stack is
404 and never listed; an admin context lists every project, as Heat's
``_query_stack_get_all``; ``global_tenant=true`` is policy ``stacks:global_index``
(denied by default, as in Heat 27) and, when an operator opens it, lists every project.

The per-endpoint test walks api.openstack.v1.ROUTES, so an endpoint added later under
``/stacks/{stack_name}/{stack_id}`` is covered without touching this file.
"""

import json

import pytest
import webtest

from heat_lite.api.openstack import v1 as api_v1
from heat_lite.common import policy
from heat_lite.conf import CONF
from tests.functional.heat_lite.api_engine.helpers import wait_stack

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"r": {"type": "OS::Heat::TestResource", "properties": {"value": "v"}}},
    "outputs": {"o": {"value": {"get_attr": ["r", "output"]}}},
}


def _headers(project, roles="member,reader"):
    return {"X-User-Id": "u-" + project, "X-Project-Id": project, "X-Roles": roles}


P1, P2 = _headers("p1"), _headers("p2")
ADMIN = _headers("adm", roles="admin,member,reader")


@pytest.fixture(scope="module", autouse=True)
def abandon_enabled():
    """Abandon answers 400 NotSupported before any lookup unless enabled (as Heat)."""
    CONF.set_override("enable_stack_abandon", True)
    yield
    CONF.clear_override("enable_stack_abandon")


@pytest.fixture(scope="module")
def stacks(wsgi_app):
    """One stack in p1, one in p2: {project: (name, id)}."""
    api = webtest.TestApp(wsgi_app)
    made = {}
    for project, headers in (("p1", P1), ("p2", P2)):
        name = "iso-" + project
        url = api.post_json(
            "/v1/%s/stacks" % project,
            {"stack_name": name, "template": TEMPLATE},
            headers=headers,
        ).location
        stack = wait_stack(api, url, "CREATE_IN_PROGRESS", headers=headers)
        assert stack["stack_status"] == "CREATE_COMPLETE"
        made[project] = (name, stack["id"])
    return made


# Bodies that pass the API's own checks, so the engine's stack lookup is what answers.
BODIES = {
    ("stacks", "update"): {"template": TEMPLATE},
    ("stacks", "update_patch"): {},
    ("stacks", "preview_update"): {"template": TEMPLATE},
    ("stacks", "preview_update_patch"): {},
    ("actions", "action"): {"check": None},
    ("resources", "mark_unhealthy"): {"mark_unhealthy": True, "resource_status_reason": "x"},
    ("snapshots", "snapshot"): {"name": "x"},
}
VALUES = {"resource_name": "r", "output_key": "o", "event_id": "0" * 36}


def _stack_routes():
    for methods, path, controller, handler in api_v1.ROUTES:
        if path.startswith(api_v1.S):
            for method in (methods,) if isinstance(methods, str) else methods:
                yield pytest.param(method, path, controller, handler, id=method + path)


def _fill(path, name, stack_id):
    path = path.replace("{stack_name}", name).replace("{stack_id}", stack_id)
    for key, value in VALUES.items():
        path = path.replace("{%s}" % key, value)
    while "{" in path:  # any placeholder added later: a well-formed dummy id
        start, end = path.index("{"), path.index("}")
        path = path[:start] + "0" * 36 + path[end + 1 :]
    return path


@pytest.mark.parametrize("method,path,controller,handler", list(_stack_routes()))
def test_another_projects_stack_is_404_on_every_endpoint(
    api, stacks, method, path, controller, handler
):
    name, stack_id = stacks["p1"]
    url = "/v1/p2" + _fill(path, name, stack_id)
    body = BODIES.get((controller, handler))
    resp = api.request(
        url,
        method=method,
        headers=dict(P2, **({"Content-Type": "application/json"} if body is not None else {})),
        body=b"" if body is None else json.dumps(body).encode(),
        expect_errors=True,
    )
    assert resp.status_int == 404, (url, resp.status, resp.body[:300])
    assert resp.json["error"]["type"] == "EntityNotFound"
    assert resp.json["error"]["message"] == "The Stack (%s) could not be found." % name
    # and the owner still sees its stack unchanged
    owner = api.get("/v1/p1/stacks/%s/%s" % (name, stack_id), headers=P1).json["stack"]
    assert owner["stack_status"] == "CREATE_COMPLETE"


@pytest.mark.parametrize("ref", ["name", "id"])
def test_lookup_of_another_projects_stack_is_404(api, stacks, ref):
    name, stack_id = stacks["p1"]
    resp = api.get(
        "/v1/p2/stacks/%s" % (name if ref == "name" else stack_id), headers=P2, status=404
    )
    assert resp.json["error"]["type"] == "EntityNotFound"
    # the owner is redirected to its stack
    resp = api.get(
        "/v1/p1/stacks/%s" % (name if ref == "name" else stack_id), headers=P1, status=302
    )
    assert resp.location.endswith("/v1/p1/stacks/%s/%s" % (name, stack_id))


def test_lists_show_only_the_callers_project(api, stacks):
    for project, headers in (("p1", P1), ("p2", P2)):
        body = api.get("/v1/%s/stacks?with_count=true" % project, headers=headers).json
        assert [s["id"] for s in body["stacks"]] == [stacks[project][1]]
        assert body["count"] == 1
        assert "project" not in body["stacks"][0]
    detail = api.get("/v1/p2/stacks/detail", headers=P2).json["stacks"]
    assert [s["id"] for s in detail] == [stacks["p2"][1]]


def test_a_non_admin_cannot_use_another_projects_url(api, stacks):
    resp = api.get("/v1/p1/stacks", headers=P2, status=403)
    assert resp.json["error"]["type"] == "InvalidTenant"


def test_an_admin_lists_every_project_and_sees_their_projects(api, stacks):
    listed = {s["id"]: s for s in api.get("/v1/adm/stacks", headers=ADMIN).json["stacks"]}
    for project, (_name, stack_id) in stacks.items():
        assert listed[stack_id]["project"] == project
    # and may read another project's stack (Heat: context.is_admin)
    name, stack_id = stacks["p1"]
    shown = api.get("/v1/adm/stacks/%s/%s" % (name, stack_id), headers=ADMIN).json["stack"]
    assert shown["id"] == stack_id


@pytest.fixture
def open_global_index(tmp_path):
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text('"stacks:global_index": "role:admin or role:auditor"\n')
    CONF.set_override("policy_file", str(policy_file), group="oslo_policy")
    policy.reset()
    yield
    CONF.clear_override("policy_file", group="oslo_policy")
    policy.reset()


def test_global_tenant_is_denied_by_default(api, stacks):
    resp = api.get("/v1/adm/stacks?global_tenant=true", headers=ADMIN, status=403)
    assert resp.json["error"]["message"] == "You are not authorized to use stacks:global_index."


def test_global_tenant_lists_every_project_when_the_policy_allows(api, stacks, open_global_index):
    body = api.get("/v1/adm/stacks?global_tenant=true", headers=ADMIN).json
    assert {s["id"] for s in body["stacks"]} >= {i for _n, i in stacks.values()}
    # a non-admin role the operator allowed lists every project too (admin context)
    auditor = _headers("p2", roles="auditor,reader")
    body = api.get("/v1/p2/stacks?global_tenant=true", headers=auditor).json
    assert {s["id"] for s in body["stacks"]} >= {i for _n, i in stacks.values()}
    # a member still may not
    resp = api.get("/v1/p2/stacks?global_tenant=true", headers=P2, status=403)
    assert resp.json["error"]["type"] == "Forbidden"
