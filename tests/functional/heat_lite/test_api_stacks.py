"""Stack endpoints of heat-lite-api against the fake engine (docs/heat-api.md §3, §4.1)."""

import pytest

from heat_lite.common import exception
from heat_lite.conf import CONF

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "parameters": {"p": {"type": "string", "default": "x"}},
    "resources": {"r": {"type": "OS::Heat::None"}},
    "outputs": {"o": {"value": "out"}},
}
YAML_TEMPLATE = """
heat_template_version: 2018-08-31
resources:
  r: {type: OS::Heat::None}
"""
URL = "http://localhost/v1/admin/stacks"


def create(api, name="s1", **body):
    body.setdefault("template", TEMPLATE)
    return api.post_json("/v1/admin/stacks", dict(body, stack_name=name))


def error(resp):
    return resp.json["error"]["type"], resp.json["error"].get("message")


# -- create --------------------------------------------------------------------


def test_create_answers_201_with_location(api, engine):
    resp = create(api, parameters={"p": "y"}, tags="a,b", timeout_mins="5", disable_rollback=False)
    assert resp.status_int == 201
    stack_id = resp.json["stack"]["id"]
    href = "%s/s1/%s" % (URL, stack_id)
    assert resp.headers["Location"] == href
    assert resp.json == {"stack": {"id": stack_id, "links": [{"href": href, "rel": "self"}]}}

    method, call = engine.calls[-1]
    assert method == "create_stack"
    assert call["stack_name"] == "s1"
    assert call["template"] == TEMPLATE
    assert call["params"] == {
        "parameters": {"p": "y"},
        "parameter_defaults": {},
        "resource_registry": {},
        "encrypted_param_names": [],
        "event_sinks": [],
    }
    assert call["args"] == {"tags": ["a", "b"], "timeout_mins": 5, "disable_rollback": False}
    assert call["files"] == {}


def test_create_merges_parameters_into_the_environment(api, engine):
    create(
        api,
        environment={
            "parameters": {"p": "env", "q": "env"},
            "resource_registry": {"My::T": "t.yaml"},
        },
        parameters={"p": "param"},
    )
    env = engine.calls[-1][1]["params"]
    assert env["parameters"] == {"p": "param", "q": "env"}
    assert env["resource_registry"] == {"My::T": "t.yaml"}


def test_environment_ignored_when_environment_files_given(api, engine):
    create(
        api,
        environment={"parameters": {"p": "env"}},
        environment_files=["file:///e.yaml"],
        files={"file:///e.yaml": "parameters: {p: f}"},
    )
    call = engine.calls[-1][1]
    assert call["params"]["parameters"] == {}
    assert call["environment_files"] == ["file:///e.yaml"]
    assert call["files"] == {"file:///e.yaml": "parameters: {p: f}"}


def test_create_parses_a_yaml_template_string(api, engine):
    create(api, template=YAML_TEMPLATE)
    assert engine.calls[-1][1]["template"] == {
        "heat_template_version": "2018-08-31",
        "resources": {"r": {"type": "OS::Heat::None"}},
    }


@pytest.mark.parametrize(
    "body, message",
    [
        ({"template": TEMPLATE}, "No stack name specified"),
        ({"stack_name": "s1"}, "No template specified"),
        (
            {"stack_name": "s1", "template": "foo: 1"},
            "Template not in valid format: Template format version not found.",
        ),
        (
            {"stack_name": "s1", "template": "[1, 2]"},
            "Template not in valid format: The template is not a JSON object or YAML mapping.",
        ),
        (
            {"stack_name": "s1", "template": TEMPLATE, "environment": {"bogus": {}}},
            'Environment not in valid format: environment has wrong section "bogus"',
        ),
        (
            {"stack_name": "s1", "template": TEMPLATE, "environment": {"parameters": None}},
            'Environment not in valid format: environment has empty section "parameters"',
        ),
        (
            {"stack_name": "s1", "template": TEMPLATE, "timeout_mins": -1},
            "Value '-1' is invalid for 'timeout_mins' which only accepts non-negative integer.",
        ),
        (
            {"stack_name": "s1", "template": TEMPLATE, "converge": True},
            "converge flag only supported in stack update (or update preview) request.",
        ),
        (
            {"stack_name": "s1", "template": TEMPLATE, "tags": "x" * 81},
            'Invalid tag, "%s" is longer than 80 characters' % ("x" * 81),
        ),
    ],
)
def test_create_rejects_bad_bodies(api, engine, body, message):
    resp = api.post_json("/v1/admin/stacks", body, status=400)
    assert error(resp) == ("HTTPBadRequest", message)
    assert engine.calls == []


