"""Software configs: ``/v1/{tenant}/software_configs[/{config_id}]`` (docs/heat-api.md §4.6).

POST /software_configs {"name": "c", "group": "script", "config": "echo hi",
                        "inputs": [{"name": "foo"}]}
  -> SoftwareConfigController.create -> rpc_client.create_software_config(ctx, ...)
  -> 200 {"software_config": {"id", "name", "group", "config", "inputs", "outputs",
                              "options", "creation_time"}}
"""

import contextlib

from webob import exc

from heat_lite.api.openstack.v1 import util
from heat_lite.common import context, policy

PARAM_LIMIT, PARAM_MARKER, PARAM_GLOBAL_TENANT = "limit", "marker", "global_tenant"
CREATE_KEYS = ("name", "group", "config", "inputs", "outputs", "options")


@contextlib.contextmanager
def malformed_on_type_error():
    """A TypeError from the engine (e.g. inputs that are not a list) is Heat's 400
    "malformed request", as heat/common/wsgi.py answers any TypeError of a handler."""
    try:
        yield
    except TypeError:
        raise exc.HTTPBadRequest(util.MALFORMED_REQUEST)


class SoftwareConfigController:
    """Policies ``software_configs:<handler name>``."""

    REQUEST_SCOPE = "software_configs"

    def __init__(self, rpc_client):
        self.rpc_client = rpc_client

    @util.registered_policy_enforce
    def index(self, req, ctx):
        """GET /software_configs[?limit=&marker=][&global_tenant=true]."""
        params = util.get_allowed_params(
            req.params, {PARAM_LIMIT: util.PARAM_TYPE_SINGLE, PARAM_MARKER: util.PARAM_TYPE_SINGLE}
        )
        if PARAM_LIMIT in params:
            params[PARAM_LIMIT] = util.bad_request_on_value_error(
                util.extract_int, PARAM_LIMIT, params[PARAM_LIMIT]
            )
        if PARAM_GLOBAL_TENANT in req.params and util.bad_request_on_value_error(
            util.extract_bool, PARAM_GLOBAL_TENANT, req.params[PARAM_GLOBAL_TENANT]
        ):
            policy.enforce(ctx, "software_configs:global_index", {"project_id": ctx.project_id})
            ctx = context.get_admin_context()
        return {"software_configs": self.rpc_client.list_software_configs(ctx, **params)}

    @util.registered_policy_enforce
    def show(self, req, ctx, config_id):
        return {"software_config": self.rpc_client.show_software_config(ctx, config_id)}

    @util.registered_policy_enforce
    def create(self, req, ctx, body):
        """200 (not 201) with the stored config, as Heat."""
        with malformed_on_type_error():
            config = self.rpc_client.create_software_config(
                ctx, **{key: body.get(key) for key in CREATE_KEYS}
            )
        return {"software_config": config}

    @util.registered_policy_enforce
    def delete(self, req, ctx, config_id):
        self.rpc_client.delete_software_config(ctx, config_id)
        return util.no_content()
