"""Read-only endpoints through the API and the real engine: template versions and
functions, resource types, validate, preview, stack outputs/environment/files,
build info and services. Expected bodies are the ones Heat 27 returns for the same
requests (captured from the reference Heat where they do not depend on plugin data).
"""

import re

import pytest
import webtest

from heat_lite.api import app as api_app
from heat_lite.common import exception
from tests.functional.heat_lite.api_engine.helpers import create_stack

pytestmark = pytest.mark.functional

P = "/v1/admin"
HOT = {"heat_template_version": "2018-08-31"}

ERROR_400 = (
    "The server could not comply with the request since it is either malformed or "
    "otherwise incorrect."
)


def _error(resp):
    return resp.json["error"]["type"], resp.json["error"]["message"]


# -- template versions and functions ------------------------------------------------------


def test_template_versions(api):
    versions = api.get(P + "/template_versions").json["template_versions"]
    assert versions[:3] == [
        {"version": "AWSTemplateFormatVersion.2010-09-09", "type": "cfn", "aliases": []},
        {"version": "HeatTemplateFormatVersion.2012-12-12", "type": "cfn", "aliases": []},
        {"version": "heat_template_version.2013-05-23", "type": "hot", "aliases": []},
    ]
    assert {
        "version": "heat_template_version.2016-10-14",
        "type": "hot",
        "aliases": ["heat_template_version.newton"],
    } in versions
    assert versions[-1] == {
        "version": "heat_template_version.2021-04-16",
        "type": "hot",
        "aliases": ["heat_template_version.wallaby"],
    }
    assert len(versions) == 13


def test_template_functions(api):
    url = P + "/template_versions/heat_template_version.2016-04-08/functions"
    functions = api.get(url).json["template_functions"]
    assert {"functions": "get_file", "description": "A function for including a file inline."} in (
        functions
    )
    names = [f["functions"] for f in functions]
    assert names[:4] == ["get_attr", "get_file", "get_param", "get_resource"]

    url = P + "/template_versions/heat_template_version.2016-10-14/functions"
    plain = [f["functions"] for f in api.get(url).json["template_functions"]]
    with_cond = api.get(url + "?with_condition_func=true").json["template_functions"]
    assert "equals" not in plain
    assert {
        "functions": "equals",
        "description": "A function for comparing whether two values are equal.",
    } in with_cond


def test_template_functions_errors(api):
    resp = api.get(P + "/template_versions/bogus/functions", status=404)
    assert _error(resp) == ("NotFound", "Template with version bogus not found")
    url = P + "/template_versions/heat_template_version.2016-10-14/functions"
    resp = api.get(url + "?with_condition_func=maybe", status=400)
    assert _error(resp) == (
        "HTTPBadRequest",
        'Unrecognized value "maybe" for "with_condition_func", acceptable values are: true, false.',
    )


# -- resource types -----------------------------------------------------------------------

# the OpenStack types served by the simulated cloud, then Heat's own (sorted, as Heat lists;
# OS::Neutron::LBaaS::* are hidden, as in Heat 27)
OPENSTACK_TYPES = [
    "OS::Cinder::Volume",
    "OS::Cinder::VolumeAttachment",
]
OPENSTACK_TYPES_AFTER_HEAT = [
    "OS::Neutron::FloatingIP",
    "OS::Neutron::Net",
    "OS::Neutron::Port",
    "OS::Neutron::Router",
    "OS::Neutron::RouterInterface",
    "OS::Neutron::SecurityGroup",
    "OS::Neutron::SecurityGroupRule",
    "OS::Neutron::Subnet",
    "OS::Nova::KeyPair",
    "OS::Nova::Server",
    "OS::Nova::ServerGroup",
    "OS::Octavia::HealthMonitor",
    "OS::Octavia::Listener",
    "OS::Octavia::LoadBalancer",
    "OS::Octavia::Pool",
    "OS::Octavia::PoolMember",
]
HEAT_TYPES = [
    "OS::Heat::None",
    "OS::Heat::RandomString",
    "OS::Heat::ResourceGroup",
    "OS::Heat::SoftwareConfig",
    "OS::Heat::SoftwareDeployment",
    "OS::Heat::SoftwareDeploymentGroup",
    "OS::Heat::Stack",
    "OS::Heat::StructuredConfig",
    "OS::Heat::StructuredDeployment",
    "OS::Heat::StructuredDeploymentGroup",
    "OS::Heat::TestResource",
    "OS::Heat::Value",
]
TYPES = OPENSTACK_TYPES + HEAT_TYPES + OPENSTACK_TYPES_AFTER_HEAT


