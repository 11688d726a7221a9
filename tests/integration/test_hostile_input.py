"""Hostile input against the real processes (PostgreSQL, RabbitMQ, two workers): a 400
with a clear message, and another project served promptly all the while.

Each case sends its request while a second thread keeps calling ``GET /stacks`` as
another project; the time to answer and the other project's slowest answer meanwhile
are printed (bounded by construction, not asserted). A case whose bound can only be hit
in a worker (the data comes from another resource) also has the other project create
and delete a stack meanwhile. No service may log a traceback.
"""

import json
import threading
import time

import pytest
import requests

from tests.fixtures.hostile import (
    HOT,
    LATE_N,
    LATE_YAQL,
    REPEAT_BOMB,
    YAQL_BOMB,
    alias_bomb,
    str_replace_bomb,
    value_template,
)

pytestmark = pytest.mark.integration
OTHER = {"X-Auth-Project": "other-project", "X-Auth-User": "other"}


class OtherProject(threading.Thread):
    """Calls ``GET /stacks`` as another project until stopped; records each latency."""

    def __init__(self, endpoint):
        super().__init__(daemon=True)
        self.url = endpoint.replace("/v1/admin", "/v1/other-project") + "/stacks"
        self.latencies = []
        self.stopping = threading.Event()

    def run(self):
        while not self.stopping.is_set():
            start = time.monotonic()
            resp = requests.get(self.url, headers=OTHER, timeout=120)
            self.latencies.append((time.monotonic() - start, resp.status_code))
            time.sleep(0.05)

    def __enter__(self):
        self.start()
        time.sleep(0.2)
        return self

    def __exit__(self, *exc):
        self.stopping.set()
        self.join()

    def summary(self):
        slowest = max(t for t, _ in self.latencies)
        assert {code for _, code in self.latencies} == {200}
        return "%d other-project GET /stacks meanwhile, slowest %.3f s" % (
            len(self.latencies),
            slowest,
        )


def post(heat, body=None, text=None):
    return requests.post(
        heat.endpoint + "/stacks",
        data=text if text is not None else json.dumps(body),
        headers={"Content-Type": "application/json"},
        timeout=120,
    )


def assert_no_traceback(heat):
    for name in heat.procs:
        assert "Traceback" not in heat.log(name), heat.log(name)[-3000:]


def refused(heat, name, body=None, text=None):
    with OtherProject(heat.endpoint) as other:
        start = time.monotonic()
        resp = post(heat, body, text)
        took = time.monotonic() - start
    message = resp.json()["error"]["message"] if resp.status_code >= 400 else resp.text
    print("\n%s: %s in %.3f s; %s" % (name, resp.status_code, took, other.summary()))
    print("  message: %s" % message[:300])
    assert resp.status_code == 400, resp.text[:1000]
    assert_no_traceback(heat)
    return message


def test_alias_bomb_template(heat):
    text = "heat_template_version: %s\n%s" % (HOT, alias_bomb())
    message = refused(heat, "alias bomb in template", {"stack_name": "bomb", "template": text})
    assert message.startswith(
        "Request limit exceeded: Template size with its YAML aliases expanded ("
    )


def test_alias_bomb_environment(heat):
    body = {
        "stack_name": "bomb",
        "template": value_template("x"),
        "environment": "parameter_defaults:\n" + alias_bomb("  "),
    }
    message = refused(heat, "alias bomb in environment", body)
    assert "Environment size with its YAML aliases expanded (" in message


def test_alias_bomb_file(heat):
    body = {
        "stack_name": "bomb",
        "template": {"heat_template_version": HOT, "resources": {"n": {"type": "child.yaml"}}},
        "files": {"child.yaml": "heat_template_version: %s\n%s" % (HOT, alias_bomb())},
    }
    message = refused(heat, "alias bomb in files", body)
    assert "Template size with its YAML aliases expanded (" in message


def test_yaql_bomb(heat):
    body = {"stack_name": "cpu", "template": value_template({"yaql": {"expression": YAQL_BOMB}})}
    message = refused(heat, "yaql of 8 million steps", body)
    assert message == (
        "Property error: : resources.v.properties.value: : Request limit exceeded: The yaql "
        "expression took more than 1.0 seconds of CPU time to evaluate."
    )


def test_nested_str_replace(heat):
    body = {"stack_name": "big", "template": value_template(str_replace_bomb())}
    message = refused(heat, "7 nested str_replace", body)
    assert "The value of str_replace (" in message


def test_repeat(heat):
    body = {"stack_name": "big", "template": value_template(REPEAT_BOMB)}
    message = refused(heat, "repeat over 3 x 200 items", body)
    assert "The value of repeat (" in message


def test_deep_json(heat):
    text = '{"stack_name": "deep", "parameters": {"p": %s1%s}}' % ("[" * 900, "]" * 900)
    message = refused(heat, "JSON nested 900 deep", text=text)
    assert message == "Request limit exceeded: JSON body nested more than 100 levels deep."


