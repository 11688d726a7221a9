"""EngineClient: heat-api's side of topic ``engine``. Every method is a blocking call.

Version history (the server is 1.36, as Heat 27): methods pin the minimum version Heat
pins for them; the engine accepts every version up to 1.36.

    client = EngineClient()
    identity = client.create_stack(ctx, 's1', template, params={}, files={}, args={})
"""

import oslo_messaging
from oslo_config import cfg

from heat_lite.common import exception, messaging
from heat_lite.rpc import api as rpc_api


class EngineClient:
    BASE_RPC_API_VERSION = "1.0"

    def __init__(self):
        self._client = messaging.get_rpc_client(
            topic=rpc_api.ENGINE_TOPIC, version=self.BASE_RPC_API_VERSION
        )

    def _call(self, ctxt, method, version=None, rpc_timeout=None, **kwargs):
        """Call ``method``; :raises EngineUnavailable: (503) when no engine has consumed the
        topic for a few seconds, or when none answered within the timeout."""
        if messaging.topic_has_no_consumer(rpc_api.ENGINE_TOPIC):
            raise exception.EngineUnavailable(
                reason="no heat-lite-engine is running (nothing consumes RPC topic '%s'); "
                "start heat-lite-engine" % rpc_api.ENGINE_TOPIC
            )
        client = self._client.prepare(
            version=version or self.BASE_RPC_API_VERSION, timeout=rpc_timeout
        )
        try:
            return client.call(ctxt, method, **kwargs)
        except oslo_messaging.MessagingTimeout:
            raise exception.EngineUnavailable(
                reason="heat-lite-engine did not answer %s within %s s (RPC topic '%s')"
                % (method, rpc_timeout or cfg.CONF.rpc_response_timeout, rpc_api.ENGINE_TOPIC)
            )

    def identify_stack(self, ctxt, stack_name):
        return self._call(ctxt, "identify_stack", stack_name=stack_name)

    def list_stacks(
        self,
        ctxt,
        limit=None,
        marker=None,
        sort_keys=None,
        sort_dir=None,
        filters=None,
        show_deleted=False,
        show_nested=False,
        show_hidden=False,
        tags=None,
        tags_any=None,
        not_tags=None,
        not_tags_any=None,
    ):
        return self._call(
            ctxt,
            "list_stacks",
            version="1.33",
            limit=limit,
            marker=marker,
            sort_keys=sort_keys,
            sort_dir=sort_dir,
            filters=filters,
            show_deleted=show_deleted,
            show_nested=show_nested,
            show_hidden=show_hidden,
            tags=tags,
            tags_any=tags_any,
            not_tags=not_tags,
            not_tags_any=not_tags_any,
        )

    def count_stacks(
        self,
        ctxt,
        filters=None,
        show_deleted=False,
        show_nested=False,
        show_hidden=False,
        tags=None,
        tags_any=None,
        not_tags=None,
        not_tags_any=None,
    ):
        return self._call(
            ctxt,
            "count_stacks",
            version="1.33",
            filters=filters,
            show_deleted=show_deleted,
            show_nested=show_nested,
            show_hidden=show_hidden,
            tags=tags,
            tags_any=tags_any,
            not_tags=not_tags,
            not_tags_any=not_tags_any,
        )

    def show_stack(self, ctxt, stack_identity, resolve_outputs=True):
        return self._call(
            ctxt,
            "show_stack",
            version="1.20",
            stack_identity=stack_identity,
            resolve_outputs=resolve_outputs,
        )

    def create_stack(
        self,
        ctxt,
        stack_name,
        template,
        params,
        files,
        args,
        environment_files=None,
        files_container=None,
        owner_id=None,
        nested_depth=0,
        user_creds_id=None,
        stack_user_project_id=None,
        parent_resource_name=None,
    ):
        """Create a stack; the nested stack resources pass their owner and depth."""
        return self._call(
            ctxt,
            "create_stack",
            version="1.36",
            stack_name=stack_name,
            template=template,
            params=params,
            files=files,
            args=args,
            environment_files=environment_files,
            files_container=files_container,
            owner_id=owner_id,
            nested_depth=nested_depth,
            user_creds_id=user_creds_id,
            stack_user_project_id=stack_user_project_id,
            parent_resource_name=parent_resource_name,
            template_id=None,
        )

    def update_stack(
        self,
        ctxt,
        stack_identity,
        template,
        params,
        files,
        args,
        environment_files=None,
        files_container=None,
    ):
        return self._call(
            ctxt,
            "update_stack",
            version="1.36",
            stack_identity=stack_identity,
            template=template,
            params=params,
            files=files,
            args=args,
            environment_files=environment_files,
            files_container=files_container,
            template_id=None,
        )

    def delete_stack(self, ctxt, stack_identity, cast=False):
        return self._call(ctxt, "delete_stack", stack_identity=stack_identity)

    def stack_suspend(self, ctxt, stack_identity):
        return self._call(ctxt, "stack_suspend", stack_identity=stack_identity)

    def stack_resume(self, ctxt, stack_identity):
        return self._call(ctxt, "stack_resume", stack_identity=stack_identity)

    def stack_check(self, ctxt, stack_identity):
        return self._call(ctxt, "stack_check", stack_identity=stack_identity)

    def stack_cancel_update(self, ctxt, stack_identity, cancel_with_rollback=True):
        return self._call(
            ctxt,
            "stack_cancel_update",
            version="1.14",
            stack_identity=stack_identity,
            cancel_with_rollback=cancel_with_rollback,
        )

    def resource_signal(self, ctxt, stack_identity, resource_name, details, sync_call=False):
        return self._call(
            ctxt,
            "resource_signal",
            version="1.3",
            stack_identity=stack_identity,
            resource_name=resource_name,
            details=details,
            sync_call=sync_call,
        )

    def resource_mark_unhealthy(
        self, ctxt, stack_identity, resource_name, mark_unhealthy, resource_status_reason=None
    ):
        return self._call(
            ctxt,
            "resource_mark_unhealthy",
            version="1.26",
            stack_identity=stack_identity,
            resource_name=resource_name,
            mark_unhealthy=mark_unhealthy,
            resource_status_reason=resource_status_reason,
        )

    def abandon_stack(self, ctxt, stack_identity):
        return self._call(ctxt, "abandon_stack", stack_identity=stack_identity)

    def export_stack(self, ctxt, stack_identity):
        return self._call(ctxt, "export_stack", version="1.22", stack_identity=stack_identity)

    # snapshots

    def stack_snapshot(self, ctxt, stack_identity, name):
        return self._call(ctxt, "stack_snapshot", stack_identity=stack_identity, name=name)

    def show_snapshot(self, ctxt, stack_identity, snapshot_id):
        return self._call(
            ctxt, "show_snapshot", stack_identity=stack_identity, snapshot_id=snapshot_id
        )

    def delete_snapshot(self, ctxt, stack_identity, snapshot_id):
        return self._call(
            ctxt, "delete_snapshot", stack_identity=stack_identity, snapshot_id=snapshot_id
        )

    def stack_list_snapshots(self, ctxt, stack_identity):
        return self._call(ctxt, "stack_list_snapshots", stack_identity=stack_identity)

    def stack_restore(self, ctxt, stack_identity, snapshot_id):
        return self._call(
            ctxt, "stack_restore", stack_identity=stack_identity, snapshot_id=snapshot_id
        )

    def list_stack_resources(
        self, ctxt, stack_identity, nested_depth=0, with_detail=False, filters=None
    ):
        return self._call(
            ctxt,
            "list_stack_resources",
            version="1.25",
            stack_identity=stack_identity,
            nested_depth=nested_depth,
            with_detail=with_detail,
            filters=filters,
        )

    def list_stack_resources_if_changed(
        self, ctxt, stack_identity, version_seen, nested_depth=0, with_detail=False, filters=None
    ):
        """heat-lite's own: {"version", "resources"}, resources None when unchanged."""
        return self._call(
            ctxt,
            "list_stack_resources_if_changed",
            version="1.36",
            stack_identity=stack_identity,
            version_seen=version_seen,
            nested_depth=nested_depth,
            with_detail=with_detail,
            filters=filters,
        )

    def describe_stack_resource(self, ctxt, stack_identity, resource_name, with_attr=None):
        return self._call(
            ctxt,
            "describe_stack_resource",
            version="1.2",
            stack_identity=stack_identity,
            resource_name=resource_name,
            with_attr=with_attr,
        )

    def list_events(
        self,
        ctxt,
        stack_identity,
        filters=None,
        limit=None,
        marker=None,
        sort_keys=None,
        sort_dir=None,
        nested_depth=None,
    ):
        return self._call(
            ctxt,
            "list_events",
            version="1.31",
            stack_identity=stack_identity,
            filters=filters,
            limit=limit,
            marker=marker,
            sort_keys=sort_keys,
            sort_dir=sort_dir,
            nested_depth=nested_depth,
        )

    def get_template(self, ctxt, stack_identity):
        return self._call(ctxt, "get_template", stack_identity=stack_identity)

    def list_outputs(self, ctxt, stack_identity):
        return self._call(ctxt, "list_outputs", version="1.19", stack_identity=stack_identity)

    def show_output(self, ctxt, stack_identity, output_key):
        return self._call(
            ctxt,
            "show_output",
            version="1.19",
            stack_identity=stack_identity,
            output_key=output_key,
        )

    def get_environment(self, ctxt, stack_identity):
        return self._call(ctxt, "get_environment", version="1.28", stack_identity=stack_identity)

    def get_files(self, ctxt, stack_identity):
        return self._call(ctxt, "get_files", version="1.32", stack_identity=stack_identity)

    def preview_stack(
        self,
        ctxt,
        stack_name,
        template,
        params,
        files,
        args,
        environment_files=None,
        files_container=None,
    ):
        return self._call(
            ctxt,
            "preview_stack",
            version="1.36",
            stack_name=stack_name,
            template=template,
            params=params,
            files=files,
            args=args,
            environment_files=environment_files,
            files_container=files_container,
        )

    def preview_update_stack(
        self,
        ctxt,
        stack_identity,
        template,
        params,
        files,
        args,
        environment_files=None,
        files_container=None,
    ):
        return self._call(
            ctxt,
            "preview_update_stack",
            version="1.36",
            stack_identity=stack_identity,
            template=template,
            params=params,
            files=files,
            args=args,
            environment_files=environment_files,
            files_container=files_container,
        )

    def validate_template(
        self,
        ctxt,
        template,
        params=None,
        files=None,
        environment_files=None,
        files_container=None,
        show_nested=False,
        ignorable_errors=None,
    ):
        return self._call(
            ctxt,
            "validate_template",
            version="1.36",
            template=template,
            params=params,
            files=files,
            environment_files=environment_files,
            files_container=files_container,
            show_nested=show_nested,
            ignorable_errors=ignorable_errors,
        )

    def list_resource_types(
        self, ctxt, support_status=None, type_name=None, heat_version=None, with_description=False
    ):
        return self._call(
            ctxt,
            "list_resource_types",
            version="1.30",
            support_status=support_status,
            type_name=type_name,
            heat_version=heat_version,
            with_description=with_description,
        )

    def resource_schema(self, ctxt, type_name, with_description=False):
        return self._call(
            ctxt,
            "resource_schema",
            version="1.30",
            type_name=type_name,
            with_description=with_description,
        )

    def generate_template(self, ctxt, type_name, template_type="cfn"):
        return self._call(
            ctxt,
            "generate_template",
            version="1.9",
            type_name=type_name,
            template_type=template_type,
        )

    def list_template_versions(self, ctxt):
        return self._call(ctxt, "list_template_versions", version="1.11")

    def list_template_functions(self, ctxt, template_version, with_condition=False):
        return self._call(
            ctxt,
            "list_template_functions",
            version="1.35",
            template_version=template_version,
            with_condition=with_condition,
        )

    def list_services(self, ctxt):
        return self._call(ctxt, "list_services", version="1.4")

    def get_revision(self, ctxt):
        return self._call(ctxt, "get_revision")

    # -- software configs and deployments (docs/heat-api.md §4.6) ---------------------------

    def list_software_configs(self, ctxt, limit=None, marker=None):
        return self._call(ctxt, "list_software_configs", version="1.33", limit=limit, marker=marker)

    def show_software_config(self, ctxt, config_id):
        return self._call(ctxt, "show_software_config", config_id=config_id)

    def create_software_config(
        self, ctxt, group, name, config, inputs=None, outputs=None, options=None
    ):
        """Missing inputs/outputs are [] and missing options {} (as Heat's client)."""
        return self._call(
            ctxt,
            "create_software_config",
            group=group,
            name=name,
            config=config,
            inputs=inputs or [],
            outputs=outputs or [],
            options=options or {},
        )

    def delete_software_config(self, ctxt, config_id):
        return self._call(ctxt, "delete_software_config", config_id=config_id)

    def list_software_deployments(self, ctxt, server_id=None):
        return self._call(ctxt, "list_software_deployments", server_id=server_id)

    def metadata_software_deployments(self, ctxt, server_id):
        return self._call(ctxt, "metadata_software_deployments", server_id=server_id)

    def show_software_deployment(self, ctxt, deployment_id):
        return self._call(ctxt, "show_software_deployment", deployment_id=deployment_id)

    def check_software_deployment(self, ctxt, deployment_id, timeout):
        return self._call(
            ctxt,
            "check_software_deployment",
            version="1.27",
            # the engine waits up to ``timeout`` s, and the reply may take that long
            rpc_timeout=timeout,
            deployment_id=deployment_id,
            timeout=timeout,
        )

    def create_software_deployment(
        self,
        ctxt,
        server_id,
        config_id=None,
        input_values=None,
        action="INIT",
        status="COMPLETE",
        status_reason="",
        stack_user_project_id=None,
        deployment_id=None,
    ):
        return self._call(
            ctxt,
            "create_software_deployment",
            server_id=server_id,
            config_id=config_id,
            deployment_id=deployment_id,
            input_values=input_values or {},
            action=action,
            status=status,
            status_reason=status_reason,
            stack_user_project_id=stack_user_project_id,
        )

    def update_software_deployment(
        self,
        ctxt,
        deployment_id,
        config_id=None,
        input_values=None,
        output_values=None,
        action=None,
        status=None,
        status_reason=None,
        updated_at=None,
    ):
        return self._call(
            ctxt,
            "update_software_deployment",
            version="1.5",
            deployment_id=deployment_id,
            config_id=config_id,
            input_values=input_values,
            output_values=output_values,
            action=action,
            status=status,
            status_reason=status_reason,
            updated_at=updated_at,
        )

    def signal_software_deployment(self, ctxt, deployment_id, details, updated_at=None):
        return self._call(
            ctxt,
            "signal_software_deployment",
            version="1.6",
            deployment_id=deployment_id,
            details=details,
            updated_at=updated_at,
        )

    def delete_software_deployment(self, ctxt, deployment_id):
        return self._call(ctxt, "delete_software_deployment", deployment_id=deployment_id)
