"""heat-lite-api: the WSGI application, built in code (Heat's paste pipeline, no paste).

    app = setup_app()                      # CONF already loaded by the console script
    app = setup_app(engine_client=fake)    # tests may inject the engine side

Pipeline, outermost first (Heat's ``request_id faultwrap noauth context
versionnegotiation apiv1app``; the context step is a pecan hook here):

    RequestId          x-openstack-request-id: req-<uuid> on every response
    FaultWrapper       every error -> {"code","title","explanation","error":{...}}
    NoAuth / keystone  identity headers (X-User-Id, X-Project-Id, X-Roles, ...)
    VersionNegotiation GET / -> 300 versions document; strips /v1
    JsonBodyLimit      JSON bodies over max_json_body_size (read no further), too deep,
                       or with a NUL -> 400; a NUL in the path or query -> 400
    pecan              ContextHook, then the v1 URL table (openstack/v1/__init__.py)
"""

import builtins
import functools
import json
import re
import traceback

import oslo_messaging
import pecan
import pecan.util
import webob
from oslo_log import log as logging
from oslo_middleware import request_id
from webob import exc

from heat_lite import conf as heat_conf
from heat_lite.api import hooks
from heat_lite.api.openstack import v1
from heat_lite.api.openstack.v1 import util
from heat_lite.common import exception, messaging, template_format
from heat_lite.rpc import client as rpc_client

# pecan.compat.getargspec builds a namedtuple class on every call, and pecan calls it
# several times a request: each function's argspec is built once (a bound method's is
# its function's).
_argspec = functools.lru_cache(maxsize=1024)(pecan.util._getargspec)
pecan.util._getargspec = lambda func: _argspec(getattr(func, "__func__", func))

LOG = logging.getLogger(__name__)


