"""What a request may be before the API reads it: each refusal is a wsme fault, which
ParsableErrorMiddleware words as Magnum's ``{"errors": [...]}``, answered before pecan
or wsme parse anything (in milliseconds, whatever the body).

- a body over ``[oslo_middleware] max_request_body_size`` (114688 bytes: oslo.middleware's
  RequestBodySizeLimiter, which OpenStack's APIs have in their pipelines; a body sent
  without a length is cut off there too): 413;
- a JSON body nested deeper than MAX_JSON_DEPTH levels: 400;
- a POST or PUT body that is JSON but not an object (every such body of the API is): 400;
- a NUL character in the path, the query or a string of the JSON body (no column can
  store one, and no name or id holds one): 400.

    app = RequestLimits(app, CONF)
"""

import json

import webob
import webob.exc
from oslo_middleware import sizelimit

MAX_JSON_DEPTH = 32
TOO_LARGE = "Request is too large. Larger than max_request_body_size (%d)."
TOO_DEEP = "Invalid JSON body: nested more than %d levels deep." % MAX_JSON_DEPTH
NOT_AN_OBJECT = "Invalid JSON body: a JSON object is required."
NUL = "Invalid input: the request contains a NUL character."
JSON_TYPES = ("application/json", "application/javascript")


def fault(status, message):
    """A wsme client fault (what a controller's error looks like to ParsableError)."""
    body = {"faultcode": "Client", "faultstring": message, "debuginfo": None}
    return webob.Response(status=status, json_body=body, content_type="application/json")


class RequestLimits:
    def __init__(self, app, conf):
        self.app = app
        self.limiter = sizelimit.RequestBodySizeLimiter(self._check_body, conf)

    def __call__(self, environ, start_response):
        req = webob.Request(environ)
        limit = self.limiter._conf_get("max_request_body_size")
        if req.content_length is not None and req.content_length > limit:
            return fault(413, TOO_LARGE % limit)(environ, start_response)
        if "\x00" in req.path_info or "%00" in req.query_string:
            return fault(400, NUL)(environ, start_response)
        return self.limiter(environ, start_response)

    def _check_body(self, environ, start_response):
        req = webob.Request(environ)
        if req.content_type in JSON_TYPES and (req.content_length or req.is_body_readable):
            try:
                error = _json_error(req.method, req.body)
            except webob.exc.HTTPRequestEntityTooLarge:
                limit = self.limiter._conf_get("max_request_body_size")
                error = fault(413, TOO_LARGE % limit)
            if error is not None:
                return error(environ, start_response)
        return self.app(environ, start_response)


def _json_error(method, body):
    """The refusal of a JSON ``body``, or None (a body that is no JSON is left to wsme,
    which answers it as Magnum does)."""
    try:
        doc = json.loads(body)
    except RecursionError:
        return fault(400, TOO_DEEP)
    except ValueError:
        return None
    if method in ("POST", "PUT") and not isinstance(doc, dict):
        return fault(400, NOT_AN_OBJECT)
    return _walk_error(doc)


def _walk_error(doc):
    """TOO_DEEP or NUL for what ``doc`` holds, or None (no recursion: any depth)."""
    pending = [(doc, 1)]
    while pending:
        value, depth = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return fault(400, NUL)
            continue
        if not isinstance(value, (dict, list)):
            continue
        if depth > MAX_JSON_DEPTH:
            return fault(400, TOO_DEEP)
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in items:
            pending.append((key, depth))
            pending.append((item, depth + 1))
    return None
