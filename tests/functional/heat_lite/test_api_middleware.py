"""heat-lite-api's pipeline: versions, request ids, faults, body limits, noauth, tenant, policy."""

import json

import pytest

from heat_lite.conf import CONF

pytestmark = pytest.mark.functional

TEMPLATE = {"heat_template_version": "2016-10-14", "resources": {}}
MEMBER = {"X-User-Id": "u1", "X-Project-Id": "p1", "X-Roles": "member"}


def assert_heat_error(resp, code, error_type, message=None):
    assert resp.status_int == code
    assert resp.content_type == "application/json"
    body = resp.json
    assert body["code"] == code
    assert body["title"] and body["explanation"]
    assert body["error"]["type"] == error_type
    assert body["error"]["traceback"] is None
    if message is not None:
        assert body["error"]["message"] == message
    return body


# -- version negotiation -----------------------------------------------------


@pytest.mark.parametrize("path", ["/", "/versions", "/v2/admin/stacks", "/v1.1/admin/stacks"])
def test_versions_document(api, path):
    resp = api.get(path, status=300)
    assert resp.content_type == "application/json"
    assert resp.json == {
        "versions": [
            {
                "id": "v1.0",
                "status": "CURRENT",
                "links": [{"rel": "self", "href": "http://localhost/v1/"}],
            }
        ]
    }


def test_v1_0_prefix_is_accepted(api):
    assert api.get("/v1.0/admin/stacks").json == {"stacks": []}


def test_no_version_needs_the_orchestration_media_type(api):
    assert_heat_error(api.get("/admin/stacks", status=404), 404, "HTTPNotFound")
    resp = api.get(
        "/admin/stacks", headers={"Accept": "application/vnd.openstack.orchestration-v1.0"}
    )
    assert resp.json == {"stacks": []}


# -- request id and faults ---------------------------------------------------


@pytest.mark.parametrize(
    "path, status",
    [
        ("/", 300),
        ("/v1/admin/stacks", 200),
        ("/v1/admin/nowhere", 404),
    ],
)
def test_every_response_has_a_request_id(api, path, status):
    resp = api.get(path, status=status)
    assert resp.headers["x-openstack-request-id"].startswith("req-")


@pytest.mark.parametrize(
    "path",
    [
        "/v1/admin/nowhere",
        "/v1/admin/stacks/",
        "/v1/admin/stacks/a/b/c/d/e",
        "/v1/",
    ],
)
def test_unknown_path_is_a_json_404(api, path):
    assert_heat_error(
        api.get(path, status=404), 404, "HTTPNotFound", "The resource could not be found."
    )


def test_unsupported_method_is_405_with_allow(api):
    resp = api.put("/v1/admin/stacks", status=405)
    assert_heat_error(resp, 405, "HTTPMethodNotAllowed")
    assert resp.headers["Allow"] == "GET,POST"


def test_options_lists_the_methods(api):
    resp = api.options("/v1/admin/stacks/s1/some-id/resources/r", status=204)
    assert resp.headers["Allow"] == "GET,PATCH"
    assert api.options("/v1/admin/stacks", status=204).headers["Allow"] == "GET,POST"


@pytest.mark.expect_log_errors("Returning 500 to user: 'secret detail'")
def test_unexpected_engine_error_is_500_without_details(api, engine):
    engine.failures["list_stacks"] = KeyError("secret detail")
    body = assert_heat_error(api.get("/v1/admin/stacks", status=500), 500, "KeyError")
    assert "message" not in body["error"]
    assert "secret" not in json.dumps(body)


# -- bodies --------------------------------------------------------------------


def test_invalid_json_body_is_400(api):
    resp = api.post("/v1/admin/stacks", "{bad", content_type="application/json", status=400)
    assert_heat_error(
        resp,
        400,
        "HTTPBadRequest",
        "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)",
    )


def test_non_json_body_is_ignored(api):
    resp = api.post("/v1/admin/stacks", '{"stack_name": "x"}', content_type="text/xml", status=400)
    assert_heat_error(
        resp,
        400,
        "HTTPBadRequest",
        "The server could not comply with the request since it is either "
        "malformed or otherwise incorrect.",
    )


