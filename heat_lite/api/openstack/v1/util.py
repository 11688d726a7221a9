"""Helpers shared by the v1 controllers: policy decorators, links, responses, parameters.

A handler is a controller method decorated with one of the policy decorators below;
the router in ``v1/__init__.py`` calls it as ``handler(req, tenant_id=..., **path_args)``:

    class StackController:
        REQUEST_SCOPE = 'stacks'

        @util.registered_policy_enforce          # tenant check + policy 'stacks:index'
        def index(self, req, ctx):
            return {'stacks': ...}               # dicts/lists/None become JSON, 200

        @util.registered_identified_stack        # + {stack_name}/{stack_id} -> identity dict
        def delete(self, req, ctx, identity):
            self.rpc_client.delete_stack(ctx, identity)
            return util.no_content()             # or created()/accepted()/redirect()

Errors are raised: webob ``HTTPError`` for API-level problems (type ``HTTPBadRequest``
etc. on the wire), heat_lite exceptions for the rest; the fault wrapper formats both.
"""

import functools
import gzip
import json
import urllib.parse

import webob
from oslo_utils import strutils
from webob import exc

from heat_lite.common import exception, identifier, policy, template_format

# Heat's 400 message for a request it cannot take apart (a TypeError in its handlers).
MALFORMED_REQUEST = (
    "The server could not comply with the request since it is either malformed or "
    "otherwise incorrect."
)

# Where the ContextHook leaves the RequestContext of the current request.
CONTEXT_ENV_KEY = "heat.context"
# Where make_url keeps the request's application URL and the URLs it made.
APPLICATION_URL_KEY = "heat.application_url"
URLS_KEY = "heat.urls"


def request_context(req):
    return req.environ[CONTEXT_ENV_KEY]


# ---------------------------------------------------------------------------
# Tenant check and policy (heat/api/openstack/v1/util.py)
# ---------------------------------------------------------------------------


def check_tenant(ctx, tenant_id):
    """Return the project the request acts on; raise InvalidTenant on a foreign one.

    An admin context may name any tenant in the URL: its own project is used instead,
    as Heat does (links then carry the stack's project). Anyone else must name its own.
    """
    if ctx.is_admin and ctx.project_id:
        return ctx.project_id
    if ctx.project_id != tenant_id:
        raise exception.InvalidTenant(target=tenant_id, actual=ctx.project_id)
    return tenant_id


def registered_policy_enforce(handler):
    """Tenant check, then policy ``<controller.REQUEST_SCOPE>:<handler name>``."""

    @functools.wraps(handler)
    def handle_stack_method(controller, req, tenant_id, **kwargs):
        ctx = request_context(req)
        project_id = check_tenant(ctx, tenant_id)
        action = "%s:%s" % (controller.REQUEST_SCOPE, handler.__name__)
        policy.enforce(ctx, action, {"project_id": project_id})
        return handler(controller, req, ctx, **kwargs)

    return handle_stack_method


def no_policy_enforce(handler):
    """Tenant check only; the handler enforces policy itself (e.g. update_patch)."""

    @functools.wraps(handler)
    def handle_stack_method(controller, req, tenant_id, **kwargs):
        ctx = request_context(req)
        check_tenant(ctx, tenant_id)
        return handler(controller, req, ctx, **kwargs)

    return handle_stack_method


def _identified_stack(handler):
    @functools.wraps(handler)
    def handle_stack_method(controller, req, ctx, stack_name, stack_id, **kwargs):
        identity = identifier.HeatIdentifier(ctx.project_id, stack_name, stack_id)
        return handler(controller, req, ctx, dict(identity), **kwargs)

    return handle_stack_method


def registered_identified_stack(handler):
    """Policy as above; ``{stack_name}/{stack_id}`` arrive as one identity dict."""
    return registered_policy_enforce(_identified_stack(handler))


# ---------------------------------------------------------------------------
# Links
# ---------------------------------------------------------------------------


def make_url(req, identity):
    """``<app url>/<tenant>/stacks/<name>/<id>[<path>]`` for an identity dict.

    The tenant is the stack's own project, not the one in the request path.
    """
    return stack_url(req, identity) + quoted_path(identity)


