"""OS::Heat::SoftwareDeployment (and SoftwareDeploymentGroup): a config applied to a server.

On each of its ``actions`` (default CREATE and UPDATE) the resource derives a config
from ``config``: the config's inputs with this deployment's ``input_values`` plus the
``deploy_*`` inputs (server, action, stack, resource name, signal transport), stores
it, and points its software_deployment row (id = the resource id) at it:
IN_PROGRESS "Deploy data available". It then waits until the deployment is COMPLETE
or FAILED: an agent in the server signals it (``POST .../resources/<name>/signal``
with ``deploy_stdout``, ``deploy_status_code`` and outputs), or someone PUTs the
deployment. With ``signal_transport: NO_SIGNAL`` it completes at once.

The simulated cloud has no agent: unless ``[simulated_cloud] signal_deployments`` is
false, a waiting deployment is signalled as successful with empty outputs.

Attributes: ``deploy_stdout``, ``deploy_stderr``, ``deploy_status_code`` and every
output the config declares (any name: their values come from the signal).
"""

import uuid

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.engine import (
    attributes,
    constraints,
    event,
    properties,
    resource,
    software,
)
from heat_lite.engine import software_config_io as swc_io
from heat_lite.engine.resources.openstack.heat import resource_group
from heat_lite.engine.resources.openstack.heat.software_config import ignore_not_found
from heat_lite.rpc import api as rpc_api

P = properties.Schema

CONFIG, SERVER, INPUT_VALUES, DEPLOY_ACTIONS, NAME, SIGNAL_TRANSPORT = (
    "config",
    "server",
    "input_values",
    "actions",
    "name",
    "signal_transport",
)
ALLOWED_DEPLOY_ACTIONS = (
    rpc_api.CREATE,
    rpc_api.UPDATE,
    rpc_api.DELETE,
    rpc_api.SUSPEND,
    rpc_api.RESUME,
)
SIGNAL_TRANSPORTS = (CFN_SIGNAL, TEMP_URL_SIGNAL, HEAT_SIGNAL, NO_SIGNAL, ZAQAR_SIGNAL) = (
    "CFN_SIGNAL",
    "TEMP_URL_SIGNAL",
    "HEAT_SIGNAL",
    "NO_SIGNAL",
    "ZAQAR_SIGNAL",
)
# Heat's [DEFAULT] default_deployment_signal_transport
DEFAULT_SIGNAL_TRANSPORT = CFN_SIGNAL
# what the simulated cloud's (absent) agent reports
SIMULATED_SIGNAL = {
    software.DEPLOY_STDOUT: "",
    software.DEPLOY_STDERR: "",
    software.DEPLOY_STATUS_CODE: 0,
}

DEPLOYMENT_PROPERTIES = {
    CONFIG: P(
        P.STRING,
        "ID of software configuration resource to execute when applying to the server.",
        update_allowed=True,
    ),
    INPUT_VALUES: P(
        P.MAP,
        "Input values to apply to the software configuration on this server.",
        update_allowed=True,
    ),
    DEPLOY_ACTIONS: P(
        P.LIST,
        "Which lifecycle actions of the deployment resource will result in this deployment "
        "being triggered.",
        update_allowed=True,
        default=[rpc_api.CREATE, rpc_api.UPDATE],
        constraints=[constraints.AllowedValues(ALLOWED_DEPLOY_ACTIONS)],
    ),
    NAME: P(
        P.STRING,
        "Name of the derived config associated with this deployment. This is used to apply a "
        "sort order to the list of configurations currently deployed to a server.",
        update_allowed=True,
    ),
    SIGNAL_TRANSPORT: P(
        P.STRING,
        "How the server should signal to heat with the deployment output values. "
        "NO_SIGNAL will result in the resource going to the COMPLETE state without waiting "
        "for any signal.",
        default=DEFAULT_SIGNAL_TRANSPORT,
        constraints=[constraints.AllowedValues(SIGNAL_TRANSPORTS)],
    ),
}


