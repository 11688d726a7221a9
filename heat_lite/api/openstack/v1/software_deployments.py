"""Software deployments: ``/v1/{tenant}/software_deployments...`` (docs/heat-api.md §4.6).

POST /software_deployments {"config_id": "<sc id>", "server_id": "<server>",
                            "action": "CREATE", "status": "IN_PROGRESS"}
  -> SoftwareDeploymentController.create -> rpc_client.create_software_deployment
  -> 200 {"software_deployment": {"id", "server_id", "config_id", "input_values",
                                  "output_values", "action", "status", "status_reason",
                                  "creation_time"}}
GET /software_deployments/metadata/<server>  -> {"metadata": [<configs by name>]}
"""

from heat_lite.api.openstack.v1 import util
from heat_lite.api.openstack.v1.software_configs import malformed_on_type_error

CREATE_KEYS = (
    "config_id",
    "server_id",
    "input_values",
    "action",
    "status",
    "status_reason",
    "stack_user_project_id",
)
UPDATE_KEYS = ("config_id", "input_values", "output_values", "action", "status", "status_reason")


class SoftwareDeploymentController:
    """Policies ``software_deployments:<handler name>``."""

    REQUEST_SCOPE = "software_deployments"

    def __init__(self, rpc_client):
        self.rpc_client = rpc_client

    @util.registered_policy_enforce
    def index(self, req, ctx):
        """GET /software_deployments[?server_id=s] (other query keys are ignored)."""
        params = util.get_allowed_params(req.params, {"server_id": util.PARAM_TYPE_SINGLE})
        return {"software_deployments": self.rpc_client.list_software_deployments(ctx, **params)}

    @util.registered_policy_enforce
    def metadata(self, req, ctx, server_id):
        return {"metadata": self.rpc_client.metadata_software_deployments(ctx, server_id)}

    @util.registered_policy_enforce
    def show(self, req, ctx, deployment_id):
        deployment = self.rpc_client.show_software_deployment(ctx, deployment_id)
        return {"software_deployment": deployment}

    @util.registered_policy_enforce
    def create(self, req, ctx, body):
        """Absent keys are sent as None, as Heat does (a missing status_reason is "None")."""
        with malformed_on_type_error():
            deployment = self.rpc_client.create_software_deployment(
                ctx, **{key: body.get(key) for key in CREATE_KEYS}
            )
        return {"software_deployment": deployment}

    @util.registered_policy_enforce
    def update(self, req, ctx, deployment_id, body):
        """Only the keys given with a non-null value change; ``updated_time`` is set."""
        values = {key: body[key] for key in UPDATE_KEYS if body.get(key) is not None}
        with malformed_on_type_error():
            deployment = self.rpc_client.update_software_deployment(ctx, deployment_id, **values)
        return {"software_deployment": deployment}

    @util.registered_policy_enforce
    def delete(self, req, ctx, deployment_id):
        self.rpc_client.delete_software_deployment(ctx, deployment_id)
        return util.no_content()