def quoted_path(identity):
    """The quoted ``path`` of an identity dict, '' for a stack's own."""
    path = identity.get(identifier.HeatIdentifier.PATH) if hasattr(identity, "get") else None
    if not path:
        return ""
    if not path.startswith("/"):
        path = "/" + path  # as HeatIdentifier
    return urllib.parse.quote(path)


def stack_url(req, identity):
    """``<app url>/<tenant>/stacks/<name>/<id>``: the URL of the stack an identity dict
    names (its ``path`` left out). Kept for the request: a resource list links every
    resource to one stack, so its URL is made once."""
    environ = req.environ
    urls = environ.get(URLS_KEY)
    if urls is None:
        urls = environ[URLS_KEY] = {}
    try:
        key = (identity["tenant"], identity["stack_name"], identity["stack_id"])
        url = urls.get(key)
    except (KeyError, TypeError):
        key = url = None  # not a mapping of strings: HeatIdentifier says what is wrong
    if url is None:
        try:
            ident = identifier.HeatIdentifier(**identity)
        except (TypeError, ValueError):
            raise exc.HTTPInternalServerError("Invalid Stack address")
        url = "%s/%s/%s" % (
            application_url(req, environ),
            urllib.parse.quote(ident.tenant, ""),
            ident.stack().url_path(),
        )
        if key is not None:
            urls[key] = url
    return url


def application_url(req, environ=None):
    """``req.application_url``, worked out once per request."""
    environ = req.environ if environ is None else environ
    url = environ.get(APPLICATION_URL_KEY)
    if url is None:
        url = environ[APPLICATION_URL_KEY] = req.application_url
    return url


def make_link(req, identity, relationship="self"):
    return {"href": make_url(req, identity), "rel": relationship}


# ---------------------------------------------------------------------------
# Responses a handler may return instead of data
# ---------------------------------------------------------------------------


def json_response(data, status=200, headers=None):
    return json_text_response(json.dumps(data), status, headers)


def json_text_response(text, status=200, headers=None):
    """json_response for data already dumped to ``text``."""
    resp = webob.Response(status=status, content_type="application/json", charset="UTF-8")
    resp.text = text
    if headers:
        resp.headers.update(headers)
    return resp


# a kept answer at least this long goes gzip-encoded to a client that accepts it (a
# 1,000-resource list: 580 KB of text, 43 KB encoded at level 1 in 2 ms, once)
GZIP_MIN_CHARS = 65536


class KeptText:
    """An answer's JSON text kept between requests, with its gzip encoding made on first
    use."""

    __slots__ = ("text", "_gzipped")

    def __init__(self, text):
        self.text = text
        self._gzipped = None

    def gzipped(self):
        if self._gzipped is None:
            self._gzipped = gzip.compress(self.text.encode("utf-8"), compresslevel=1, mtime=0)
        return self._gzipped


def kept_json_response(req, kept):
    """json_text_response of a KeptText; a large one gzip-encoded for a client whose
    Accept-Encoding takes gzip (heatclient's requests does; webob and curl without
    --compressed do not ask)."""
    if len(kept.text) < GZIP_MIN_CHARS:
        return json_text_response(kept.text)
    if req.accept_encoding.acceptable_offers(["gzip"]):
        resp = webob.Response(status=200, content_type="application/json", charset="UTF-8")
        resp.body = kept.gzipped()
        resp.content_encoding = "gzip"
    else:
        resp = json_text_response(kept.text)
    resp.vary = ("Accept-Encoding",)
    return resp


def created(data, location):
    """201 with ``Location`` (stack create)."""
    return json_response(data, status=201, headers={"Location": location})


def _plain(status, text, headers=None):
    resp = webob.Response(status=status, content_type="text/plain", charset="UTF-8")
    resp.text = text
    if headers:
        resp.headers.update(headers)
    return resp


def accepted():
    """202 with a plain-text body, as Heat's update/restore answer."""
    return _plain(202, "202 Accepted\n\nThe request is accepted for processing.\n\n   ")


def no_content():
    resp = webob.Response(status=204)
    resp.content_type = None
    return resp


def redirect(location):
    """302 to the canonical URL; clients repeat the same method and body there."""
    return _plain(
        302,
        "302 Found\n\nThe resource was found at %s; you should be redirected "
        "automatically.\n\n   " % location,
        headers={"Location": location},
    )


