"""Hostile input through the API and the real engine: a 400 with a clear message, fast,
and nothing stored. Each case prints its time to answer (bounded by construction, not
asserted) and the time another project's ``GET /stacks`` took right after it.

The cases: YAML alias bombs in the template, the environment and ``files``; data nested
900+ deep in JSON and YAML; functions nested 400 deep; a yaql expression of 8 million
steps; nested ``str_replace`` and ``repeat`` that multiply their input.
"""

import json
import time

import pytest

from tests.fixtures.hostile import (
    HOT,
    LATE_N,
    LATE_YAQL,
    REPEAT_BOMB,
    YAQL_BOMB,
    alias_bomb,
    nested_functions,
    str_replace_bomb,
    value_template,
)
from tests.functional.heat_lite.api_engine.helpers import wait_stack

pytestmark = pytest.mark.functional

P = "/v1/admin"
OTHER = {"X-Auth-Project": "other-project", "X-Auth-User": "other"}


def post_timed(api, body=None, text=None, headers=None):
    """POST /stacks; the response and the seconds it took, then another project's GET."""
    start = time.monotonic()
    if text is None:
        text = json.dumps(body)
    resp = api.post(
        P + "/stacks",
        text,
        content_type="application/json",
        headers=headers,
        expect_errors=True,
    )
    took = time.monotonic() - start
    start = time.monotonic()
    other = api.get("/v1/other-project/stacks", headers=OTHER)
    other_took = time.monotonic() - start
    assert other.status_int == 200
    return resp, took, other_took


def assert_refused(api, body=None, text=None, error_type=None, message=None, name=""):
    stacks_before = {s["id"] for s in api.get(P + "/stacks").json["stacks"]}
    resp, took, other_took = post_timed(api, body, text)
    print(
        "\n%s: %s in %.3f s; another project's GET /stacks then took %.3f s"
        % (name, resp.status, took, other_took)
    )
    print("  message: %s" % resp.json["error"]["message"][:300])
    assert resp.status_int == 400, resp.text[:1000]
    if error_type:
        assert resp.json["error"]["type"] == error_type
    if message:
        assert message in resp.json["error"]["message"]
    assert {s["id"] for s in api.get(P + "/stacks").json["stacks"]} <= stacks_before
    return resp.json["error"]["message"]


# -- 7: YAML alias bombs ----------------------------------------------------------------


def test_alias_bomb_template(api):
    text = "heat_template_version: %s\n%s" % (HOT, alias_bomb())
    assert len(text) < 600
    assert_refused(
        api,
        {"stack_name": "bomb", "template": text},
        error_type="RequestLimitExceeded",
        message="Template size with its YAML aliases expanded (",
        name="alias bomb in template",
    )


def test_alias_bomb_environment(api):
    env = "parameter_defaults:\n" + alias_bomb("  ")
    body = {"stack_name": "bomb", "template": value_template("x"), "environment": env}
    assert_refused(
        api,
        body,
        error_type="RequestLimitExceeded",
        message="Environment size with its YAML aliases expanded (",
        name="alias bomb in environment",
    )


def test_alias_bomb_environment_file(api):
    env = "parameter_defaults:\n" + alias_bomb("  ")
    body = {
        "stack_name": "bomb",
        "template": value_template("x"),
        "files": {"env.yaml": env},
        "environment_files": ["env.yaml"],
    }
    assert_refused(
        api,
        body,
        error_type="RequestLimitExceeded",
        message="Environment size with its YAML aliases expanded (",
        name="alias bomb in an environment file",
    )


def test_alias_bomb_nested_template_file(api):
    child = "heat_template_version: %s\n%s" % (HOT, alias_bomb())
    template = {
        "heat_template_version": HOT,
        "resources": {"n": {"type": "child.yaml"}},
    }
    body = {"stack_name": "bomb", "template": template, "files": {"child.yaml": child}}
    message = assert_refused(
        api, body, message="Template size with its YAML aliases expanded (", name="alias bomb file"
    )
    assert message.strip()


# -- 9: deep nesting --------------------------------------------------------------------


def test_json_body_nested_900_deep(api):
    text = '{"stack_name": "deep", "template": {"heat_template_version": "%s", "x": %s1%s}}' % (
        HOT,
        "[" * 900,
        "]" * 900,
    )
    assert_refused(
        api, text=text, message="nested more than 100 levels deep", name="JSON nested 900 deep"
    )


def test_json_body_nested_5000_deep(api):
    text = '{"stack_name": "deep", "parameters": {"p": %s1%s}}' % ("[" * 5000, "]" * 5000)
    assert_refused(
        api, text=text, message="nested more than 100 levels deep", name="JSON nested 5000 deep"
    )