def test_yaml_error_is_reported(api):
    resp = api.post_json("/v1/admin/stacks", {"stack_name": "s", "template": "foo: ["}, status=400)
    assert resp.json["error"]["message"].startswith(
        "Template not in valid format: Error parsing template [root stack] "
    )


def test_template_over_max_template_size_is_400(api, engine):
    template = dict(TEMPLATE, description="x" * CONF.max_template_size)
    resp = api.post_json("/v1/admin/stacks", {"stack_name": "s1", "template": template}, status=400)
    assert error(resp) == (
        "RequestLimitExceeded",
        "Request limit exceeded: Template size (%d bytes) exceeds maximum allowed size "
        "(%d bytes)." % (len(str(template)), CONF.max_template_size),
    )
    text = "heat_template_version: 2016-10-14\ndescription: %s\n" % ("x" * CONF.max_template_size)
    resp = api.post_json("/v1/admin/stacks", {"stack_name": "s1", "template": text}, status=400)
    assert error(resp)[0] == "RequestLimitExceeded"
    assert engine.calls == []


def test_stack_exists_is_409(api):
    create(api)
    resp = api.post_json("/v1/admin/stacks", {"stack_name": "s1", "template": TEMPLATE}, status=409)
    assert error(resp) == ("StackExists", "The Stack (s1) already exists.")


def test_stack_validation_failed_is_400(api):
    resp = api.post_json(
        "/v1/admin/stacks", {"stack_name": "1bad", "template": TEMPLATE}, status=400
    )
    assert resp.json["code"] == 400
    assert resp.json["title"] == "Bad Request"
    # the status mapping only: the message is the FakeEngine's (the real engine's is
    # checked by tests/integration/test_cli_stack.py)
    assert error(resp)[0] == "StackValidationFailed"


# -- lookup ---------------------------------------------------------------------


def test_get_by_name_or_id_redirects(api):
    stack_id = create(api).json["stack"]["id"]
    for key in ("s1", stack_id):
        resp = api.get("/v1/admin/stacks/%s?resolve_outputs=False" % key, status=302)
        assert resp.headers["Location"] == "%s/s1/%s?resolve_outputs=False" % (URL, stack_id)
        assert resp.content_type == "text/plain"


def test_subpath_lookup_redirects(api):
    stack_id = create(api).json["stack"]["id"]
    resp = api.get("/v1/admin/stacks/s1/events?sort_dir=asc", status=302)
    assert resp.headers["Location"] == "%s/s1/%s/events?sort_dir=asc" % (URL, stack_id)


def test_arn_lookup_needs_no_engine(api, engine):
    arn = "arn:openstack:heat::admin:stacks/s9/some-id"
    resp = api.get("/v1/admin/stacks/%s" % arn, status=302)
    assert resp.headers["Location"] == URL + "/s9/some-id"
    assert engine.calls == []


def test_lookup_of_unknown_stack_is_404(api):
    resp = api.get("/v1/admin/stacks/nope", status=404)
    assert resp.json == {
        "code": 404,
        "title": "Not Found",
        "explanation": "The resource could not be found.",
        "error": {
            "type": "EntityNotFound",
            "message": "The Stack (nope) could not be found.",
            "traceback": None,
        },
    }


# -- list, show, delete --------------------------------------------------------


def test_list_shows_summaries(api, engine):
    stack_id = create(api, tags="t1").json["stack"]["id"]
    stacks = api.get("/v1/admin/stacks").json["stacks"]
    assert stacks == [
        {
            "id": stack_id,
            "stack_name": "s1",
            "description": "",
            "links": [{"href": "%s/s1/%s" % (URL, stack_id), "rel": "self"}],
            "project": "admin",
            "stack_status": "CREATE_COMPLETE",
            "stack_status_reason": "Stack CREATE completed successfully",
            "creation_time": "2026-11-25T22:01:01Z",
            "updated_time": None,
            "deletion_time": None,
            "stack_owner": "admin",
            "parent": None,
            "stack_user_project_id": "admin",
            "tags": ["t1"],
        }
    ]


def test_list_parameters_reach_the_engine(api, engine):
    create(api)
    api.get("/v1/admin/stacks?limit=5&show_deleted=True&tags=a,b&name=s1&status=COMPLETE")
    _method, call = engine.calls[-1]
    assert call == {
        "limit": 5,
        "marker": None,
        "show_deleted": True,
        "tags": ["a", "b"],
        "filters": {"name": "s1", "status": "COMPLETE"},
    }