def test_resource_types_list_and_filters(api):
    def listed(query=""):
        return api.get(P + "/resource_types" + query).json["resource_types"]

    assert listed() == TYPES
    assert listed("?name=OS::Heat::Ra.*") == ["OS::Heat::RandomString"]
    assert listed("?name=Heat") == []  # matched from the start
    assert listed("?name=[") == []  # not a regex: nothing
    assert listed("?support_status=SUPPORTED") == TYPES
    assert listed("?support_status=DEPRECATED") == []
    assert listed("?version=bogus") == []
    described = listed("?name=OS::Heat::None&with_description=true")
    assert [d["resource_type"] for d in described] == ["OS::Heat::None"]
    assert set(described[0]) == {"resource_type", "description"}

    resp = api.get(P + "/resource_types?support_status=bogus", status=400)
    assert _error(resp) == (
        "Invalid",
        "Data supplied was not valid: Invalid support status and should be one of "
        "('UNKNOWN', 'SUPPORTED', 'DEPRECATED', 'UNSUPPORTED', 'HIDDEN')",
    )
    api.post_json(P + "/resource_types", {}, status=405)


def test_resource_schema(api):
    schema = api.get(P + "/resource_types/OS::Heat::RandomString").json
    assert set(schema) == {"resource_type", "properties", "attributes", "support_status"}
    assert schema["resource_type"] == "OS::Heat::RandomString"
    # Heat's JSON schema form, as the reference Heat shows it
    assert schema["properties"]["length"] == {
        "type": "integer",
        "description": "Length of the string to generate.",
        "default": 32,
        "required": False,
        "constraints": [{"range": {"min": 1, "max": 512}}],
        "update_allowed": False,
        "immutable": False,
    }
    item = schema["properties"]["character_sequences"]["schema"]["*"]
    assert item["type"] == "map"
    assert (item["required"], item["update_allowed"], item["immutable"]) == (False, False, False)
    assert item["schema"]["sequence"] == {
        "type": "string",
        "description": "A character sequence and its corresponding min constraint to "
        "generate the random string from.",
        "required": True,
        "update_allowed": False,
        "immutable": False,
    }
    assert schema["attributes"]["show"] == {
        "description": "Detailed information about resource.",
        "type": "map",
    }
    assert schema["support_status"]["status"] == "SUPPORTED"
    assert set(schema["support_status"]) == {"status", "message", "version", "previous_status"}

    test_resource = api.get(P + "/resource_types/OS::Heat::TestResource").json
    assert test_resource["properties"]["wait_secs"]["default"] == 0  # the gabbi check
    value = api.get(P + "/resource_types/OS::Heat::Value").json
    assert value["properties"]["value"]["type"] == "any"

    # Heat never hands the query string to this handler: no description is added
    none = api.get(P + "/resource_types/OS::Heat::None?with_description=true").json
    assert none["properties"] == {} and "description" not in none

    resp = api.get(P + "/resource_types/OS::Heat::Nope", status=404)
    assert _error(resp) == (
        "EntityNotFound",
        "The Resource Type (OS::Heat::Nope) could not be found.",
    )


