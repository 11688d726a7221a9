"""OS::Heat::SoftwareConfig: a stored, immutable config (StructuredConfig: structured_config.py).

The physical resource is a row of the software_configs API (the resource id is its id),
so ``get_resource: cfg`` is what a deployment's ``config`` property (or a server's
``user_data``) takes. Any change replaces it. Attribute ``config``: the config itself.

    cfg:
      type: OS::Heat::SoftwareConfig
      properties: {group: script, config: "echo hi", outputs: [{name: result}]}
"""

from heat_lite.common import exception
from heat_lite.engine import attributes, properties, resource, software
from heat_lite.engine import software_config_io as swc_io

P = properties.Schema

GROUP, CONFIG, OPTIONS, INPUTS, OUTPUTS = "group", "config", "options", "inputs", "outputs"
DEFAULT_GROUP = "Heat::Ungrouped"


def io_schema(member_schema, description):
    """A list-of-maps property whose items follow ``member_schema``."""
    return P(P.LIST, description, schema=P(P.MAP, schema=member_schema))


class SoftwareConfig(resource.Resource):
    properties_schema = {
        GROUP: P(
            P.STRING,
            "Namespace to group this software config by when delivered to a server. This "
            "may imply what configuration tool is going to perform the configuration.",
            default=DEFAULT_GROUP,
        ),
        CONFIG: P(
            P.STRING,
            "Configuration script or manifest which specifies what actual configuration "
            "is performed.",
        ),
        OPTIONS: P(
            P.MAP,
            "Map containing options specific to the configuration management tool used by "
            "this resource.",
        ),
        INPUTS: io_schema(
            swc_io.input_config_schema,
            "Schema representing the inputs that this software config is expecting.",
        ),
        OUTPUTS: io_schema(
            swc_io.output_config_schema,
            "Schema representing the outputs that this software config will produce.",
        ),
    }
    attributes_schema = {
        CONFIG: attributes.Schema(
            "The config value of the software config.", type=attributes.Schema.STRING
        ),
    }

    def handle_create(self):
        config = software.create_software_config(
            self.stack.context,
            group=self.properties[GROUP],
            name=self.physical_resource_name(),
            config=self.properties[CONFIG],
            inputs=self.properties[INPUTS] or [],
            outputs=self.properties[OUTPUTS] or [],
            options=self.properties[OPTIONS] or {},
        )
        self.resource_id_set(config["id"])

    def handle_delete(self):
        if self.resource_id is not None:
            ignore_not_found(software.delete_software_config, self.resource_id, self)

    def get_attribute(self, key, *path):
        if key != CONFIG or self.resource_id is None:
            return None
        try:
            config = software.show_software_config(self.stack.context, self.resource_id)
        except exception.NotFound:
            return None
        return attributes.select_from_attribute(config[CONFIG], path)


def ignore_not_found(func, object_id, rsrc):
    """``func(ctx, object_id)``; a row already gone is fine."""
    try:
        return func(rsrc.stack.context, object_id)
    except exception.NotFound:
        return None


def resource_mapping():
    return {"OS::Heat::SoftwareConfig": SoftwareConfig}