class SoftwareDeployment(resource.Resource):
    properties_schema = dict(
        DEPLOYMENT_PROPERTIES,
        **{
            SERVER: P(
                P.STRING,
                "ID of resource to apply configuration to. Normally this should be a Nova "
                "server ID.",
                required=True,
            )
        },
    )
    attributes_schema = {
        software.DEPLOY_STDOUT: attributes.Schema(
            "Captured stdout from the configuration execution.", type=attributes.Schema.STRING
        ),
        software.DEPLOY_STDERR: attributes.Schema(
            "Captured stderr from the configuration execution.", type=attributes.Schema.STRING
        ),
        software.DEPLOY_STATUS_CODE: attributes.Schema(
            "Returned status code from the configuration execution.",
            type=attributes.Schema.STRING,
        ),
    }
    # the config's declared outputs are attributes too
    dynamic_attributes = True

    # -- the derived config ----------------------------------------------------------------

    def _load_config(self, config_id=None):
        """The config (by default the ``config`` property's) with InputConfig/OutputConfig
        members; {} with no members when there is none."""
        if config_id is None:
            config_id = self.properties[CONFIG]
        config = software.show_software_config(self.stack.context, config_id) if config_id else {}
        config["inputs"] = [swc_io.InputConfig(**i) for i in config.get("inputs") or []]
        config["outputs"] = [swc_io.OutputConfig(**o) for o in config.get("outputs") or []]
        return config

    def _derived_inputs(self, action, source):
        """The source's inputs with their values, the undeclared input_values, then the
        ``deploy_*`` inputs an agent needs."""
        values = dict(self.properties[INPUT_VALUES] or {})
        inputs = [
            swc_io.InputConfig(value=values.pop(i.name(), i.default()), **i.as_dict())
            for i in source["inputs"]
        ]
        inputs += [swc_io.InputConfig(name=k, value=v) for k, v in values.items()]
        transport = self.properties[SIGNAL_TRANSPORT]
        deploy = [
            ("deploy_server_id", self.properties[SERVER], "ID of the server being deployed to"),
            ("deploy_action", action, "Name of the current action being deployed"),
            (
                "deploy_stack_id",
                self.stack.identifier().stack_path(),
                "ID of the stack this deployment belongs to",
            ),
            ("deploy_resource_name", self.name, "Name of this deployment resource in the stack"),
            (
                "deploy_signal_transport",
                transport,
                "How the server should signal to heat with the deployment output values.",
            ),
        ]
        if transport == HEAT_SIGNAL:
            ctx = self.stack.context
            deploy += [
                ("deploy_auth_url", ctx.auth_url, "URL for API authentication"),
                ("deploy_username", ctx.username, "Username for API authentication"),
                ("deploy_user_id", ctx.user_id, "User ID for API authentication"),
                ("deploy_password", None, "Password for API authentication"),
                (
                    "deploy_project_id",
                    self.stack.stack_user_project_id,
                    "ID of project for API authentication",
                ),
            ]
        inputs += [
            swc_io.InputConfig(name=name, value=value, description=description)
            for name, value, description in deploy
        ]
        return inputs

    def empty_config(self):
        return ""

    def derived_config(self, action, source, inputs):
        """The config text of the derived config (StructuredDeployment substitutes)."""
        return source.get("config")

    def _create_derived_config(self, action, source):
        inputs = self._derived_inputs(action, source)
        derived = software.create_software_config(
            self.stack.context,
            group=source.get("group") or "Heat::Ungrouped",
            name=self.properties[NAME] or source.get("name") or self.physical_resource_name(),
            config=self.derived_config(action, source, inputs) or self.empty_config(),
            inputs=[i.as_dict() for i in inputs],
            outputs=[o.as_dict() for o in source["outputs"]],
            options=source.get("options"),
        )
        return derived["id"]

    # -- the deployment --------------------------------------------------------------------

    def _no_signal(self):
        return self.properties[SIGNAL_TRANSPORT] == NO_SIGNAL

    def _derived_config_id(self):
        return software.show_software_deployment(self.stack.context, self.resource_id)["config_id"]

    def _handle_action(self, action, config=None, prev_derived_config=None):
        """Deploy for ``action`` if it is one of ``actions``: the token to wait on (the
        deployment id), or None when there is nothing to wait for."""
        if action not in (self.properties[DEPLOY_ACTIONS] or []):
            return None
        config = config if config is not None else self._load_config()
        values = {
            "config_id": self._create_derived_config(action, config),
            "action": action,
            "input_values": self.properties[INPUT_VALUES],
        }
        if self._no_signal():
            values.update(status=rpc_api.COMPLETE, status_reason="Not waiting for outputs signal")
        else:
            values.update(status=rpc_api.IN_PROGRESS, status_reason="Deploy data available")
        ctx = self.stack.context
        if self.resource_id is None:
            # stored at once: a signal sent while the deployment waits finds it
            self.resource_id_set(str(uuid.uuid4()))
            software.create_software_deployment(
                ctx,
                server_id=self.properties[SERVER],
                stack_user_project_id=self.stack.stack_user_project_id,
                deployment_id=self.resource_id,
                **values,
            )
        else:
            if prev_derived_config is None:
                prev_derived_config = self._derived_config_id()
            software.update_software_deployment(ctx, self.resource_id, **values)
            if prev_derived_config:
                ignore_not_found(software.delete_software_config, prev_derived_config, self)
        return None if self._no_signal() else self.resource_id

    def _check_complete(self, token):
        """True once the deployment is COMPLETE; Error when it FAILED."""
        if not token:
            return True
        ctx = self.stack.context
        sd = software.show_software_deployment(ctx, token)
        if sd["status"] == rpc_api.IN_PROGRESS and CONF.simulated_cloud.signal_deployments:
            software.signal_software_deployment(ctx, token, dict(SIMULATED_SIGNAL))
            sd = software.show_software_deployment(ctx, token)
        if sd["status"] == rpc_api.IN_PROGRESS and self._stack_being_deleted():
            # Heat's handle_*_cancel: stop waiting for an agent that will not answer now.
            # The action ends (not fails), so its node is handed over to the delete.
            software.update_software_deployment(
                ctx, token, status=rpc_api.FAILED, status_reason="Deployment cancelled."
            )
            return True
        if sd["status"] == rpc_api.FAILED:
            raise exception.Error("Deployment to server failed: %s" % sd["status_reason"])
        return sd["status"] == rpc_api.COMPLETE

    def _stack_being_deleted(self):
        """A stack delete superseded the traversal this deployment waits in."""
        row = self.stack_row(self.stack.id, show_deleted=True)
        return (
            row is not None
            and row.action == rpc_api.DELETE
            and row.current_traversal != self.stack.current_traversal
        )

    def handle_create(self):
        return self._handle_action(rpc_api.CREATE)

    def check_create_complete(self, token):
        return self._check_complete(token)

    def needs_replace(self, prop_diff, after):
        """A changed input declared ``replace_on_change`` needs a new deployment."""
        if super().needs_replace(prop_diff, after):
            return True
        if self.resource_id is None or INPUT_VALUES not in prop_diff:
            return False
        try:
            old = self._load_config(self._derived_config_id())
        except exception.NotFound:
            return False
        old_values = dict(i.input_data() for i in old["inputs"])
        new_values = dict(after.get(INPUT_VALUES) or {})
        source = self._load_config(after.get(CONFIG))
        return any(
            i.replace_on_change()
            and i.name() in old_values
            and new_values.get(i.name(), i.default()) != old_values[i.name()]
            for i in source["inputs"]
        )

    def handle_update(self, new_defn, prop_diff):
        prev = self._derived_config_id() if self.resource_id is not None else None
        return self._handle_action(rpc_api.UPDATE, prev_derived_config=prev)

    def check_update_complete(self, token):
        return self._check_complete(token)

    def handle_delete(self):
        if self.resource_id is None:
            return None
        try:
            return self._handle_action(rpc_api.DELETE)
        except exception.NotFound:
            return None

    def check_delete_complete(self, token):
        if token and not self._check_complete(token):
            return False
        self._delete_deployment()
        return True

    def _delete_deployment(self):
        if self.resource_id is None:
            return
        ctx = self.stack.context
        try:
            derived = self._derived_config_id()
            software.delete_software_deployment(ctx, self.resource_id)
        except exception.NotFound:
            return
        ignore_not_found(software.delete_software_config, derived, self)

    def handle_suspend(self):
        return self._handle_action(rpc_api.SUSPEND)

    def check_suspend_complete(self, token):
        return self._check_complete(token)

    def handle_resume(self):
        return self._handle_action(rpc_api.RESUME)

    def check_resume_complete(self, token):
        return self._check_complete(token)

    def handle_signal(self, details):
        """An agent's report (resource signal): completes or fails the deployment.

        Recorded first as a ``SIGNAL_<status>`` event, as Heat's Resource.signal does.
        """
        event.add_resource_event(self, signal_summary(details), action="SIGNAL")
        return software.signal_software_deployment(self.stack.context, self.resource_id, details)

    def get_attribute(self, key, *path):
        """The deployment's output ``key`` (None until signalled)."""
        if self.resource_id is None:
            return None
        try:
            sd = software.show_software_deployment(self.stack.context, self.resource_id)
        except exception.NotFound:
            return None
        outputs = sd["output_values"] or {}
        return attributes.select_from_attribute(outputs.get(key), path)