def test_generate_template(api):
    url = P + "/resource_types/OS::Heat::None/template"
    assert api.get(url).json == {
        "HeatTemplateFormatVersion": "2012-12-12",
        "Description": "Initial template of NoneResource",
        "Parameters": {},
        "Resources": {"NoneResource": {"Type": "OS::Heat::None", "Properties": {}}},
        "Outputs": {
            "show": {
                "Value": {"Fn::GetAtt": ["NoneResource", "show"]},
                "Description": "Detailed information about resource.",
            },
            "OS::stack_id": {"Value": {"Ref": "NoneResource"}},
        },
    }
    hot = api.get(P + "/resource_types/OS::Heat::RandomString/template?template_type=HOT")
    tmpl = hot.json
    assert tmpl["heat_template_version"] == "2016-10-14"
    assert tmpl["resources"] == {
        "RandomString": {
            "type": "OS::Heat::RandomString",
            "properties": {
                name: {"get_param": name}
                for name in ("length", "character_classes", "character_sequences", "salt")
            },
        }
    }
    assert tmpl["parameters"]["length"] == {
        "type": "number",
        "description": "Length of the string to generate.",
        "default": 32,
        "constraints": [{"range": {"min": 1, "max": 512}}],
    }
    assert tmpl["parameters"]["character_classes"]["type"] == "comma_delimited_list"
    assert tmpl["outputs"]["OS::stack_id"] == {"value": {"get_resource": "RandomString"}}
    cfn = api.get(P + "/resource_types/OS::Heat::TestResource/template").json
    assert cfn["Parameters"]["fail"]["AllowedValues"] == ["True", "true", "False", "false"]
    assert cfn["Resources"]["TestResource"]["Properties"]["value"] == {"Ref": "value"}

    resp = api.get(url + "?template_type=bogus", status=400)
    assert _error(resp) == (
        "HTTPBadRequest",
        'Template type is not supported: Invalid template type "bogus", valid types are: cfn, hot.',
    )
    resp = api.get(P + "/resource_types/OS::Heat::Nope/template", status=404)
    assert resp.json["error"]["type"] == "EntityNotFound"
    # A property of type Any has no parameter type: Heat fails with a bare KeyError (500);
    # heat-lite never answers a 500 for a valid request, and gives it a json parameter
    value = api.get(P + "/resource_types/OS::Heat::Value/template").json
    assert value["Parameters"]["value"]["Type"] == "Json"


# -- validate -----------------------------------------------------------------------------

VALIDATE_BODY = {
    "template": {
        "heat_template_version": "2018-08-31",
        "description": "demo tmpl",
        "parameter_groups": [{"label": "g1", "description": "grp", "parameters": ["p", "n"]}],
        "parameters": {
            "p": {
                "type": "string",
                "default": "x",
                "label": "P label",
                "description": "a p",
                "constraints": [
                    {"length": {"min": 1, "max": 5}, "description": "len desc"},
                    {"allowed_pattern": "[a-z]+"},
                ],
            },
            "n": {
                "type": "number",
                "constraints": [
                    {"range": {"min": 1}},
                    {"modulo": {"step": 2, "offset": 1}, "description": "odd"},
                    {"allowed_values": [1, 3, 5]},
                ],
            },
            "l": {"type": "comma_delimited_list", "default": "a,b", "tags": ["t1"]},
            "j": {"type": "json", "default": {"k": 1}, "hidden": True},
            "b": {"type": "boolean", "default": False, "immutable": True},
            "c": {"type": "string", "constraints": [{"custom_constraint": "nova.flavor"}]},
        },
        "resources": {
            "r": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "p"}}}
        },
        "outputs": {"o": {"value": {"get_attr": ["r", "output"]}}},
    },
    "parameters": {"n": 3, "p": "abc"},
    "environment": {
        "parameter_defaults": {"c": "m1"},
        "resource_registry": {"My::T": "OS::Heat::None"},
    },
}

# what the reference Heat 27 answers to VALIDATE_BODY
VALIDATE_RESULT = {
    "Description": "demo tmpl",
    "Parameters": {
        "p": {
            "Type": "String",
            "Description": "a p",
            "NoEcho": "false",
            "Label": "P label",
            "Default": "x",
            "Value": "abc",
            "MinLength": 1,
            "MaxLength": 5,
            "AllowedPattern": "[a-z]+",
            "ConstraintDescription": "len desc",
        },
        "n": {
            "Type": "Number",
            "Description": "",
            "NoEcho": "false",
            "Label": "n",
            "Value": 3,
            "MinValue": 1,
            "Step": 2,
            "Offset": 1,
            "AllowedValues": [1, 3, 5],
            "ConstraintDescription": "odd",
        },
        "l": {
            "Type": "CommaDelimitedList",
            "Description": "",
            "NoEcho": "false",
            "Label": "l",
            "Default": "a,b",
            "Tags": ["t1"],
        },
        "j": {
            "Type": "Json",
            "Description": "",
            "NoEcho": "true",
            "Label": "j",
            "Default": {"k": 1},
        },
        "b": {
            "Type": "Boolean",
            "Description": "",
            "NoEcho": "false",
            "Label": "b",
            "Default": False,
        },
        "c": {
            "Type": "String",
            "Description": "",
            "NoEcho": "false",
            "Label": "c",
            "Default": "m1",
            "CustomConstraint": "nova.flavor",
        },
    },
    "ParameterGroups": [{"label": "g1", "description": "grp", "parameters": ["p", "n"]}],
    "Environment": {
        "resource_registry": {"resources": {}, "My::T": "OS::Heat::None"},
        "parameters": {"n": 3, "p": "abc"},
        "parameter_defaults": {"c": "m1"},
        "event_sinks": [],
    },
}


