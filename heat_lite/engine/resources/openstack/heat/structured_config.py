"""OS::Heat::StructuredConfig, StructuredDeployment and StructuredDeploymentGroup.

A StructuredConfig's ``config`` is a map rather than a string. A StructuredDeployment
substitutes its inputs into that map: ``{get_input: name}`` (the key is the
``input_key`` property) becomes the value of input ``name``, since tools such as
cfn-init have no inputs of their own.

    config: {files: {/etc/motd: {content: {get_input: motd}}}}
    input_values: {motd: hello}     -> derived config {files: {/etc/motd: {content: hello}}}
"""

import collections.abc

from heat_lite.common import exception
from heat_lite.engine import constraints, properties
from heat_lite.engine.resources.openstack.heat import software_config, software_deployment

P = properties.Schema

INPUT_KEY, INPUT_VALUES_VALIDATE = "input_key", "input_values_validate"

STRUCTURED_PROPERTIES = {
    INPUT_KEY: P(
        P.STRING,
        "Name of key to use for substituting inputs during deployment.",
        default="get_input",
    ),
    INPUT_VALUES_VALIDATE: P(
        P.STRING,
        "Perform a check on the input values passed to verify that each required input has "
        "a corresponding value. When the property is set to STRICT and no value is passed, "
        "an exception is raised.",
        default="LAX",
        constraints=[constraints.AllowedValues(["LAX", "STRICT"])],
    ),
}


class StructuredConfig(software_config.SoftwareConfig):
    properties_schema = dict(
        software_config.SoftwareConfig.properties_schema,
        **{
            software_config.CONFIG: P(
                P.MAP,
                "Map representing the configuration data structure which will be serialized "
                "to JSON format.",
            )
        },
    )


def substitute(snippet, inputs, input_key, strict=False):
    """``snippet`` with every ``{input_key: name}`` replaced by ``inputs[name]``.

    :raises: UserParameterMissing for a name without a value when ``strict``
    """
    if isinstance(snippet, collections.abc.Mapping):
        if len(snippet) == 1:
            fn_name, fn_arg = next(iter(snippet.items()))
            if fn_name == input_key and isinstance(fn_arg, str):
                if strict and fn_arg not in inputs:
                    raise exception.UserParameterMissing(key=fn_arg)
                return inputs.get(fn_arg)
        return {k: substitute(v, inputs, input_key, strict) for k, v in snippet.items()}
    if isinstance(snippet, list):
        return [substitute(v, inputs, input_key, strict) for v in snippet]
    return snippet


class StructuredDeployment(software_deployment.SoftwareDeployment):
    properties_schema = dict(
        software_deployment.SoftwareDeployment.properties_schema, **STRUCTURED_PROPERTIES
    )

    def empty_config(self):
        return {}

    def derived_config(self, action, source, inputs):
        return substitute(
            source.get(software_config.CONFIG),
            dict(i.input_data() for i in inputs),
            self.properties[INPUT_KEY],
            strict=self.properties[INPUT_VALUES_VALIDATE] == "STRICT",
        )


class StructuredDeploymentGroup(software_deployment.SoftwareDeploymentGroup):
    member_type = "OS::Heat::StructuredDeployment"
    member_properties = dict(software_deployment.DEPLOYMENT_PROPERTIES, **STRUCTURED_PROPERTIES)
    properties_schema = dict(
        software_deployment.SoftwareDeploymentGroup.properties_schema, **STRUCTURED_PROPERTIES
    )


class StructuredDeployments(StructuredDeploymentGroup):
    support_status = software_deployment.hidden_status("OS::Heat::StructuredDeploymentGroup")
    substitute_class = StructuredDeploymentGroup


def resource_mapping():
    return {
        "OS::Heat::StructuredConfig": StructuredConfig,
        "OS::Heat::StructuredDeployment": StructuredDeployment,
        "OS::Heat::StructuredDeploymentGroup": StructuredDeploymentGroup,
        "OS::Heat::StructuredDeployments": StructuredDeployments,
    }
