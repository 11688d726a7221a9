"""Hostile requests to magnum-lite-api, each refused before anything parses or stores
it, with a 4xx in Magnum's error body: deep JSON, a body that is no object, NUL
characters, integers past their 32-bit columns, bodies past max_request_body_size."""

import json

import pytest
import webob

from magnum_lite.api.middleware import request_limits
from tests.functional.magnum_lite import fixtures
from tests.functional.magnum_lite.conftest import headers

pytestmark = pytest.mark.functional

JSON = dict(headers("p1"), **{"Content-Type": "application/json"})
TOO_DEEP = "Invalid JSON body: nested more than 32 levels deep."


@pytest.fixture
def ct(api):
    return fixtures.template("p1", name="ct", external_network_id="public")


def _refused(resp, status, detail):
    assert resp.status_int == status, resp.text
    assert resp.content_type == "application/json"
    assert resp.json["errors"] == [
        {
            "request_id": "",
            "code": "client",
            "status": status,
            "title": detail.split(".", 1)[0],
            "detail": detail,
            "links": [],
        }
    ]
    assert "Traceback" not in resp.text


def _post(api, body, path="/v1/clusters", method="POST"):
    data = body if isinstance(body, str) else json.dumps(body)
    return api.request(path, method=method, body=data.encode(), headers=JSON, expect_errors=True)


@pytest.mark.parametrize(
    "text", ["[" * 10000 + "]" * 10000, '{"a": ' * 10000 + "1" + "}" * 10000], ids=["[", "{"]
)
def test_json_nested_10000_deep(api, text):
    _refused(_post(api, text), 400, TOO_DEEP)


def test_json_nested_33_deep(api, ct):
    labels = {"a": {"b": 1}}
    for _ in range(30):
        labels = {"x": labels}
    _refused(_post(api, {"cluster_template_id": "ct", "labels": labels}), 400, TOO_DEEP)


@pytest.mark.parametrize("body", ["[1, 2]", '"text"', "3"])
def test_a_body_that_is_no_object(api, ct, body):
    _refused(_post(api, body), 400, "Invalid JSON body: a JSON object is required.")


def test_malformed_json_is_wsmes_400(api):
    resp = _post(api, '{"cluster_template_id": ')
    assert resp.status_int == 400 and "Traceback" not in resp.text


NUL = "Invalid input: the request contains a NUL character."


@pytest.mark.parametrize(
    "path", ["/v1/clusters/ab%00cd", "/v1/clustertemplates/ab%00cd", "/v1/clusters?marker=%00"]
)
def test_nul_in_the_url(api, path):
    _refused(api.get(path, headers=headers("p1"), expect_errors=True), 400, NUL)


@pytest.mark.parametrize(
    "body",
    [
        {"cluster_template_id": "ct", "keypair": "a\x00b"},
        {"cluster_template_id": "ct", "labels": {"a\x00": "b"}},
        {"cluster_template_id": "c\x00t"},
    ],
)
def test_nul_in_the_body(api, ct, body):
    _refused(_post(api, body), 400, NUL)


@pytest.mark.parametrize("field", ["node_count", "create_timeout", "docker_volume_size"])
@pytest.mark.parametrize("value", [2**63, 2**31])
def test_integers_past_their_column(api, ct, field, value):
    resp = _post(api, {"cluster_template_id": "ct", field: value})
    _refused(
        resp,
        400,
        "Invalid input for field/attribute %s. Value: '%d'. Value should be lower or equal "
        "to 2147483647" % (field, value),
    )


def test_template_and_nodegroup_integers_past_their_column(api, ct):
    body = {"name": "t2", "coe": "kubernetes", "image_id": "x", "docker_volume_size": 2**40}
    resp = _post(api, body, path="/v1/clustertemplates")
    assert resp.status_int == 400 and "lower or equal to 2147483647" in resp.text
    cluster = fixtures.cluster(ct, "p1", name="c1")
    path = "/v1/clusters/%s/nodegroups" % cluster.uuid
    resp = _post(api, {"name": "ng", "node_count": 2**40}, path=path)
    assert resp.status_int == 400 and "lower or equal to 2147483647" in resp.text


def test_an_id_past_the_column_is_not_found(api, ct):
    resp = api.get("/v1/clusters/%d" % 2**63, headers=headers("p1"), expect_errors=True)
    assert resp.status_int == 404
    assert resp.json["errors"][0]["detail"] == "Cluster %d could not be found." % 2**63


TOO_LARGE = "Request is too large. Larger than max_request_body_size (114688)."


def test_a_20_mb_body(api, ct):
    body = {"cluster_template_id": "ct", "labels": {"a": "x" * 20_000_000}}
    _refused(_post(api, body), 413, TOO_LARGE)


def test_100000_labels(api, ct):
    body = {"cluster_template_id": "ct", "labels": {"k%d" % i: "v" for i in range(100_000)}}
    _refused(_post(api, body), 413, TOO_LARGE)


def test_a_body_without_a_length_is_cut_at_the_limit(api, ct):
    """Sent chunked (no Content-Length): read up to the limit, then refused."""
    data = json.dumps({"cluster_template_id": "ct", "labels": {"a": "x" * 200_000}}).encode()
    req = webob.Request.blank("/v1/clusters", method="POST", headers=JSON, body=data)
    del req.environ["CONTENT_LENGTH"]
    req.environ["wsgi.input_terminated"] = True
    _refused(req.get_response(api.app), 413, TOO_LARGE)


def test_the_limit_is_configurable(api, ct, magnum_conf):
    magnum_conf.set_override("max_request_body_size", 100, group="oslo_middleware")
    try:
        resp = _post(api, {"cluster_template_id": "ct", "labels": {"a": "x" * 100}})
        _refused(resp, 413, request_limits.TOO_LARGE % 100)
    finally:
        magnum_conf.clear_override("max_request_body_size", group="oslo_middleware")