def test_validate_result(api):
    assert api.post_json(P + "/validate", VALIDATE_BODY).json == VALIDATE_RESULT
    nested = api.post_json(P + "/validate?show_nested=true", VALIDATE_BODY).json
    assert nested == VALIDATE_RESULT


def test_validate_checks_structure_not_values(api):
    # values are not checked: a bad number, a missing required property, an unknown get_param
    body = {
        "template": dict(
            HOT,
            parameters={"p": {"type": "number"}},
            resources={
                "v": {"type": "OS::Heat::Value"},
                "t": {
                    "type": "OS::Heat::TestResource",
                    "properties": {"wait_secs": "abc", "value": {"get_param": "nope"}},
                },
            },
        ),
        "parameters": {"p": "abc"},
    }
    result = api.post_json(P + "/validate", body).json
    assert result["Description"] == "No description"
    assert result["Parameters"] == {
        "p": {"Type": "Number", "Description": "", "NoEcho": "false", "Label": "p", "Value": "abc"}
    }


def test_validate_environment_files(api):
    body = {
        "template": dict(HOT, parameters={"p": {"type": "string", "default": "d"}}),
        "files": {
            "env.yaml": "parameters: {p: fromfile}\nresource_registry: {'X::Y': OS::Heat::None}\n"
        },
        "environment_files": ["env.yaml"],
        "environment": {"parameters": {"p": "ignored"}},
    }
    result = api.post_json(P + "/validate", body).json
    assert result["Parameters"]["p"]["Value"] == "fromfile"
    assert result["Environment"]["resource_registry"] == {"resources": {}, "X::Y": "OS::Heat::None"}


@pytest.mark.parametrize(
    "body, error",
    [
        (
            {"template": dict(HOT, resources={"r": {"type": "OS::Nope"}})},
            ("HTTPBadRequest", "The Resource Type (OS::Nope) could not be found."),
        ),
        (
            {"template": dict(HOT, resources={"r": {"type": "OS::Heat::None", "bogus": 1}})},
            ("HTTPBadRequest", '"bogus" is not a valid keyword inside a resource definition'),
        ),
        (
            {
                "template": dict(
                    HOT,
                    resources={"r": {"type": "OS::Heat::TestResource", "properties": {"bogus": 1}}},
                )
            },
            ("HTTPBadRequest", "Property error: resources.r.properties: Unknown Property bogus"),
        ),
        (
            {"template": dict(HOT, bogus={})},
            ("HTTPBadRequest", "The template section is invalid: bogus"),
        ),
        (
            {
                "template": dict(
                    HOT,
                    parameters={"p": {"type": "string"}},
                    parameter_groups=[{"label": "g", "parameters": ["q"]}],
                )
            },
            (
                "HTTPBadRequest",
                "Parameter Groups error: parameter_groups.g: The grouped parameter q does "
                "not reference a valid parameter.",
            ),
        ),
        (
            {
                "template": dict(
                    HOT,
                    parameters={"p": {"type": "string"}},
                    resources={"p": {"type": "OS::Heat::None"}},
                )
            },
            ("HTTPBadRequest", "Duplicate names {'p'}"),
        ),
        (
            {
                "template": dict(
                    HOT,
                    resources={"a": {"type": "OS::Heat::TestResource"}},
                    outputs={"o": {"value": {"get_attr": ["a", "nope"]}}},
                )
            },
            (
                "HTTPBadRequest",
                "outputs.o.value.get_attr: The Referenced Attribute (a nope) is incorrect.",
            ),
        ),
        (
            {
                "template": dict(
                    HOT,
                    resources={
                        "r": {
                            "type": "OS::Heat::TestResource",
                            "properties": {"value": {"get_resource": "nope"}},
                        }
                    },
                )
            },
            (
                "InvalidTemplateReference",
                'The specified reference "nope" (in r.Properties.value) is incorrect.',
            ),
        ),
        (
            {"template": dict(HOT, parameters={"p": {"type": "bogus"}})},
            ("InvalidSchemaError", "Invalid type (bogus)"),
        ),
        (
            {"template": HOT, "parameters": {"zz": "abc"}},
            ("UnknownUserParameter", "The Parameter (zz) was not defined in template."),
        ),
        ({}, ("HTTPBadRequest", "No template specified")),
    ],
)
def test_validate_errors(api, body, error):
    assert _error(api.post_json(P + "/validate", body, status=400)) == error