@pytest.mark.parametrize("depth", [900, 5000])
def test_yaml_template_nested_deep(api, depth):
    text = "heat_template_version: %s\nx: %s1%s\n" % (HOT, "[" * depth, "]" * depth)
    assert_refused(
        api,
        {"stack_name": "deep", "template": text},
        message="Template not in valid format: Error parsing template [root stack]: "
        "data nested more than 100 levels deep",
        name="YAML nested %d deep" % depth,
    )


def test_functions_nested_400_deep(api):
    body = json.dumps({"stack_name": "deep", "template": value_template("VALUE")})
    text = body.replace('"VALUE"', '{"list_join": ["", [' * 400 + '"x"' + "]]}" * 400)
    assert_refused(
        api,
        text=text,
        message="nested more than 100 levels deep",
        name="functions nested 400 deep",
    )


def test_functions_nested_to_the_limit_work(api):
    # 31 functions of three levels each under the 6 levels of body and template
    resp, took, _ = post_timed(
        api, {"stack_name": "deep-ok", "template": value_template(nested_functions(31))}
    )
    print("\nfunctions nested 31 deep: %s in %.3f s" % (resp.status, took))
    assert resp.status_int == 201, resp.text[:1000]
    api.delete(resp.headers["Location"])


# -- 8: unbounded evaluation ------------------------------------------------------------


def test_nested_str_replace(api):
    assert_refused(
        api,
        {"stack_name": "big", "template": value_template(str_replace_bomb())},
        error_type="StackValidationFailed",
        message="Property error: : resources.v.properties.value: : Request limit exceeded: The "
        "value of str_replace (",
        name="7 nested str_replace",
    )


def test_nested_str_replace_in_an_output(api):
    template = {
        "heat_template_version": HOT,
        "resources": {},
        "outputs": {"o": {"value": str_replace_bomb()}},
    }
    assert_refused(
        api,
        {"stack_name": "big-output", "template": template},
        message="The value of str_replace (",
        name="7 nested str_replace in an output",
    )


def test_repeat_over_three_lists(api):
    assert_refused(
        api,
        {"stack_name": "big-repeat", "template": value_template(REPEAT_BOMB)},
        error_type="StackValidationFailed",
        message="Request limit exceeded: The value of repeat (",
        name="repeat over 3 x 200 items",
    )


def test_list_join_with_a_long_delimiter(api):
    value = {"list_join": ["d" * 10000, [str(i) for i in range(2000)]]}
    assert_refused(
        api,
        {"stack_name": "big-join", "template": value_template(value)},
        message="Request limit exceeded: The value of list_join (",
        name="list_join with a 10 kB delimiter",
    )


def test_yaql_bomb(api):
    value = {"yaql": {"expression": YAQL_BOMB}}
    assert_refused(
        api,
        {"stack_name": "cpu", "template": value_template(value)},
        error_type="StackValidationFailed",
        message="took more than",
        name="yaql of 8 million steps",
    )


def test_values_within_the_limits_work(api):
    value = {
        "list_join": [
            ",",
            [
                {"str_replace": {"template": "x" * 1000, "params": {"x": "yy"}}},
                {"yaql": {"expression": "str(range(100).select($ * 2).sum())"}},
            ],
            {"repeat": {"template": "<%a%>", "for_each": {"<%a%>": ["1", "2"]}}},
        ]
    }
    resp, took, _ = post_timed(api, {"stack_name": "fine", "template": value_template(value)})
    assert resp.status_int == 201, resp.text[:1000]
    api.delete(resp.headers["Location"])


@pytest.mark.parametrize(
    "value, reason",
    [
        (
            {"yaql": {"expression": LATE_YAQL, "data": {"n": LATE_N}}},
            "The yaql expression took more than 1.0 seconds of CPU time to evaluate.",
        ),
        (
            {
                "repeat": {
                    "template": "<%a%><%b%><%c%>",
                    "for_each": {"<%a%>": LATE_N, "<%b%>": LATE_N, "<%c%>": LATE_N},
                }
            },
            "The value of repeat (",
        ),
    ],
    ids=["yaql", "repeat"],
)
def test_bound_hit_when_a_resource_gives_the_data(api, value, reason):
    """A value that waits for another resource cannot be checked at validation: the
    worker that resolves it stops at the same bound and the resource fails."""
    template = value_template(value)
    template["resources"]["n"] = {
        "type": "OS::Heat::Value",
        "properties": {"value": [str(i) for i in range(200)], "type": "json"},
    }
    start = time.monotonic()
    body = {"stack_name": "late-%d" % len(reason), "template": template}
    location = api.post_json(P + "/stacks", body).location
    stack = wait_stack(api, location, "CREATE_IN_PROGRESS", timeout=60)
    took = time.monotonic() - start
    print("\nbound hit in a worker: %s after %.2f s" % (stack["stack_status"], took))
    print("  reason: %s" % stack["stack_status_reason"])
    assert stack["stack_status"] == "CREATE_FAILED"
    assert reason in stack["stack_status_reason"]
    api.delete(location)
