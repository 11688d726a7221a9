"""Bad input through the real API and engine processes: 400 with Heat's error body,
never a 500, and nothing stored."""

import json

import pytest
import requests

pytestmark = pytest.mark.integration

HOT = "2018-08-31"


def _resources(resources, **extra):
    return dict({"heat_template_version": HOT, "resources": resources}, **extra)


CASES = {
    "bad version": (
        {"heat_template_version": "2099-01-01", "resources": {}},
        "InvalidTemplateVersion",
        'The template version is invalid: "heat_template_version: 2099-01-01".',
    ),
    "unknown section": (
        {"heat_template_version": HOT, "bogus": {}},
        "InvalidTemplateSection",
        "The template section is invalid: bogus",
    ),
    "unknown resource type": (
        _resources({"r": {"type": "OS::No::Such"}}),
        "StackValidationFailed",
        "The Resource Type (OS::No::Such) could not be found.",
    ),
    "missing required property": (
        _resources({"v": {"type": "OS::Heat::Value"}}),
        "StackValidationFailed",
        "Property value not assigned",
    ),
    "bad parameter value": (
        _resources(
            {"r": {"type": "OS::Heat::None"}},
            parameters={
                "n": {"type": "number", "default": 1, "constraints": [{"range": {"max": 3}}]}
            },
        ),
        "StackValidationFailed",
        "Parameter 'n' is invalid",
    ),
    "cycle": (
        _resources(
            {
                "a": {"type": "OS::Heat::None", "depends_on": ["b"]},
                "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
            }
        ),
        "CircularDependencyException",
        "Circular Dependency Found",
    ),
}


def _post(heat, body):
    return requests.post(
        heat.endpoint + "/stacks",
        data=json.dumps(body),
        headers={"Content-Type": "application/json"},
        timeout=30,
    )


@pytest.mark.parametrize("case", sorted(CASES))
def test_invalid_template_gives_400(heat, case):
    template, error_type, message = CASES[case]
    body = {"stack_name": "bad", "template": template}
    if case == "bad parameter value":
        body["parameters"] = {"n": "7"}
    resp = _post(heat, body)
    assert resp.status_code == 400, resp.text
    err = resp.json()
    assert err["code"] == 400 and err["title"] == "Bad Request"
    assert err["error"]["type"] == error_type
    assert message in err["error"]["message"]
    assert err["error"]["traceback"] is None
    assert requests.get(heat.endpoint + "/stacks", timeout=30).json()["stacks"] == []


def test_oversize_body_and_template(heat):
    resp = requests.post(
        heat.endpoint + "/stacks",
        data="{" + " " * (1 << 20) + "}",
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert resp.status_code == 400
    assert "JSON body size" in resp.json()["error"]["message"]
    big = _resources({"r": {"type": "OS::Heat::None", "metadata": {"pad": "x" * 600000}}})
    resp = _post(heat, {"stack_name": "big", "template": json.dumps(big)})
    assert resp.status_code == 400
    assert "Template size" in resp.json()["error"]["message"]


def test_malformed_json_and_yaml(heat):
    resp = requests.post(
        heat.endpoint + "/stacks",
        data="{not json",
        headers={"Content-Type": "application/json"},
        timeout=30,
    )
    assert resp.status_code == 400
    resp = _post(heat, {"stack_name": "y", "template": "heat_template_version: [unclosed"})
    assert resp.status_code == 400
    assert resp.json()["error"]["message"]
