"""One service of simcloud-api: a URL table, authentication, microversions, error bodies.

Each service module (compute.py, network.py, ...) declares a ``Service`` with its table,
read top to bottom like Heat's route map:

    service = router.Service(
        "compute",
        routes=[
            ("GET", "v2.1/servers/{server_id}", show_server),
            ...
        ],
        public=[("GET", ""), ("GET", "v2.1")],       # version documents need no token
        render_error=nova_error,
    )

A request body is bounded by ``[oslo_middleware] max_request_body_size`` (oslo.middleware's
sizelimit, which Nova, Cinder and Keystone have in their pipelines): longer is a 413 in the
service's format, unread; one sent without a length is cut off at the limit. Routes in
``data_uploads`` (Glance's image data, which Glance does not bound so) are exempt.

A handler gets a ``Request`` and the captured ids and returns ``(status, body)`` (a
dict for JSON, None for no body) or a webob Response; it raises simcloud's exceptions
(common/exception.py) for errors, which the service renders in its own format.
"""

import datetime
import json
import logging
import time

import webob
import webob.exc
from oslo_middleware import sizelimit

from simcloud.cloud import injection
from simcloud.common import exception
from simcloud.conf import CONF
from simcloud.identity import catalog, tokens

LOG = logging.getLogger(__name__)


class Request:
    """What a handler sees: the webob request, the caller, the parsed body and query."""

    def __init__(self, raw, context, microversion=None):
        self.raw = raw
        self.context = context
        self.microversion = microversion
        self.params = raw.GET

    @property
    def body(self):
        """The JSON body (BadRequest when it is not JSON)."""
        text = self.raw.body
        if not text:
            raise exception.BadRequest("The request body is empty; a JSON object is required.")
        try:
            doc = json.loads(text)
        except RecursionError:
            raise exception.BadRequest(TOO_DEEP)
        except ValueError:
            raise exception.BadRequest("Malformed request body: the body is not valid JSON.")
        if b"\\u0000" in text and _holds_nul(doc):
            raise exception.BadRequest(NUL_IN_BODY)
        return doc

    def member(self, key):
        """``body[key]``, which must be a JSON object."""
        body = self.body
        if not isinstance(body, dict) or not isinstance(body.get(key), dict):
            raise exception.BadRequest("Invalid request body: '%s' object is required." % key)
        return body[key]

    def version_at_least(self, version):
        return self.microversion is not None and self.microversion >= parse_version(version)

    def url(self, path):
        return "%s/%s" % (catalog.base_url(), path.lstrip("/"))


def parse_version(text):
    major, _, minor = str(text).partition(".")
    try:
        return int(major), int(minor or 0)
    except ValueError:
        raise exception.BadRequest("Invalid API version %s." % text)


class Microversions:
    """A service's microversion range and headers (``OpenStack-API-Version: compute 2.60``)."""

    def __init__(self, service_type, minimum, maximum, legacy_header=None):
        self.service_type = service_type
        self.minimum, self.maximum = minimum, maximum
        self.legacy_header = legacy_header

    def requested(self, raw):
        text = None
        for value in raw.headers.get("OpenStack-API-Version", "").split(","):
            stype, _, version = value.strip().partition(" ")
            if stype == self.service_type:
                text = version.strip()
        if text is None and self.legacy_header:
            text = raw.headers.get(self.legacy_header)
        if not text:
            return parse_version(self.minimum)
        if text == "latest":
            return parse_version(self.maximum)
        version = parse_version(text)
        if not parse_version(self.minimum) <= version <= parse_version(self.maximum):
            raise VersionNotAcceptable(
                "Version %s is not supported by the API. Minimum is %s and maximum is %s."
                % (text, self.minimum, self.maximum)
            )
        return version

    def headers(self, version):
        text = "%d.%d" % version
        result = {
            "OpenStack-API-Version": "%s %s" % (self.service_type, text),
            "Vary": "OpenStack-API-Version",
        }
        if self.legacy_header:
            result[self.legacy_header] = text
            result["Vary"] += ", " + self.legacy_header
        return result


class VersionNotAcceptable(exception.SimcloudError):
    code = 406


def keystone_error(exc):
    """Keystone's error body, used for authentication failures everywhere."""
    titles = {
        400: "Bad Request",
        401: "Unauthorized",
        403: "Forbidden",
        404: "Not Found",
        409: "Conflict",
        406: "Not Acceptable",
        405: "Method Not Allowed",
    }
    code = getattr(exc, "code", 500)
    body = {
        "error": {
            "code": code,
            "message": exc.message if hasattr(exc, "message") else str(exc),
            "title": titles.get(code, "Internal Server Error"),
        }
    }
    response = json_response(code, body)
    if code == 401:
        response.headers["WWW-Authenticate"] = 'Keystone uri="%s/identity"' % catalog.base_url()
    return response


def _json_default(value):
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    raise TypeError("%r is not JSON serializable" % type(value))