def signal_summary(details):
    """Heat's event reason for a deployment signal."""
    if details is None:
        return "No signal details provided"
    if isinstance(details, str):
        return details
    if isinstance(details, dict) and software.DEPLOY_STATUS_CODE in details:
        code = details[software.DEPLOY_STATUS_CODE]
        return "deployment succeeded" if code == 0 else "deployment failed (%s)" % code
    return "Unknown"


# -- groups -----------------------------------------------------------------------------

SERVERS = "servers"
GROUP_ATTRIBUTES = {
    "deploy_stdouts": software.DEPLOY_STDOUT,
    "deploy_stderrs": software.DEPLOY_STDERR,
    "deploy_status_codes": software.DEPLOY_STATUS_CODE,
}


class SoftwareDeploymentGroup(resource_group.ResourceGroup):
    """One SoftwareDeployment per entry of ``servers`` ({name: server id}), in a nested
    stack; attributes are maps {name: the member's attribute}."""

    member_type = "OS::Heat::SoftwareDeployment"
    member_properties = DEPLOYMENT_PROPERTIES
    properties_schema = dict(
        DEPLOYMENT_PROPERTIES,
        **{
            SERVERS: P(
                P.MAP,
                "A map of names and server IDs to apply configuration to. The name is "
                "arbitrary and is used as the Heat resource name for the corresponding "
                "deployment.",
                update_allowed=True,
                required=True,
            )
        },
    )
    attributes_schema = {
        "deploy_stdouts": attributes.Schema(
            "A map of Nova names and captured stdouts from the configuration execution to "
            "each server.",
            type=attributes.Schema.MAP,
        ),
        "deploy_stderrs": attributes.Schema(
            "A map of Nova names and captured stderrs from the configuration execution to "
            "each server.",
            type=attributes.Schema.MAP,
        ),
        "deploy_status_codes": attributes.Schema(
            "A map of Nova names and returned status code from the configuration execution.",
            type=attributes.Schema.MAP,
        ),
    }

    def child_template(self):
        props = {
            key: self.properties[key]
            for key in self.member_properties
            if self.properties[key] is not None
        }
        return {
            "heat_template_version": "2015-04-30",
            "resources": {
                name: {"type": self.member_type, "properties": dict(props, server=server)}
                for name, server in (self.properties[SERVERS] or {}).items()
            },
        }

    def get_attribute(self, key, *path):
        member_attr = GROUP_ATTRIBUTES.get(key, key)
        values = {name: member.get_attribute(member_attr) for name, member in self._members()}
        return attributes.select_from_attribute(values, path)


def hidden_status(substitute):
    """The support status of a pre-Liberty alias: usable in templates, never listed."""
    return {
        "status": "HIDDEN",
        "message": "Please use %s instead." % substitute,
        "version": "7.0.0",
        "previous_status": {
            "status": "DEPRECATED",
            "message": None,
            "version": "2014.2",
            "previous_status": None,
        },
    }


class SoftwareDeployments(SoftwareDeploymentGroup):
    support_status = hidden_status("OS::Heat::SoftwareDeploymentGroup")
    substitute_class = SoftwareDeploymentGroup


def resource_mapping():
    return {
        "OS::Heat::SoftwareDeployment": SoftwareDeployment,
        "OS::Heat::SoftwareDeploymentGroup": SoftwareDeploymentGroup,
        "OS::Heat::SoftwareDeployments": SoftwareDeployments,
    }