class FaultWrapper:
    """Turns exceptions (local, remote over RPC, or HTTP) into Heat's JSON error body.

    The status comes from the exception's class name or the name of any of its base
    classes (docs/heat-api.md §2); anything unmapped is a 500. ``error.message`` is
    only given for Heat's own and HTTP exceptions (Heat's ``safe`` ones), and the
    traceback only with ``debug = True``.
    """

    error_map = {
        "AttributeError": exc.HTTPBadRequest,
        "ActionInProgress": exc.HTTPConflict,
        "InvalidRestrictedAction": exc.HTTPConflict,
        "ValueError": exc.HTTPBadRequest,
        "EntityNotFound": exc.HTTPNotFound,
        "NotFound": exc.HTTPNotFound,
        "ResourceActionNotSupported": exc.HTTPBadRequest,
        "InvalidGlobalResource": exc.HTTPInternalServerError,
        "ResourceNotAvailable": exc.HTTPNotFound,
        "PhysicalResourceNameAmbiguity": exc.HTTPBadRequest,
        "PhysicalResourceIDAmbiguity": exc.HTTPBadRequest,
        "InvalidTenant": exc.HTTPForbidden,
        "Forbidden": exc.HTTPForbidden,
        "StackExists": exc.HTTPConflict,
        "StackValidationFailed": exc.HTTPBadRequest,
        "EngineUnavailable": exc.HTTPServiceUnavailable,
        "InvalidSchemaError": exc.HTTPBadRequest,
        "InvalidTemplateReference": exc.HTTPBadRequest,
        "InvalidTemplateVersion": exc.HTTPBadRequest,
        "InvalidTemplateSection": exc.HTTPBadRequest,
        "UnknownUserParameter": exc.HTTPBadRequest,
        "RevertFailed": exc.HTTPInternalServerError,
        "StopActionFailed": exc.HTTPInternalServerError,
        "EventSendFailed": exc.HTTPInternalServerError,
        "ServerBuildFailed": exc.HTTPInternalServerError,
        "InvalidEncryptionKey": exc.HTTPInternalServerError,
        "NotSupported": exc.HTTPBadRequest,
        "MissingCredentialError": exc.HTTPBadRequest,
        "UserParameterMissing": exc.HTTPBadRequest,
        "RequestLimitExceeded": exc.HTTPBadRequest,
        "DownloadLimitExceeded": exc.HTTPBadRequest,
        "Invalid": exc.HTTPBadRequest,
        "ResourcePropertyConflict": exc.HTTPBadRequest,
        "PropertyUnspecifiedError": exc.HTTPBadRequest,
        "ObjectFieldInvalid": exc.HTTPBadRequest,
        "ReadOnlyFieldError": exc.HTTPBadRequest,
        "ObjectActionError": exc.HTTPBadRequest,
        "IncompatibleObjectVersion": exc.HTTPBadRequest,
        "OrphanedObjectError": exc.HTTPBadRequest,
        "UnsupportedObjectError": exc.HTTPBadRequest,
        "ResourceTypeUnavailable": exc.HTTPBadRequest,
        "InvalidBreakPointHook": exc.HTTPBadRequest,
        "ImmutableParameterModified": exc.HTTPBadRequest,
        "CircularDependencyException": exc.HTTPBadRequest,
    }

    def __init__(self, app, conf):
        self.app = app
        self.conf = conf

    def __call__(self, environ, start_response):
        req = webob.Request(environ)
        try:
            resp = req.get_response(self.app)
        except Exception as e:
            resp = self.fault(e)
        else:
            # An HTTP error pecan rendered itself (not one of ours): reformat it.
            original = environ.get("pecan.original_exception")
            if isinstance(original, exc.HTTPError) and resp.status_int >= 400:
                resp = self.fault(original)
        return resp(environ, start_response)

    def status_for(self, class_names):
        for name in class_names:
            if name in self.error_map:
                return self.error_map[name]
        return exc.HTTPInternalServerError

    @staticmethod
    def _remote_class(name):
        """The class a RemoteError names, if it is one of ours or a builtin."""
        cls = getattr(exception, name, None) or getattr(builtins, name, None)
        return cls if isinstance(cls, type) and issubclass(cls, BaseException) else None

    @staticmethod
    def _as_received(ex):
        """``ex`` as heat-api receives it from the engine over a broker: rebuilt from its
        kwargs, as oslo.messaging rebuilds it. Over RabbitMQ that already happened (the
        class is ``<Name>_Remote``); the in-process transport hands back the engine's own
        object, so it is rebuilt here and both answer alike - with Heat's doubled separator
        for path errors ("Property error: : resources.a.properties.b: : msg")."""
        if type(ex).__name__.endswith("_Remote"):
            return ex
        try:
            return type(ex)(**ex.kwargs)
        except Exception:  # an exception that cannot be rebuilt answers as it is
            return ex

    def describe(self, ex):
        """(webob error class, error type, message or None, safe) for an exception."""
        if isinstance(ex, exception.HTTPExceptionDisguise):
            ex = ex.exc
        if isinstance(ex, exc.HTTPException):
            return type(ex), type(ex).__name__, str(ex), True
        if isinstance(ex, oslo_messaging.RemoteError):
            # An exception the transport could not rebuild: only its name came back.
            cls = self._remote_class(ex.exc_type)
            names = [c.__name__ for c in cls.__mro__] if cls else [ex.exc_type]
            safe = cls is not None and issubclass(cls, exception.HeatException)
            return self.status_for(names), ex.exc_type, ex.value, safe
        names = [c.__name__.removesuffix("_Remote") for c in type(ex).__mro__]
        if isinstance(ex, exception.HeatException):
            return self.status_for(names), names[0], self._as_received(ex).message, True
        message = str(ex)
        if type(ex).__name__.endswith("_Remote"):
            message = message.split("\n", 1)[0]
        return self.status_for(names), names[0], message, False

    def fault(self, ex):
        webob_exc, ex_type, message, safe = self.describe(ex)
        if isinstance(ex, exception.EngineUnavailable):
            LOG.warning("Returning 503 to user: %s", ex)  # an operational state, not a bug
        elif webob_exc.code >= 500:
            LOG.error("Returning %s to user: %s", webob_exc.code, ex, exc_info=ex)
        debug = "debug" in self.conf and self.conf.debug
        error = {
            "code": webob_exc.code,
            "title": webob_exc.title,
            "explanation": webob_exc.explanation,
            "error": {
                "type": ex_type,
                "traceback": "".join(traceback.format_exception(ex)) if debug else None,
            },
        }
        if safe:
            error["error"]["message"] = message
        resp = util.json_response(error, status=webob_exc.code)
        inner = ex.exc if isinstance(ex, exception.HTTPExceptionDisguise) else ex
        if isinstance(inner, exc.HTTPMethodNotAllowed) and inner.allow:
            resp.headers["Allow"] = ",".join(inner.allow)
        return resp


