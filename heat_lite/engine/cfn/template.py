"""CFN: AWS CloudFormation-style templates, the two versions Heat 27 accepts.

``AWSTemplateFormatVersion: 2010-09-09`` (with ``Conditions``) and
``HeatTemplateFormatVersion: 2012-12-12`` (without):

    tmpl = Template({
        'AWSTemplateFormatVersion': '2010-09-09',
        'Parameters': {'Size': {'Type': 'Number', 'Default': 1}},
        'Conditions': {'Big': {'Fn::Equals': [{'Ref': 'Size'}, 10]}},
        'Resources': {'v': {'Type': 'OS::Heat::Value', 'Condition': 'Big',
                            'Properties': {'value': {'Ref': 'AWS::StackName'}}}},
        'Outputs': {'out': {'Value': {'Fn::GetAtt': ['v', 'value']}, 'Condition': 'Big'}},
    })
    type(tmpl).__name__ == 'CfnTemplate'

Unlike HOT, unknown keys inside a resource are accepted (and ignored), as in Heat.
"""

import collections.abc

from heat_lite.common import exception
from heat_lite.engine import template, template_common
from heat_lite.engine.cfn import functions as cfn_funcs
from heat_lite.engine.cfn import parameters as cfn_params

AWS_VERSION_KEY, HEAT_VERSION_KEY = template.CFN_VERSION_KEYS


class CfnTemplateBase(template_common.CommonTemplate):
    """What both CFN versions share."""

    FORMAT_TYPE = "cfn"
    SECTIONS = (
        VERSION,
        ALTERNATE_VERSION,
        DESCRIPTION,
        MAPPINGS,
        PARAMETERS,
        RESOURCES,
        OUTPUTS,
    ) = (
        AWS_VERSION_KEY,
        HEAT_VERSION_KEY,
        "Description",
        "Mappings",
        "Parameters",
        "Resources",
        "Outputs",
    )
    SECTIONS_NO_DIRECT_ACCESS = frozenset([PARAMETERS, VERSION, ALTERNATE_VERSION])
    RESOURCE_KEYS = (
        RES_TYPE,
        RES_PROPERTIES,
        RES_METADATA,
        RES_DEPENDS_ON,
        RES_DELETION_POLICY,
        RES_UPDATE_POLICY,
        RES_DESCRIPTION,
    ) = (
        "Type",
        "Properties",
        "Metadata",
        "DependsOn",
        "DeletionPolicy",
        "UpdatePolicy",
        "Description",
    )
    OUTPUT_KEYS = (OUTPUT_DESCRIPTION, OUTPUT_VALUE) = ("Description", "Value")
    # HOT field name (ResourceDefinition.render_hot, error paths) -> CFN spelling
    HOT_TO_CFN = {
        "resources": RESOURCES,
        "outputs": OUTPUTS,
        "value": OUTPUT_VALUE,
        "type": RES_TYPE,
        "properties": RES_PROPERTIES,
        "metadata": RES_METADATA,
        "depends_on": RES_DEPENDS_ON,
        "deletion_policy": RES_DELETION_POLICY,
        "update_policy": RES_UPDATE_POLICY,
    }
    DEFINITION_NAMES = HOT_TO_CFN
    param_schema_class = cfn_params.Schema

    @property
    def maps(self):
        """The ``Mappings`` section (``Fn::FindInMap`` looks keys up in it)."""
        return self[self.MAPPINGS]

    def validate(self):
        """Top-level sections, then that every resource has a ``Type``."""
        self._check_sections()
        resources = self[self.RESOURCES]
        if not isinstance(resources, collections.abc.Mapping):
            raise exception.StackValidationFailed(
                message="'%s' object has no attribute 'values'" % type(resources).__name__
            )
        for snippet in resources.values():
            if not isinstance(snippet, collections.abc.Mapping) and snippet:
                raise exception.StackValidationFailed(
                    message="Resources must contain Resource. Found a [%s] instead" % type(snippet)
                )
            if not snippet or not snippet.get(self.RES_TYPE):
                raise exception.StackValidationFailed(
                    message="Each Resource must contain a Type key."
                )

    def parameters(self, stack_identifier, user_params, param_defaults=None):
        return cfn_params.CfnParameters(stack_identifier, self, user_params, param_defaults)

    def _render_resource(self, hot_snippet):
        return {self.HOT_TO_CFN[k]: v for k, v in hot_snippet.items() if k in self.HOT_TO_CFN}

    def _render_depends(self, depends, known):
        if len(depends) == 1:  # a single dependency is written as a string
            return known[0] if known else None
        return known


class HeatTemplate(CfnTemplateBase):
    """``HeatTemplateFormatVersion: 2012-12-12``."""

    CANONICAL_VERSION = "2012-12-12"
    functions = {
        "Fn::FindInMap": cfn_funcs.FindInMap,
        "Fn::GetAZs": cfn_funcs.GetAZs,
        "Ref": cfn_funcs.Ref,
        "Fn::GetAtt": cfn_funcs.GetAtt,
        "Fn::Select": cfn_funcs.Select,
        "Fn::Join": cfn_funcs.Join,
        "Fn::Split": cfn_funcs.Split,
        "Fn::Replace": cfn_funcs.Replace,
        "Fn::Base64": cfn_funcs.Base64,
        "Fn::MemberListToMap": cfn_funcs.MemberListToMap,
        "Fn::ResourceFacade": cfn_funcs.ResourceFacade,
    }


class CfnTemplate(CfnTemplateBase):
    """``AWSTemplateFormatVersion: 2010-09-09``: adds ``Conditions``, ``Condition`` keys
    of resources and outputs, and ``Fn::If``."""

    CANONICAL_VERSION = "2010-09-09"
    CONDITIONS = "Conditions"
    SECTIONS = CfnTemplateBase.SECTIONS + (CONDITIONS,)
    SECTIONS_NO_DIRECT_ACCESS = CfnTemplateBase.SECTIONS_NO_DIRECT_ACCESS | {CONDITIONS}
    RES_CONDITION = "Condition"
    RESOURCE_KEYS = CfnTemplateBase.RESOURCE_KEYS + (RES_CONDITION,)
    OUTPUT_CONDITION = "Condition"
    OUTPUT_KEYS = CfnTemplateBase.OUTPUT_KEYS + (OUTPUT_CONDITION,)
    HOT_TO_CFN = {**CfnTemplateBase.HOT_TO_CFN, "condition": RES_CONDITION}
    functions = {**HeatTemplate.functions, "Fn::If": cfn_funcs.If}
    condition_functions = {
        "Fn::Equals": cfn_funcs.Equals,
        "Ref": cfn_funcs.ParamRef,
        "Fn::FindInMap": cfn_funcs.FindInMap,
        "Fn::Not": cfn_funcs.Not,
        "Fn::And": cfn_funcs.And,
        "Fn::Or": cfn_funcs.Or,
    }

    def _condition_definitions(self):
        return self.t.get(self.CONDITIONS, {})

    def _rsrc_defn_args(self, stack, name, data):
        yield from super()._rsrc_defn_args(stack, name, data)
        yield "condition", self._condition_field(stack, name, data, "string or boolean")


template.register(CfnTemplate, AWS_VERSION_KEY, CfnTemplate.CANONICAL_VERSION)
template.register(HeatTemplate, HEAT_VERSION_KEY, HeatTemplate.CANONICAL_VERSION)