def test_validate_request_errors(api):
    resp = api.post(P + "/validate", status=400)  # no body at all
    assert _error(resp) == ("HTTPBadRequest", ERROR_400)
    resp = api.post_json(P + "/validate?show_nested=maybe", {"template": HOT}, status=400)
    assert resp.json["error"]["message"].startswith('Unrecognized value "maybe" for "show_nested"')
    resp = api.get(P + "/validate", status=405)
    assert resp.headers["Allow"] == "POST"
    # Heat's engine answers unknown ignore_errors codes with a webob error object that
    # reaches the client as a string, with a 200
    resp = api.post_json(P + "/validate?ignore_errors=123", {"template": HOT})
    assert re.match(r"^<HTTPBadRequest at 0x[0-9a-f]+ 400 Bad Request>$", resp.json)
    assert "Parameters" in api.post_json(P + "/validate?ignore_errors=99001", {"template": HOT})


# -- preview ------------------------------------------------------------------------------


def test_preview(api):
    body = {
        "stack_name": "prev",
        "template": {
            "heat_template_version": "2016-10-14",
            "description": "prev d",
            "parameters": {
                "p": {"type": "string", "default": "x"},
                "h": {"type": "string", "hidden": True, "default": "s"},
            },
            "resources": {
                "r": {
                    "type": "OS::Heat::TestResource",
                    "properties": {"value": {"get_param": "p"}},
                    "metadata": {"m": 1},
                },
                "n": {
                    "type": "OS::Heat::None",
                    "properties": {"a": {"get_attr": ["r", "output"]}},
                },
            },
            "outputs": {"o": {"value": {"get_attr": ["r", "output"]}}},
        },
        "parameters": {"p": "y"},
        "timeout_mins": 7,
        "tags": "a,b",
    }
    stack = api.post_json(P + "/stacks/preview", body).json["stack"]
    assert stack["id"] == "None"
    assert stack["links"] == [{"href": "http://localhost/v1/admin/stacks/prev/None", "rel": "self"}]
    assert "stack_status" not in stack and "stack_status_reason" not in stack
    assert stack["parameters"] == {
        "OS::stack_id": "None",
        "OS::project_id": "admin",
        "OS::stack_name": "prev",
        "p": "y",
        "h": "******",
    }
    assert (stack["timeout_mins"], stack["tags"], stack["stack_user_project_id"]) == (
        7,
        ["a", "b"],
        None,
    )
    assert stack["outputs"] == [
        {"output_key": "o", "description": "No description given", "output_value": None}
    ]
    resources = {r["resource_name"]: r for r in stack["resources"]}
    r = resources["r"]
    assert r["resource_identity"] == {
        "tenant": "admin",
        "stack_name": "prev",
        "stack_id": "None",
        "path": "/resources/r",
    }
    assert (r["resource_action"], r["resource_status"], r["physical_resource_id"]) == (
        "INIT",
        "COMPLETE",
        "",
    )
    assert (r["creation_time"], r["updated_time"], r["required_by"]) == (None, None, ["n"])
    assert (r["metadata"], r["attributes"]) == ({"m": 1}, {"output": None})
    assert r["properties"]["value"] == "y" and r["properties"]["wait_secs"] == 0
    assert resources["n"]["properties"] == {} and resources["n"]["attributes"] == {}
    # nothing was stored
    assert "prev" not in [s["stack_name"] for s in api.get(P + "/stacks").json["stacks"]]


def test_preview_errors(api):
    body = {"stack_name": "1bad", "template": HOT}
    resp = api.post_json(P + "/stacks/preview", body, status=400)
    assert resp.json["error"]["type"] == "StackValidationFailed"
    resp = api.post_json(P + "/stacks/preview", {"template": HOT}, status=400)
    assert _error(resp) == ("HTTPBadRequest", "No stack name specified")
    # GET is a stack lookup by the name "preview", as in Heat
    resp = api.get(P + "/stacks/preview", status=404)
    assert resp.json["error"]["message"] == "The Stack (preview) could not be found."


# -- one stack: outputs, environment, files, template -------------------------------------

