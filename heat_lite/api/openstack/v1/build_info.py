"""``GET /v1/{tenant}/build_info``: the revisions of this API and of the engine
(docs/heat-api.md §4.7).

-> {"api": {"revision": "unknown"}, "engine": {"revision": "unknown"}}
"""

from heat_lite.api.openstack.v1 import util
from heat_lite.conf import CONF


class BuildInfoController:
    """Policy ``build_info:build_info``."""

    REQUEST_SCOPE = "build_info"

    def __init__(self, rpc_client):
        self.rpc_client = rpc_client

    @util.registered_policy_enforce
    def build_info(self, req, ctx):
        return {
            "api": {"revision": CONF.revision.heat_revision},
            "engine": {"revision": self.rpc_client.get_revision(ctx)},
        }
