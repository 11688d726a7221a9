"""Path errors as heat-api answers them: the exception crossed RPC and was rebuilt from
its formatted parts, so Heat 27 doubles the separators ("Property error: : <path>: : <msg>").
Every expected text below is what the reference Heat 27.0.1 answered to the same request.
The in-process transport hands back the engine's own exception; the API rebuilds it as
a broker would, so the answer is the same (tests/integration/test_hostile_input.py checks
one over RabbitMQ)."""

import json

import pytest
import yaml

pytestmark = pytest.mark.functional

P = "/v1/admin"
BAD = yaml.safe_dump(
    {
        "heat_template_version": "2018-08-31",
        "resources": {"inner": {"type": "OS::Heat::TestResource", "properties": {"foo": 1}}},
    }
)


def _hot(resources):
    return {"heat_template_version": "2018-08-31", "resources": resources}


@pytest.mark.parametrize(
    "path, resources, message",
    [
        (
            "/stacks",
            {"two": {"type": "OS::Heat::TestResource", "properties": {"value": {"a": 1}}}},
            "Property error: : resources.two.properties.value: : "
            "Value must be a string; got {'a': 1}",
        ),
        (
            "/stacks/preview",
            {"two": {"type": "OS::Heat::TestResource", "properties": {"value": {"a": 1}}}},
            "Property error: : resources.two.properties.value: : "
            "Value must be a string; got {'a': 1}",
        ),
        (
            "/stacks",
            {"nest": {"type": "file:///bad.yaml"}},
            "Property error: : resources.nest<file:///bad.yaml>.resources.inner.properties: : "
            "Unknown Property foo",
        ),
        (
            "/stacks",
            {
                "grp": {
                    "type": "OS::Heat::ResourceGroup",
                    "properties": {"count": 1, "resource_def": {"type": "file:///bad.yaml"}},
                }
            },
            "Property error: : resources.grp<nested_stack>.resources.0<file:///bad.yaml>."
            "resources.inner.properties: : Unknown Property foo",
        ),
    ],
)
def test_path_errors_answer_as_heat(api, path, resources, message):
    body = {"stack_name": "e1", "template": _hot(resources), "files": {"file:///bad.yaml": BAD}}
    resp = api.post(P + path, json.dumps(body), content_type="application/json", expect_errors=True)
    assert resp.status_int == 400
    assert resp.json["error"]["type"] == "StackValidationFailed"
    assert resp.json["error"]["message"] == message
    assert api.get(P + "/stacks").json["stacks"] == []