def json_response(status, body, headers=None):
    response = webob.Response(status=status, headerlist=[])
    if body is not None:
        response.content_type = "application/json"
        response.charset = None
        response.body = json.dumps(body, default=_json_default).encode()
    for key, value in (headers or {}).items():
        response.headers[key] = value
    return response


def _match(pattern, segments):
    parts = [p for p in pattern.split("/") if p]
    if len(parts) != len(segments):
        return None
    captured = {}
    for part, segment in zip(parts, segments, strict=True):
        if part.startswith("{") and part.endswith("}"):
            captured[part[1:-1]] = segment
        elif part != segment:
            return None
    return captured


class Service:
    def __init__(self, name, routes, render_error, public=(), microversions=None, data_uploads=()):
        self.name = name
        self.routes = routes
        self.render_error = render_error
        self.public = set(public)
        self.microversions = microversions
        self.data_uploads = set(data_uploads)

    def resolve(self, method, segments):
        """(handler, captured, pattern) of the route; NotFound / 405 otherwise."""
        allowed = False
        for route_method, pattern, handler in self.routes:
            captured = _match(pattern, segments)
            if captured is None:
                continue
            if route_method == method:
                return handler, captured, pattern
            allowed = True
        if allowed:
            raise MethodNotAllowed("The method %s is not allowed for this resource." % method)
        raise exception.NotFound("The resource could not be found.")

    def dispatch(self, raw, segments):
        version = None
        try:
            delay = injection.latency(self.name)
            if delay:
                time.sleep(delay)
            if any("\x00" in segment for segment in segments):
                raise exception.BadRequest("Invalid input: the path contains a NUL character.")
            if "%00" in raw.query_string:
                raise exception.BadRequest(NUL_IN_QUERY)
            handler, captured, pattern = self.resolve(raw.method, segments)
            if (raw.method, pattern) not in self.data_uploads:
                limit_body(raw)
            context = None
            if (raw.method, pattern) not in self.public:
                try:
                    context = tokens.context(raw.headers.get("X-Auth-Token"))
                except exception.Unauthorized as exc:
                    return keystone_error(exc)
            if self.microversions is not None:
                version = self.microversions.requested(raw)
            result = handler(Request(raw, context, version), **captured)
        except exception.SimcloudError as exc:
            result = self.render_error(exc)
        except webob.exc.HTTPRequestEntityTooLarge:  # a body without a length, at the limit
            limit = CONF.oslo_middleware.max_request_body_size
            result = self.render_error(RequestEntityTooLarge(TOO_LARGE % limit))
        except Exception:
            LOG.exception("Unexpected error in %s %s", raw.method, raw.path)
            error = exception.SimcloudError(
                "The server has either erred or is incapable of performing the requested operation."
            )
            result = self.render_error(error)
        if not isinstance(result, webob.Response):
            status, body = result
            result = json_response(status, body)
        if version is not None:
            for key, value in self.microversions.headers(version).items():
                result.headers[key] = value
        return result


class MethodNotAllowed(exception.SimcloudError):
    code = 405


class RequestEntityTooLarge(exception.SimcloudError):
    code = 413


TOO_LARGE = "Request is too large. Larger than max_request_body_size (%d)."
TOO_DEEP = "Malformed request body: the JSON is nested too deeply."
# no column of PostgreSQL's stores a NUL: a string holding one reached the driver (a 500)
NUL_IN_BODY = "Invalid input: the request body contains a NUL character."
NUL_IN_QUERY = "Invalid input: the query contains a NUL character."


def _holds_nul(doc):
    """Whether a key or a string anywhere in ``doc`` (decoded JSON) holds a NUL."""
    pending = [doc]
    while pending:
        value = pending.pop()
        if isinstance(value, str):
            if "\x00" in value:
                return True
        elif isinstance(value, dict):
            pending.extend(value)
            pending.extend(value.values())
        elif isinstance(value, list):
            pending.extend(value)
    return False


def limit_body(raw):
    """RequestBodySizeLimiter's check, answered in the service's format: a body longer
    than max_request_body_size is refused unread; one sent without a length is read
    through oslo.middleware's LimitingReader, which raises at the limit."""
    limit = CONF.oslo_middleware.max_request_body_size
    if raw.content_length is None:
        raw.body_file = sizelimit.LimitingReader(raw.body_file, limit)
    elif raw.content_length > limit:
        raise RequestEntityTooLarge(TOO_LARGE % limit)


def paginate(items, params, key="id"):
    """``limit``/``marker`` paging: (page, whether more follow)."""
    marker = params.get("marker")
    if marker:
        ids = [item[key] for item in items]
        if marker not in ids:
            raise exception.BadRequest("marker [%s] not found" % marker)
        items = items[ids.index(marker) + 1 :]
    limit = params.get("limit")
    if limit is None or limit == "":
        return items, False
    try:
        limit = int(limit)
    except ValueError:
        raise exception.BadRequest("Invalid limit: %s" % limit)
    if limit < 0:
        raise exception.BadRequest("limit must be >= 0")
    return items[:limit], len(items) > limit