class NoAuthMiddleware:
    """Identity from request headers, Heat-noauth style, when there is no Keystone.

    Per field, the first present of: the keystone-style header (X-User-Id,
    X-Project-Id, X-Roles), Heat's noauth header (X-Auth-User, X-Auth-Project),
    then ``[noauth] default_user / default_project / default_roles`` (admin, admin,
    [admin]), so clients using ``--os-auth-type none`` work as Heat's noauth admin.
    """

    def __init__(self, app, conf):
        self.app = app
        self.conf = conf

    def __call__(self, environ, start_response):
        defaults = self.conf.noauth
        user = (
            environ.get("HTTP_X_USER_ID")
            or environ.get("HTTP_X_AUTH_USER")
            or defaults.default_user
        )
        project = (
            environ.get("HTTP_X_PROJECT_ID")
            or environ.get("HTTP_X_AUTH_PROJECT")
            or defaults.default_project
        )
        roles = environ.get("HTTP_X_ROLES") or ",".join(defaults.default_roles)
        environ.update(
            HTTP_X_IDENTITY_STATUS="Confirmed",
            HTTP_X_USER_ID=user,
            HTTP_X_PROJECT_ID=project,
            HTTP_X_ROLES=roles,
        )
        environ.setdefault("HTTP_X_USER_NAME", user)
        environ.setdefault("HTTP_X_PROJECT_NAME", project)
        return self.app(environ, start_response)


def versions_response(req):
    """300 with the one version Heat has."""
    doc = {
        "versions": [
            {
                "id": "v1.0",
                "status": "CURRENT",
                "links": [{"rel": "self", "href": "%s/v1/" % req.application_url}],
            }
        ]
    }
    resp = webob.Response(status=300, content_type="application/json", charset="UTF-8")
    resp.text = json.dumps(doc)
    return resp


class VersionNegotiation:
    """``/`` and ``/versions`` -> 300; ``/v1[.0]/...`` -> stripped; ``/vN`` -> 300.

    Without a version in the path only ``Accept: application/vnd.openstack.
    orchestration-v1.0`` gets through; everything else is 404.
    """

    version_uri_regex = re.compile(r"^v(\d+)\.?(\d+)?")
    accept_prefix = "application/vnd.openstack.orchestration-"

    def __init__(self, app):
        self.app = app

    def _is_v1_0(self, subject):
        """None: not a version string; else whether it names v1.0."""
        m = self.version_uri_regex.match(subject)
        if m is None:
            return None
        return (int(m.group(1)), int(m.group(2) or 0)) == (1, 0)

    def __call__(self, environ, start_response):
        req = webob.Request(environ)
        try:
            first = req.path_info_peek()
        except UnicodeDecodeError:
            raise exception.HTTPExceptionDisguise(exc.HTTPBadRequest())
        if first in ("versions", ""):
            return versions_response(req)(environ, start_response)
        is_v1 = self._is_v1_0(first)
        if is_v1:
            req.path_info_pop()
            return self.app(environ, start_response)
        if is_v1 is False:
            return versions_response(req)(environ, start_response)
        accept = req.headers.get("Accept", "")
        if accept.startswith(self.accept_prefix):
            if self._is_v1_0(accept[len(self.accept_prefix) :]) is False:
                return versions_response(req)(environ, start_response)
            return self.app(environ, start_response)
        raise exception.HTTPExceptionDisguise(exc.HTTPNotFound())


# the content types whose body pecan decodes itself while routing
JSON_CONTENT_TYPES = ("application/json", "application/javascript")
# the ones Heat reads a body of as JSON (util.is_json_content_type; none counts as JSON)
JSON_READ_TYPES = ("", "JSON", "text/plain", *JSON_CONTENT_TYPES)
NUL_REFUSED = "Invalid input: the request contains a NUL character."
READ_CHUNK = 65536