STACK = {
    "stack_name": "info1",
    "template": {
        "heat_template_version": "2016-10-14",
        "parameters": {
            "p": {"type": "string", "default": "x"},
            "secret": {"type": "string", "hidden": True, "default": "s"},
        },
        "resources": {
            "r": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "p"}}}
        },
        "outputs": {
            "o": {"value": {"get_attr": ["r", "output"]}, "description": "out o"},
            "nodesc": {"value": {"get_param": "secret"}},
        },
    },
    "parameters": {"p": "y", "secret": "hush"},
    "environment": {"parameter_defaults": {"secret": "dd", "other": "v"}},
    "files": {"a.txt": "hello"},
}


@pytest.fixture(scope="module")
def stack_url(wsgi_app):
    return create_stack(webtest.TestApp(wsgi_app), STACK)


def test_outputs(api, stack_url):
    assert api.get(stack_url + "/outputs").json == {
        "outputs": [
            {"output_key": "o", "description": "out o"},
            {"output_key": "nodesc", "description": "No description given"},
        ]
    }
    assert api.get(stack_url + "/outputs/o").json == {
        "output": {"output_key": "o", "description": "out o", "output_value": "y"}
    }
    assert api.get(stack_url + "/outputs/nodesc").json["output"]["output_value"] == "hush"
    resp = api.get(stack_url + "/outputs/nope", status=404)
    assert _error(resp) == ("NotFound", "Specified output key nope not found.")
    # outputs are not redirected: by name only, "outputs" is taken for the stack id
    resp = api.get(P + "/stacks/info1/outputs", status=404)
    assert resp.json["error"]["message"] == "The Stack (info1) could not be found."


def test_environment_files_template(api, stack_url):
    env = api.get(stack_url + "/environment").json
    assert env == {
        "parameters": {"p": "y", "secret": "******"},
        "parameter_defaults": {"secret": "******", "other": "v"},
        "resource_registry": {"resources": {}},
        "encrypted_param_names": [],
        "event_sinks": [],
    }
    assert api.get(stack_url + "/files").json == {"a.txt": "hello"}
    assert api.get(stack_url + "/template").json == STACK["template"]
    for sub in ("environment", "files", "template"):  # by name: 302 to the stack's URL
        resp = api.get(P + "/stacks/info1/" + sub, status=302)
        assert resp.location == stack_url + "/" + sub
    resp = api.get(stack_url.replace("info1", "other") + "/environment", status=404)
    assert resp.json["error"]["message"] == "The Stack (other) could not be found."


# -- build info and services --------------------------------------------------------------


def test_build_info(api):
    expected = {"api": {"revision": "unknown"}, "engine": {"revision": "unknown"}}
    assert api.get(P + "/build_info").json == expected
    member = {"X-Project-Id": "p1", "X-Roles": "member"}
    assert api.get("/v1/p1/build_info", headers=member).json == expected


def test_services(api, heat):
    services = api.get(P + "/services").json["services"]
    assert len(services) == 1
    service = services[0]
    assert set(service) == {
        "id",
        "engine_id",
        "host",
        "hostname",
        "binary",
        "topic",
        "report_interval",
        "created_at",
        "updated_at",
        "deleted_at",
        "status",
    }
    assert (service["binary"], service["topic"], service["host"]) == (
        "heat-engine",
        "engine",
        "test-host",
    )
    assert (service["report_interval"], service["status"], service["deleted_at"]) == (
        60,
        "up",
        None,
    )
    assert re.match(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}$", service["created_at"])

    member = {"X-Project-Id": "p1", "X-Roles": "member,reader"}
    resp = api.get("/v1/p1/services", headers=member, status=403)
    assert _error(resp) == ("Forbidden", "You are not authorized to use service:index.")


class _EnginesDown:
    def list_services(self, ctx):
        raise exception.EngineUnavailable(reason="heat-lite-engine did not answer")


def test_services_all_engines_down(heat, expect_log_errors):
    api = webtest.TestApp(api_app.setup_app(engine_client=_EnginesDown()))
    expect_log_errors("Returning 503 to user: All heat engines are down.")
    resp = api.get(P + "/services", status=503)
    assert resp.json["title"] == "Service Unavailable"
    assert resp.json["error"] == {
        "type": "HTTPServiceUnavailable",
        "message": "All heat engines are down.",
        "traceback": None,
    }