def test_json_body_over_max_json_body_size_is_400(api, engine):
    body = json.dumps(
        {"stack_name": "big", "template": TEMPLATE, "files": {"f": "x" * CONF.max_json_body_size}}
    )
    resp = api.post("/v1/admin/stacks", body, content_type="application/json", status=400)
    assert_heat_error(
        resp,
        400,
        "RequestLimitExceeded",
        "Request limit exceeded: JSON body size (%d bytes) exceeds maximum "
        "allowed size (%d bytes)." % (len(body), CONF.max_json_body_size),
    )
    assert engine.calls == []


# -- identity, tenant, policy ------------------------------------------------


def _create(api, name="s1", headers=None, tenant="admin"):
    return api.post_json(
        "/v1/%s/stacks" % tenant, {"stack_name": name, "template": TEMPLATE}, headers=headers or {}
    )


def test_noauth_defaults_to_the_admin_caller(api, engine):
    _create(api)
    stack = api.get("/v1/admin/stacks").json["stacks"][0]
    assert stack["stack_owner"] == "admin"
    assert stack["project"] == "admin"  # admin context: the project is shown


def test_heat_noauth_headers_name_user_and_project(api, engine):
    headers = {"X-Auth-User": "bob", "X-Auth-Project": "demo"}
    resp = _create(api, headers=headers, tenant="demo")
    assert "/v1/demo/stacks/s1/" in resp.headers["Location"]
    stack = api.get("/v1/demo/stacks", headers=headers).json["stacks"][0]
    assert stack["stack_owner"] == "bob"


def test_keystone_style_headers_make_a_member(api, engine):
    resp = _create(api, headers=MEMBER, tenant="p1")
    assert "/v1/p1/stacks/s1/" in resp.headers["Location"]
    stack = api.get("/v1/p1/stacks", headers=MEMBER).json["stacks"][0]
    assert "project" not in stack  # not an admin context


def test_context_reaches_the_engine(api, engine):
    headers = dict(MEMBER, **{"X-Roles": "member, reader", "X-Region-Name": "r1"})
    resp = _create(api, headers=headers, tenant="p1")
    ctx = engine.last_context
    assert (ctx.user_id, ctx.project_id, ctx.roles) == ("u1", "p1", ["member", "reader"])
    assert ctx.region_name == "r1"
    assert not ctx.is_admin
    assert ctx.request_id == resp.headers["x-openstack-request-id"]


def test_foreign_tenant_is_403_for_non_admin(api, engine):
    resp = api.get("/v1/other/stacks", headers=MEMBER, status=403)
    assert_heat_error(
        resp, 403, "InvalidTenant", "Searching Tenant other from Tenant p1 forbidden."
    )
    assert engine.calls == []


def test_admin_url_tenant_is_replaced_by_its_project(api, engine):
    resp = api.post_json("/v1/anything/stacks", {"stack_name": "s1", "template": TEMPLATE})
    assert "/v1/admin/stacks/s1/" in resp.headers["Location"]
    assert len(api.get("/v1/whatever/stacks").json["stacks"]) == 1


def test_policy_denies_a_caller_without_a_role(api, engine):
    headers = dict(MEMBER, **{"X-Roles": "nothing"})
    resp = api.get("/v1/p1/stacks", headers=headers, status=403)
    assert_heat_error(resp, 403, "Forbidden", "You are not authorized to use stacks:index.")


def test_reader_may_list_but_not_create(api, engine):
    headers = dict(MEMBER, **{"X-Roles": "reader"})
    api.get("/v1/p1/stacks", headers=headers, status=200)
    resp = api.post_json(
        "/v1/p1/stacks", {"stack_name": "s1", "template": TEMPLATE}, headers=headers, status=403
    )
    assert_heat_error(resp, 403, "Forbidden", "You are not authorized to use stacks:create.")


def test_global_tenant_listing_is_denied_by_default(api):
    resp = api.get("/v1/admin/stacks?global_tenant=true", status=403)
    assert_heat_error(resp, 403, "Forbidden", "You are not authorized to use stacks:global_index.")