def _read_at_most(stream, size):
    """Up to ``size`` bytes of ``stream`` (fewer only at its end)."""
    parts, left = [], size
    while left > 0:
        part = stream.read(min(left, READ_CHUNK))
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _has_nul(body):
    """Whether a JSON body holds a NUL character in a key or a string (a raw NUL byte
    is no JSON at all: the handler's parse answers it). The text is searched first;
    only a body where ``\\u0000`` occurs is decoded to tell."""
    if b"\\u0000" not in body:
        return False
    try:
        doc = template_format.load_json(body)
    except ValueError:
        return False
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


def _refuse_nul():
    raise exception.HTTPExceptionDisguise(exc.HTTPBadRequest(NUL_REFUSED))


class JsonBodyLimit:
    """What a request may be before anything reads it; each refusal is a 400 in Heat's
    format (FaultWrapper):

    - a JSON body over ``max_json_body_size``: ``RequestLimitExceeded`` in Heat's words
      (JSONRequestDeserializer's), and the body is read no further than the limit (a
      LimitingReader): one whose Content-Length is over it is refused on its first byte,
      one sent without a length (chunked) once ``max_json_body_size + 1`` bytes came. A
      body over it that is no JSON (it does not start with ``{``) is dropped unread, as
      Heat's handlers ignore such a body;
    - a JSON body nested deeper than template_format.MAX_NESTING_DEPTH: ``RequestLimitExceeded``;
    - a NUL character in the path, the query or a string of the JSON body (no column can
      store one; no name or id holds one): HTTPBadRequest.
    """

    def __init__(self, app, conf):
        self.app = app
        self.conf = conf

    def __call__(self, environ, start_response):
        req = webob.Request(environ)
        if "\x00" in req.path_info or "%00" in req.query_string:
            _refuse_nul()
        if req.content_type in JSON_READ_TYPES or req.content_type.startswith("text/plain"):
            self._bound_body(req)
            body = req.body if req.content_length else b""
            if body and req.content_type in JSON_CONTENT_TYPES:
                util.check_json_body_depth(body)
            if body.startswith(b"{") and _has_nul(body):
                _refuse_nul()
        return self.app(environ, start_response)

    def _bound_body(self, req):
        """The body made at most ``max_json_body_size`` bytes, read no further."""
        limit = self.conf.max_json_body_size
        length = req.content_length
        if length is not None and length <= limit:
            return  # webob reads Content-Length bytes, no more
        if length is None and not req.is_body_readable:
            return
        stream = req.body_file_raw
        data = _read_at_most(stream, 1 if length is not None else limit + 1)
        if length is not None or len(data) > limit:
            if data.startswith(b"{"):
                if length is None:
                    raise exception.RequestLimitExceeded(
                        message="JSON body size (more than %d bytes) exceeds maximum allowed "
                        "size (%d bytes)." % (limit, limit)
                    )
                util.check_json_body_size(length, limit)
            data = b""
        req.body = data


def _auth_middleware(app, conf):
    if conf.auth_strategy == "noauth":
        return NoAuthMiddleware(app, conf)
    try:
        from keystonemiddleware import auth_token
    except ImportError:
        raise RuntimeError("auth_strategy = keystone needs keystonemiddleware installed")
    return auth_token.AuthProtocol(app, {})


def setup_app(conf=None, engine_client=None):
    """Build the heat-lite-api WSGI application.

    :param conf: an oslo.config ConfigOpts with heat-lite's options (default: CONF).
    :param engine_client: what the handlers call (default: an EngineClient on the
        process transport, which is set up here if it is not yet).
    """
    conf = conf or heat_conf.CONF
    if engine_client is None:
        messaging.setup()
        engine_client = rpc_client.EngineClient()
    app = pecan.make_app(
        v1.API(engine_client),
        hooks=[hooks.ContextHook()],
        guess_content_type_from_ext=False,
        force_canonical=False,
        use_context_locals=False,
    )
    app = JsonBodyLimit(app, conf)
    app = VersionNegotiation(app)
    app = _auth_middleware(app, conf)
    app = FaultWrapper(app, conf)
    return request_id.RequestId(app)
