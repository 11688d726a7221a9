"""simcloud-api: one Pecan app serving every simulated service in devstack's layout.

/identity        Keystone v3 subset          api/identity.py
/compute/v2.1    Nova subset                 api/compute.py
/image           Glance v2 subset            api/image.py
/networking      Neutron v2.0 subset         api/network.py, api/network_l3.py
/volume/v3       Cinder v3 subset            api/volume.py
/load-balancer   Octavia v2 subset           api/loadbalancer.py
/simcloud/v1     failure and latency injection (admin)   api/admin.py

app = setup_app()      # CONF loaded, database configured; seeds the cloud
"""

import functools
import importlib

import pecan
import pecan.util
import webob

from simcloud.api import router
from simcloud.common import exception
from simcloud.identity import bootstrap, catalog

# pecan.compat.getargspec builds a namedtuple class on every call, and pecan calls it
# several times a request (11 % of simcloud-api's CPU in a 10-cluster create): each
# function's argspec is built once (a bound method's is its function's).
_argspec = functools.lru_cache(maxsize=1024)(pecan.util._getargspec)
pecan.util._getargspec = lambda func: _argspec(getattr(func, "__func__", func))

# path prefix -> module holding its ``service``
PREFIXES = {
    "identity": "simcloud.api.identity",
    "compute": "simcloud.api.compute",
    "image": "simcloud.api.image",
    "networking": "simcloud.api.network",
    "volume": "simcloud.api.volume",
    "load-balancer": "simcloud.api.loadbalancer",
    "simcloud": "simcloud.api.admin",
}


class ServiceController:
    def __init__(self, service):
        self.service = service

    @pecan.expose()
    def _default(self, *segments):
        return self.service.dispatch(pecan.request, list(segments))


class RootController:
    def __init__(self):
        self.services = {
            prefix: ServiceController(importlib.import_module(module).service)
            for prefix, module in PREFIXES.items()
        }

    @pecan.expose()
    def _lookup(self, prefix, *remainder):
        controller = self.services.get(prefix)
        if controller is None:
            pecan.abort(404)
        return controller, remainder

    @pecan.expose()
    def index(self):
        base = catalog.base_url()
        body = {"services": [{"prefix": p, "url": "%s/%s" % (base, p)} for p in PREFIXES]}
        return webob.Response(json_body=body)


class IgnoreAccept:
    """Every handler answers in its service's own format, whatever ``Accept`` asks; pecan's
    content negotiation (406 for an Accept it was not told of) stays out of the way."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        environ.pop("HTTP_ACCEPT", None)
        return self.app(environ, start_response)


class DeepJsonRefused:
    """pecan decodes a JSON body while routing, and one nested past Python's recursion
    limit escapes it as a RecursionError: the service's 400 (as Request.body answers)."""

    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        try:
            return self.app(environ, start_response)
        except RecursionError:
            prefix = environ.get("PATH_INFO", "").lstrip("/").split("/", 1)[0]
            service = importlib.import_module(PREFIXES.get(prefix, PREFIXES["identity"])).service
            error = exception.BadRequest(router.TOO_DEEP)
            return service.render_error(error)(environ, start_response)


def setup_app(seed=True):
    if seed:
        bootstrap.run()
    app = pecan.make_app(RootController(), guess_content_type_from_ext=False, debug=False)
    return IgnoreAccept(DeepJsonRefused(app))