def to_response(result):
    """What a handler returned -> webob Response (data becomes JSON, 200)."""
    if isinstance(result, webob.Response):
        return result
    return json_response(result)


# ---------------------------------------------------------------------------
# Request bodies
# ---------------------------------------------------------------------------


def is_json_content_type(req):
    """Heat parses a body only if it is JSON-typed (or untyped/text) and starts with '{'."""
    content_type = req.content_type
    if not content_type or content_type.startswith("text/plain"):
        content_type = "application/json"
    return content_type in ("JSON", "application/json") and req.body.startswith(b"{")


def has_json_body(req):
    return int(req.content_length or 0) > 0 and is_json_content_type(req)


def check_json_body_size(length, limit):
    if length > limit:
        raise exception.RequestLimitExceeded(
            message="JSON body size (%s bytes) exceeds maximum allowed size (%s bytes)."
            % (length, limit)
        )


def check_json_body_depth(body):
    """RequestLimitExceeded for a JSON body nested deeper than the engine takes.

    (Anything that is not JSON is left to the handler that reads the body.)
    """
    try:
        template_format.load_json(body)
    except template_format.NestingTooDeep:
        raise exception.RequestLimitExceeded(
            message="JSON body nested more than %d levels deep." % template_format.MAX_NESTING_DEPTH
        )
    except ValueError:
        pass


def parse_json_body(req):
    """The request's JSON object, or None when it carries no JSON body.

    (Its size was checked by app.JsonBodyLimit before routing.)
    """
    if not has_json_body(req):
        return None
    try:
        return template_format.load_json(req.body)
    except ValueError as e:
        raise exc.HTTPBadRequest(str(e))


# ---------------------------------------------------------------------------
# Query parameters (heat/common/param_utils.py)
# ---------------------------------------------------------------------------

PARAM_TYPES = (PARAM_TYPE_SINGLE, PARAM_TYPE_MULTI, PARAM_TYPE_MIXED) = (
    "single",
    "multi",
    "mixed",
)


def get_allowed_params(params, param_types):
    """Pick the entries of ``params`` named in ``param_types`` that have a value.

    single: one value; multi: always a list; mixed: a list only when repeated.
    """
    allowed = {}
    for key, get_type in param_types.items():
        if get_type == PARAM_TYPE_SINGLE:
            value = params.get(key)
        else:
            value = params.getall(key)
            if get_type == PARAM_TYPE_MIXED and len(value) == 1:
                value = value[0]
        if value:
            allowed[key] = value
    return allowed


def extract_bool(name, value):
    """'true'/'false' in any case -> bool; anything else is a ValueError."""
    if str(value).lower() not in ("true", "false"):
        raise ValueError(
            'Unrecognized value "%s" for "%s", acceptable values are: true, false.' % (value, name)
        )
    return strutils.bool_from_string(value, strict=True)


def extract_int(name, value, allow_zero=True, allow_negative=False):
    if value is None:
        return None
    if not strutils.is_int_like(value):
        raise ValueError("Only integer is acceptable by '%s'." % name)
    if value in ("0", 0):
        if allow_zero:
            return 0
        raise ValueError("Only non-zero integer is acceptable by '%s'." % name)
    result = int(value)
    if not allow_negative and result < 0:
        raise ValueError(
            "Value '%s' is invalid for '%s' which only accepts non-negative integer."
            % (value, name)
        )
    return result


def extract_tags(subject):
    tags = subject.split(",")
    for tag in tags:
        if len(tag) > 80:
            raise ValueError('Invalid tag, "%s" is longer than 80 characters' % tag)
    return tags


def extract_template_type(subject):
    """'cfn' or 'hot', in any case; anything else is a ValueError."""
    template_type = subject.lower()
    if template_type not in ("cfn", "hot"):
        raise ValueError('Invalid template type "%s", valid types are: cfn, hot.' % subject)
    return template_type


def bad_request_on_value_error(func, *args, **kwargs):
    """Call ``func``; a ValueError becomes 400 HTTPBadRequest with its message."""
    try:
        return func(*args, **kwargs)
    except ValueError as e:
        raise exc.HTTPBadRequest(str(e))
