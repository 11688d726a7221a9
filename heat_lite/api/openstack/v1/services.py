"""``GET /v1/{tenant}/services``: the engines and whether they report in (docs/heat-api.md §4.7).

Policy ``service:index`` (admin of the project). No engine answering is a 503.
"""

from webob import exc

from heat_lite.api.openstack.v1 import util
from heat_lite.common import exception


class ServiceController:
    REQUEST_SCOPE = "service"

    def __init__(self, rpc_client):
        self.rpc_client = rpc_client

    @util.registered_policy_enforce
    def index(self, req, ctx):
        try:
            return {"services": self.rpc_client.list_services(ctx)}
        except exception.EngineUnavailable:
            raise exc.HTTPServiceUnavailable("All heat engines are down.")
