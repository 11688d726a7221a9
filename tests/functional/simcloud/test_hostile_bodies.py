"""Hostile requests to simcloud-api: bodies past [oslo_middleware] max_request_body_size
(with a length or without), JSON nested 10,000 deep, a NUL in a path: each a 4xx in the
service's own format; image data (Glance's) is not bounded so."""

import json

import pytest
import webob

TOO_LARGE = "Request is too large. Larger than max_request_body_size (114688)."
C = "/compute/v2.1"

pytestmark = pytest.mark.functional


def _keypair_body(size):
    return json.dumps({"keypair": {"name": "k", "public_key": "x" * size}}).encode()


def test_a_20_mb_body(simcloud):
    resp = simcloud.app.post(
        C + "/os-keypairs",
        _keypair_body(20_000_000),
        headers={"X-Auth-Token": simcloud.token(), "Content-Type": "application/json"},
        expect_errors=True,
    )
    assert resp.status_int == 413
    assert resp.json == {"overLimit": {"code": 413, "message": TOO_LARGE}}


def test_a_body_without_a_length_is_cut_at_the_limit(simcloud):
    headers = {"X-Auth-Token": simcloud.token(), "Content-Type": "application/json"}
    req = webob.Request.blank(
        "/networking/v2.0/networks", method="POST", headers=headers, body=_keypair_body(200_000)
    )
    del req.environ["CONTENT_LENGTH"]
    req.environ["wsgi.input_terminated"] = True
    resp = req.get_response(simcloud.app.app)
    assert resp.status_int == 413
    assert resp.json["NeutronError"]["message"] == TOO_LARGE


def test_json_nested_10000_deep(simcloud):
    resp = simcloud.app.post(
        C + "/servers",
        b"[" * 10000 + b"]" * 10000,
        headers={"X-Auth-Token": simcloud.token(), "Content-Type": "application/json"},
        expect_errors=True,
    )
    assert resp.status_int == 400
    assert resp.json["badRequest"]["message"] == (
        "Malformed request body: the JSON is nested too deeply."
    )


def test_nul_in_a_path(simcloud):
    resp = simcloud.get(C + "/servers/ab%00cd")
    assert resp.status_int == 400
    assert resp.json["badRequest"]["message"] == (
        "Invalid input: the path contains a NUL character."
    )


def test_image_data_is_not_bounded_by_the_limit(simcloud):
    image = simcloud.post(
        "/image/v2/images",
        {"name": "big", "disk_format": "raw", "container_format": "bare"},
        status=201,
    ).json
    data = b"x" * 300_000
    resp = simcloud.app.put(
        "/image/v2/images/%s/file" % image["id"],
        data,
        headers={"X-Auth-Token": simcloud.token(), "Content-Type": "application/octet-stream"},
    )
    assert resp.status_int == 204
    assert simcloud.get("/image/v2/images/%s" % image["id"], status=200).json["size"] == 300_000


NUL_IN_BODY = "Invalid input: the request body contains a NUL character."
NUL_IN_QUERY = "Invalid input: the query contains a NUL character."


@pytest.mark.parametrize(
    "path,body,error_key",
    [
        ("/networking/v2.0/networks", {"network": {"name": "a\u0000b"}}, "NeutronError"),
        (C + "/os-keypairs", {"keypair": {"name": "k\u0000"}}, "badRequest"),
        ("/volume/v3/volumes", {"volume": {"size": 1, "name": "v", "metadata": {"k\u0000": "v"}}},
         "badRequest"),
        ("/identity/v3/users", {"user": {"name": "u", "description": ["x", {"y": "\u0000"}]}},
         "error"),
    ],
)  # fmt: skip
def test_nul_in_a_json_string_is_400_on_postgresql(simcloud_pg, path, body, error_key):
    """PostgreSQL stores no NUL: such a string is refused before any handler reads it."""
    resp = simcloud_pg.app.post(
        path,
        json.dumps(body).encode(),
        headers={"X-Auth-Token": simcloud_pg.token(), "Content-Type": "application/json"},
        expect_errors=True,
    )
    assert resp.status_int == 400, resp.body
    assert NUL_IN_BODY in json.dumps(resp.json[error_key])


def test_nul_in_a_query_is_400_on_postgresql(simcloud_pg):
    resp = simcloud_pg.get("/networking/v2.0/networks?name=a%00b")
    assert resp.status_int == 400, resp.body
    assert resp.json["NeutronError"]["message"] == NUL_IN_QUERY