def test_deep_yaml(heat):
    text = "heat_template_version: %s\nx: %s1%s\n" % (HOT, "[" * 900, "]" * 900)
    message = refused(heat, "YAML nested 900 deep", {"stack_name": "deep", "template": text})
    assert message.endswith("data nested more than 100 levels deep")


def test_functions_nested_400_deep(heat):
    template = "heat_template_version: %s\nresources:\n  v:\n    type: OS::Heat::Value\n" % HOT
    template += "    properties:\n      value: %s'x'%s\n" % (
        "{list_join: ['', [" * 400,
        "]]}" * 400,
    )
    message = refused(heat, "functions nested 400 deep", {"stack_name": "d", "template": template})
    assert message.endswith("data nested more than 100 levels deep")


def _wait(heat, location, in_progress, headers=None, timeout=60):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stack = requests.get(location, headers=headers, timeout=30).json()["stack"]
        if stack["stack_status"] != in_progress:
            return stack
        time.sleep(0.1)
    raise AssertionError("%s still %s" % (location, in_progress))


def _other_project_stack(heat):
    """Create and delete a stack as another project; the seconds it took."""
    url = heat.endpoint.replace("/v1/admin", "/v1/other-project") + "/stacks"
    template = {"heat_template_version": HOT, "resources": {"r": {"type": "OS::Heat::None"}}}
    start = time.monotonic()
    resp = requests.post(url, json={"stack_name": "quick", "template": template}, headers=OTHER)
    assert resp.status_code == 201, resp.text
    stack = _wait(heat, resp.headers["Location"], "CREATE_IN_PROGRESS", headers=OTHER)
    assert stack["stack_status"] == "CREATE_COMPLETE"
    requests.delete(resp.headers["Location"], headers=OTHER, timeout=30)
    return time.monotonic() - start


def test_yaql_bomb_in_a_worker(heat):
    """The data comes from another resource: the worker evaluates it, stops at the
    bound, and the workers serve another project's stack meanwhile."""
    template = value_template({"yaql": {"expression": LATE_YAQL, "data": {"n": LATE_N}}})
    template["resources"]["n"] = {
        "type": "OS::Heat::Value",
        "properties": {"value": [str(i) for i in range(200)], "type": "json"},
    }
    with OtherProject(heat.endpoint) as other:
        start = time.monotonic()
        resp = post(heat, {"stack_name": "late", "template": template})
        assert resp.status_code == 201, resp.text
        time.sleep(0.5)  # the worker is evaluating now
        other_took = _other_project_stack(heat)
        stack = _wait(heat, resp.headers["Location"], "CREATE_IN_PROGRESS")
        took = time.monotonic() - start
    print(
        "\nyaql in a worker: %s after %.2f s; another project's stack created and deleted "
        "in %.2f s meanwhile; %s" % (stack["stack_status"], took, other_took, other.summary())
    )
    print("  reason: %s" % stack["stack_status_reason"])
    assert stack["stack_status"] == "CREATE_FAILED"
    assert (
        "The yaql expression took more than 1.0 seconds of CPU time"
        in (stack["stack_status_reason"])
    )
    requests.delete(resp.headers["Location"], timeout=30)
    assert_no_traceback(heat)


def _chain(fn, depth, leaf):
    for _ in range(depth):
        leaf = {fn: leaf}
    return leaf


def test_deep_within_the_limit_works(heat):
    """Functions nested one level each, 90 deep (inside the 100-level limit with the
    body's own levels): validated, created, resolved in the workers, shown, deleted."""
    template = {
        "heat_template_version": HOT,
        "conditions": {"c": _chain("not", 90, True)},
        "resources": {
            "r": {"type": "OS::Heat::Value", "properties": {"value": {"if": ["c", "a", "b"]}}}
        },
        "outputs": {"o": {"value": {"get_attr": ["r", "value"]}}},
    }
    resp = post(heat, {"stack_name": "deep-ok", "template": template})
    assert resp.status_code == 201, resp.text
    stack = _wait(heat, resp.headers["Location"], "CREATE_IN_PROGRESS")
    assert stack["stack_status"] == "CREATE_COMPLETE", stack["stack_status_reason"]
    assert stack["outputs"][0]["output_value"] == "a"
    requests.delete(resp.headers["Location"], timeout=30)
    stack = _wait(heat, resp.headers["Location"], "DELETE_IN_PROGRESS")
    assert stack["stack_status"] == "DELETE_COMPLETE"
    assert_no_traceback(heat)


def test_largest_yaml_template(heat):
    """Half a megabyte of YAML (parsed off the API's hub), refused by validation."""
    text = "heat_template_version: %s\nresources:\n" % HOT + "".join(
        "  r%d: {type: OS::Heat::None, properties: {a: b}}\n" % i for i in range(10000)
    )
    assert 500000 < len(text) < 524288
    message = refused(heat, "512 kB YAML template", {"stack_name": "large", "template": text})
    assert message == "Request limit exceeded: Maximum resources per stack exceeded."
