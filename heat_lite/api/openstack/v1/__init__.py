"""Heat's v1 URL table and the pecan root controller that dispatches it.

Every URL lives under ``/v1/{tenant_id}`` (version negotiation has already removed
``/v1``). ``ROUTES`` below is the whole API, read top to bottom: the first row whose
method and path match wins. A path that matches only rows of other methods answers
405 with ``Allow``; ``OPTIONS`` on it answers 204 with ``Allow``; anything else is 404.

Path templates: ``{name}`` matches one segment, ``{name:regex}`` matches the regex
(which may span segments). Matched values are passed to the handler as keyword
arguments, together with ``tenant_id`` and, for handlers that take one, ``body``.

    API(engine_client)          # the root controller given to pecan.make_app
    GET /v1/p1/stacks/s1/<id>   -> StackController.show(req, tenant_id='p1',
                                                        stack_name='s1', stack_id='<id>')

Adding an endpoint = one row here + one decorated handler (see util.py).
"""

import inspect
import re

import pecan
from webob import exc

from heat_lite.api.openstack.v1 import (
    actions,
    build_info,
    events,
    resources,
    services,
    snapshots,
    software_configs,
    software_deployments,
    stacks,
    util,
)
from heat_lite.common import exception

GET, POST, PUT, PATCH, DELETE = "GET", "POST", "PUT", "PATCH", "DELETE"
ANY = (GET, POST, PUT, PATCH, DELETE)

S = "/stacks/{stack_name}/{stack_id}"  # one stack, by name and id
LOOKUP_SUBPATHS_GET = "{path:resources|events|template|actions|environment|files}"
LOOKUP_SUBPATHS_POST = "{path:resources|events|template|actions}"

# (methods, path under /v1/{tenant_id}, controller, handler)
ROUTES = (
    # templates and resource types
    (POST, "/validate", "stacks", "validate_template"),
    (GET, "/resource_types", "stacks", "list_resource_types"),
    (GET, "/resource_types/{type_name}", "stacks", "resource_schema"),
    (GET, "/resource_types/{type_name}/template", "stacks", "generate_template"),
    (GET, "/template_versions", "stacks", "list_template_versions"),
    (GET, "/template_versions/{template_version}/functions", "stacks", "list_template_functions"),
    # stack collection
    (GET, "/stacks", "stacks", "index"),
    (POST, "/stacks", "stacks", "create"),
    (POST, "/stacks/preview", "stacks", "preview"),
    (GET, "/stacks/detail", "stacks", "detail"),
    # name or id -> 302 to /stacks/{stack_name}/{stack_id}[/subpath]
    (ANY, "/stacks/{stack_name}", "stacks", "lookup"),
    (ANY, "/stacks/{stack_name:arn:.*}", "stacks", "lookup"),
    (GET, "/stacks/{stack_name}/" + LOOKUP_SUBPATHS_GET, "stacks", "lookup"),
    (POST, "/stacks/{stack_name}/" + LOOKUP_SUBPATHS_POST, "stacks", "lookup"),
    # one stack
    (GET, S, "stacks", "show"),
    (PUT, S, "stacks", "update"),
    (PATCH, S, "stacks", "update_patch"),
    (DELETE, S, "stacks", "delete"),
    (PUT, S + "/preview", "stacks", "preview_update"),
    (PATCH, S + "/preview", "stacks", "preview_update_patch"),
    (DELETE, S + "/abandon", "stacks", "abandon"),
    (GET, S + "/export", "stacks", "export"),
    (GET, S + "/template", "stacks", "template"),
    (GET, S + "/environment", "stacks", "environment"),
    (GET, S + "/files", "stacks", "files"),
    (GET, S + "/outputs", "stacks", "list_outputs"),
    (GET, S + "/outputs/{output_key}", "stacks", "show_output"),
    # snapshots (not reached by name: clients resolve the stack first, as Heat wants)
    (GET, S + "/snapshots", "snapshots", "list_snapshots"),
    (POST, S + "/snapshots", "snapshots", "snapshot"),
    (GET, S + "/snapshots/{snapshot_id}", "snapshots", "show_snapshot"),
    (DELETE, S + "/snapshots/{snapshot_id}", "snapshots", "delete_snapshot"),
    (POST, S + "/snapshots/{snapshot_id}/restore", "snapshots", "restore_snapshot"),
    # actions
    (POST, S + "/actions", "actions", "action"),
    # resources
    (GET, S + "/resources", "resources", "index"),
    (GET, S + "/resources/{resource_name}", "resources", "show"),
    (PATCH, S + "/resources/{resource_name}", "resources", "mark_unhealthy"),
    (GET, S + "/resources/{resource_name}/metadata", "resources", "metadata"),
    (POST, S + "/resources/{resource_name}/signal", "resources", "signal"),
    # events
    (GET, S + "/events", "events", "index"),
    (GET, S + "/resources/{resource_name}/events", "events", "index"),
    (GET, S + "/resources/{resource_name}/events/{event_id}", "events", "show"),
    # software configs and deployments
    (GET, "/software_configs", "software_configs", "index"),
    (POST, "/software_configs", "software_configs", "create"),
    (GET, "/software_configs/{config_id}", "software_configs", "show"),
    (DELETE, "/software_configs/{config_id}", "software_configs", "delete"),
    (GET, "/software_deployments", "software_deployments", "index"),
    (POST, "/software_deployments", "software_deployments", "create"),
    (GET, "/software_deployments/metadata/{server_id}", "software_deployments", "metadata"),
    (GET, "/software_deployments/{deployment_id}", "software_deployments", "show"),
    (PUT, "/software_deployments/{deployment_id}", "software_deployments", "update"),
    (DELETE, "/software_deployments/{deployment_id}", "software_deployments", "delete"),
    # the service
    (GET, "/build_info", "build_info", "build_info"),
    (GET, "/services", "services", "index"),
)

