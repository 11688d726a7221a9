"""The engine's software config and deployment RPC methods (docs/heat-api.md §4.6).

``SoftwareMethods`` is an endpoint of topic ``engine`` (heat_lite.engine.service);
each is a thin wrapper of the function of the same name in engine/software.py.
"""

import oslo_messaging

from heat_lite.common import exception
from heat_lite.engine import software
from heat_lite.rpc import api as rpc_api

expected = oslo_messaging.expected_exceptions(exception.HeatException)


class SoftwareMethods:
    """Software config and deployment endpoint methods; see engine/software.py."""

    target = oslo_messaging.Target(version=rpc_api.ENGINE_RPC_VERSION)

    @expected
    def list_software_configs(self, cnxt, limit=None, marker=None):
        return software.list_software_configs(cnxt, limit=limit, marker=marker)

    @expected
    def show_software_config(self, cnxt, config_id):
        return software.show_software_config(cnxt, config_id)

    @expected
    def create_software_config(self, cnxt, group, name, config, inputs, outputs, options):
        return software.create_software_config(cnxt, group, name, config, inputs, outputs, options)

    @expected
    def delete_software_config(self, cnxt, config_id):
        return software.delete_software_config(cnxt, config_id)

    @expected
    def list_software_deployments(self, cnxt, server_id=None):
        return software.list_software_deployments(cnxt, server_id)

    @expected
    def metadata_software_deployments(self, cnxt, server_id):
        return software.metadata_software_deployments(cnxt, server_id)

    @expected
    def show_software_deployment(self, cnxt, deployment_id):
        return software.show_software_deployment(cnxt, deployment_id)

    @expected
    def check_software_deployment(self, cnxt, deployment_id, timeout):
        return software.check_software_deployment(cnxt, deployment_id, timeout)

    @expected
    def create_software_deployment(
        self,
        cnxt,
        server_id,
        config_id,
        input_values,
        action,
        status,
        status_reason,
        stack_user_project_id,
        deployment_id=None,
    ):
        return software.create_software_deployment(
            cnxt,
            server_id,
            config_id,
            input_values,
            action,
            status,
            status_reason,
            stack_user_project_id,
            deployment_id=deployment_id,
        )

    @expected
    def update_software_deployment(
        self,
        cnxt,
        deployment_id,
        config_id,
        input_values,
        output_values,
        action,
        status,
        status_reason,
        updated_at,
    ):
        return software.update_software_deployment(
            cnxt,
            deployment_id,
            config_id=config_id,
            input_values=input_values,
            output_values=output_values,
            action=action,
            status=status,
            status_reason=status_reason,
            updated_at=updated_at,
        )

    @expected
    def signal_software_deployment(self, cnxt, deployment_id, details, updated_at=None):
        return software.signal_software_deployment(cnxt, deployment_id, details, updated_at)

    @expected
    def delete_software_deployment(self, cnxt, deployment_id):
        return software.delete_software_deployment(cnxt, deployment_id)