def test_list_next_link_and_count(api):
    first = create(api, name="s1").json["stack"]["id"]
    create(api, name="s2")
    body = api.get("/v1/admin/stacks?limit=1&with_count=true").json
    assert [s["id"] for s in body["stacks"]] == [first]
    assert body["count"] == 2
    assert body["links"] == [
        {
            "rel": "next",
            "href": "http://localhost/v1/admin/stacks?limit=1&with_count=true&marker=" + first,
        }
    ]


def test_list_rejects_non_boolean_flags(api):
    resp = api.get("/v1/admin/stacks?show_deleted=x", status=400)
    assert error(resp) == (
        "HTTPBadRequest",
        'Unrecognized value "x" for "show_deleted", acceptable values are: true, false.',
    )


def test_show_formats_the_stack(api, engine):
    stack_id = create(api, parameters={"p": "y"}).json["stack"]["id"]
    stack = api.get("/v1/admin/stacks/s1/%s" % stack_id).json["stack"]
    assert stack["id"] == stack_id
    assert stack["links"] == [{"href": "%s/s1/%s" % (URL, stack_id), "rel": "self"}]
    assert stack["stack_status"] == "CREATE_COMPLETE"
    assert "stack_action" not in stack and "stack_identity" not in stack
    assert stack["parameters"]["p"] == "y"
    assert stack["outputs"] == [
        {"output_key": "o", "description": "No description given", "output_value": "out"}
    ]
    api.get("/v1/admin/stacks/s1/%s?resolve_outputs=false" % stack_id)
    assert engine.calls[-1] == (
        "show_stack",
        {
            "stack_identity": {
                "tenant": "admin",
                "stack_name": "s1",
                "stack_id": stack_id,
                "path": "",
            },
            "resolve_outputs": False,
        },
    )


def test_show_with_wrong_name_is_404(api):
    stack_id = create(api).json["stack"]["id"]
    resp = api.get("/v1/admin/stacks/other/%s" % stack_id, status=404)
    assert error(resp) == ("EntityNotFound", "The Stack (other) could not be found.")


def test_template_and_outputs(api):
    stack_id = create(api).json["stack"]["id"]
    base = "/v1/admin/stacks/s1/%s" % stack_id
    assert api.get(base + "/template").json == TEMPLATE
    assert api.get(base + "/outputs").json == {
        "outputs": [{"output_key": "o", "description": "No description given"}]
    }
    assert api.get(base + "/outputs/o").json["output"]["output_value"] == "out"
    resp = api.get(base + "/outputs/zz", status=404)
    assert error(resp)[0] == "NotFound"  # the message is the FakeEngine's


def test_delete_by_name_redirects_then_204(api, engine):
    stack_id = create(api).json["stack"]["id"]
    resp = api.delete("/v1/admin/stacks/s1", status=302)
    assert resp.headers["Location"] == "%s/s1/%s" % (URL, stack_id)
    resp = api.delete("/v1/admin/stacks/s1/%s" % stack_id, status=204)
    assert resp.body == b""
    assert engine.stacks == {}
    api.delete("/v1/admin/stacks/s1/%s" % stack_id, status=404)


@pytest.mark.parametrize(
    "raised, status, type_",
    [
        (exception.EntityNotFound(entity="Stack", name="s1"), 404, "EntityNotFound"),
        (exception.StackExists(stack_name="s1"), 409, "StackExists"),
        (exception.StackValidationFailed(message="bad"), 400, "StackValidationFailed"),
        (exception.ActionInProgress(stack_name="s1", action="CREATE"), 409, "ActionInProgress"),
        (exception.Forbidden(action="x"), 403, "Forbidden"),
        (exception.ResourceNotFound(resource_name="r", stack_name="s1"), 404, "ResourceNotFound"),
        (exception.NotSupported(feature="It"), 400, "NotSupported"),
        (ValueError("v"), 400, "ValueError"),
    ],
)
def test_engine_exceptions_map_to_status_codes(api, engine, raised, status, type_):
    stack_id = create(api).json["stack"]["id"]
    engine.failures["show_stack"] = raised
    resp = api.get("/v1/admin/stacks/s1/%s" % stack_id, status=status)
    assert resp.json["code"] == status
    assert resp.json["error"]["type"] == type_
    if isinstance(raised, exception.HeatException):
        assert resp.json["error"]["message"] == str(raised)