_PLACEHOLDER = re.compile(r"\{(\w+)(?::([^}]*))?\}")
ROUTE_ENV_KEY = "heat.route"


def compile_path(template):
    """``/stacks/{stack_name}`` -> a regex with one named group per placeholder."""
    pattern, pos = "", 0
    for m in _PLACEHOLDER.finditer(template):
        pattern += re.escape(template[pos : m.start()])
        pattern += "(?P<%s>%s)" % (m.group(1), m.group(2) or "[^/]+")
        pos = m.end()
    pattern += re.escape(template[pos:])
    return re.compile("^/(?P<tenant_id>[^/]+)%s$" % pattern)


class Router:
    """The compiled ROUTES, bound to controller instances."""

    def __init__(self, routes, controllers):
        self._routes = []
        for methods, path, controller, action in routes:
            methods = (methods,) if isinstance(methods, str) else tuple(methods)
            handler = getattr(controllers[controller], action)
            self._routes.append((methods, compile_path(path), handler))

    def match(self, method, path):
        """(handler, path kwargs, None) on a hit, else (None, None, allowed methods)."""
        allowed = []
        for methods, regex, handler in self._routes:
            m = regex.match(path)
            if m is None:
                continue
            if method in methods:
                return handler, m.groupdict(), None
            allowed.extend(x for x in methods if x not in allowed)
        return None, None, allowed


def _takes_body(handler):
    param = inspect.signature(handler).parameters.get("body")
    if param is None:
        return None
    return param.default is inspect.Parameter.empty  # True: required


class API:
    """Pecan root: ``_route`` finds the row, ``invoke`` calls its handler. Pecan is made
    with ``use_context_locals=False``: handlers get the request itself (``req``), not the
    context-local proxy (every attribute read through it costs a lookup of the green
    thread's locals)."""

    def __init__(self, engine_client):
        controllers = {
            "stacks": stacks.StackController(engine_client),
            "actions": actions.ActionController(engine_client),
            "resources": resources.ResourceController(engine_client),
            "events": events.EventController(engine_client),
            "build_info": build_info.BuildInfoController(engine_client),
            "services": services.ServiceController(engine_client),
            "snapshots": snapshots.SnapshotController(engine_client),
            "software_configs": software_configs.SoftwareConfigController(engine_client),
            "software_deployments": software_deployments.SoftwareDeploymentController(
                engine_client
            ),
        }
        self.router = Router(ROUTES, controllers)

    @pecan.expose()
    def _route(self, args, request):
        path = "/" + "/".join(args)
        # Handlers build their own responses: skip pecan's Accept-based negotiation.
        request.pecan["content_type"] = "application/json"
        handler, kwargs, allowed = self.router.match(request.method, path)
        if handler is not None:
            request.environ[ROUTE_ENV_KEY] = (handler, kwargs)
            return self.invoke, []
        if not allowed:
            raise exception.HTTPExceptionDisguise(exc.HTTPNotFound())
        request.environ[ROUTE_ENV_KEY] = (None, {"allow": ",".join(allowed)})
        if request.method == "OPTIONS":
            return self.options, []
        raise exception.HTTPExceptionDisguise(exc.HTTPMethodNotAllowed(allow=allowed))

    @pecan.expose(content_type="application/json")
    def options(self, req, resp):
        _handler, kwargs = req.environ[ROUTE_ENV_KEY]
        resp = util.no_content()
        resp.headers["Allow"] = kwargs["allow"]
        return resp

    @pecan.expose(content_type="application/json")
    def invoke(self, req, resp):
        handler, kwargs = req.environ[ROUTE_ENV_KEY]
        try:
            takes_body = _takes_body(handler)
            if takes_body is not None:
                body = util.parse_json_body(req)
                if body is not None:
                    kwargs["body"] = body
                elif takes_body:
                    raise exc.HTTPBadRequest(
                        "The server could not comply with the request since it is "
                        "either malformed or otherwise incorrect."
                    )
            return util.to_response(handler(req, **kwargs))
        except exc.HTTPException as e:
            if e.code < 400:
                return e
            # Past pecan's own HTTP error rendering, to the fault wrapper.
            raise exception.HTTPExceptionDisguise(e)
