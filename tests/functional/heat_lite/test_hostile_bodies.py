"""Hostile request bodies against heat-lite-api: each a 400 in Heat's format, never a 500
or a traceback, and a body over ``max_json_body_size`` read no further than the limit."""

import io
import json

import pytest
import webob

from heat_lite.conf import CONF

pytestmark = pytest.mark.functional

TEMPLATE = {"heat_template_version": "2016-10-14", "resources": {}}
NUL = "Invalid input: the request contains a NUL character."
DEEP = "[" * 10000 + "]" * 10000


class CountingReader(io.BytesIO):
    """A request's input that counts the bytes the service read of it."""

    def __init__(self, data):
        super().__init__(data)
        self.taken = 0

    def read(self, size=-1):
        data = super().read(size)
        self.taken += len(data)
        return data


def heat_error(resp, code, error_type, message):
    assert resp.status_int == code, resp.body
    assert resp.content_type == "application/json"
    assert resp.json == {
        "code": code,
        "title": resp.json["title"],
        "explanation": resp.json["explanation"],
        "error": {"type": error_type, "traceback": None, "message": message},
    }
    assert "Traceback" not in resp.text


def _send(api, body, length=True, **environ):
    req = webob.Request.blank("/v1/admin/stacks", method="POST")
    reader = CountingReader(body)
    req.environ.update({"wsgi.input": reader, "CONTENT_TYPE": "application/json"}, **environ)
    if length:
        req.environ["CONTENT_LENGTH"] = str(len(body))
    else:
        req.environ.pop("CONTENT_LENGTH", None)
        req.environ["HTTP_TRANSFER_ENCODING"] = "chunked"
        req.environ["wsgi.input_terminated"] = True  # a server that reads chunked input
    return req.get_response(api.app), reader


def _big_body():
    limit = CONF.max_json_body_size
    files = {"f%d" % i: "x" * limit for i in range(8)}  # 8 times the limit
    return json.dumps({"stack_name": "big", "template": TEMPLATE, "files": files}).encode()


def test_a_body_over_the_limit_is_refused_on_its_first_byte(api, engine):
    body = _big_body()
    resp, reader = _send(api, body)
    heat_error(
        resp,
        400,
        "RequestLimitExceeded",
        "Request limit exceeded: JSON body size (%d bytes) exceeds maximum allowed size "
        "(%d bytes)." % (len(body), CONF.max_json_body_size),
    )
    assert reader.taken == 1
    assert engine.calls == []


def test_a_body_without_a_length_is_read_to_the_limit_only(api, engine):
    limit = CONF.max_json_body_size
    resp, reader = _send(api, _big_body(), length=False)
    heat_error(
        resp,
        400,
        "RequestLimitExceeded",
        "Request limit exceeded: JSON body size (more than %d bytes) exceeds maximum allowed "
        "size (%d bytes)." % (limit, limit),
    )
    assert reader.taken == limit + 1
    assert engine.calls == []


def test_a_body_without_a_length_within_the_limit_is_served(api, engine):
    body = json.dumps({"stack_name": "chunked", "template": TEMPLATE}).encode()
    resp, _ = _send(api, body, length=False)
    assert resp.status_int == 201, resp.body
    assert [name for name, _ in engine.calls] == ["create_stack"]


def test_a_large_body_that_is_no_json_is_not_read(api, engine):
    """Heat's handlers ignore a body that does not start with '{': it is dropped unread."""
    body = b"x" * (4 * CONF.max_json_body_size)
    resp, reader = _send(api, body, CONTENT_TYPE="text/plain")
    assert reader.taken == 1
    heat_error(
        resp,
        400,
        "HTTPBadRequest",
        "The server could not comply with the request since it is either malformed or "
        "otherwise incorrect.",
    )


@pytest.mark.parametrize("content_type", ["application/json", "text/plain", ""])
def test_json_10000_deep_is_400(api, engine, content_type):
    body = ('{"stack_name": "deep", "template": %s}' % DEEP).encode()
    resp, _ = _send(api, body, CONTENT_TYPE=content_type)
    assert resp.status_int == 400, resp.body
    assert resp.json["error"]["type"] in ("RequestLimitExceeded", "HTTPBadRequest")
    assert "nested more than 100 levels deep" in resp.json["error"]["message"]
    assert engine.calls == []


@pytest.mark.parametrize(
    "doc",
    [
        {"stack_name": "a\u0000b", "template": TEMPLATE},
        {"stack_name": "s", "template": TEMPLATE, "parameters": {"p": "v\u0000"}},
        {"stack_name": "s", "template": TEMPLATE, "parameters": {"p\u0000": "v"}},
        {"stack_name": "s", "template": TEMPLATE, "tags": ["t\u0000"]},
        {"stack_name": "s", "template": TEMPLATE, "files": {"f": ["deep", {"x": "\u0000"}]}},
    ],
)
def test_a_nul_in_a_json_string_is_400(api, engine, doc):
    resp, _ = _send(api, json.dumps(doc).encode())
    heat_error(resp, 400, "HTTPBadRequest", NUL)
    assert engine.calls == []


def test_a_raw_nul_byte_is_no_json(api, engine):
    resp, _ = _send(api, b'{"stack_name": "a\x00b", "template": {}}')
    message = "Invalid control character at: line 1 column 18 (char 17)"
    heat_error(resp, 400, "HTTPBadRequest", message)


def test_an_escaped_backslash_before_u0000_is_no_nul(api, engine):
    """The text ``\\u0000`` (a backslash, then u0000) is six characters, no NUL."""
    params = {"p": "\\u0000"}
    body = json.dumps({"stack_name": "s", "template": TEMPLATE, "parameters": params})
    assert b"\\\\u0000" in body.encode()
    resp, _ = _send(api, body.encode())
    assert resp.status_int == 201, resp.body


@pytest.mark.parametrize("path", ["/v1/admin/stacks/a%00b", "/v1/admin/stacks?name=a%00b"])
def test_a_nul_in_the_path_or_query_is_400(api, engine, path):
    resp = api.get(path, expect_errors=True)
    heat_error(resp, 400, "HTTPBadRequest", NUL)
    assert engine.calls == []
