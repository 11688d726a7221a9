"""HOT: the Heat Orchestration Template format, every version Heat 27 knows.

Each version is a class with its own function table; later versions start from the
previous table (functions added, replaced, or ``Removed``). Functions Heat has but
heat-lite does not implement yet are ``NotImplementedYet`` (a clear error if used).

    tmpl = Template({'heat_template_version': 'rocky', 'resources': {...}})
    type(tmpl).__name__ == 'HOTemplate20180831'
"""

import collections.abc
import functools

from heat_lite.common import exception
from heat_lite.engine import function, parameters, rsrc_defn, template
from heat_lite.engine.hot import functions as hot_funcs

NYI = function.NotImplementedYet

_CFN_FUNCTIONS = (
    "Fn::GetAZs",
    "Fn::Join",
    "Fn::Split",
    "Fn::Replace",
    "Fn::Base64",
    "Fn::MemberListToMap",
    "Fn::ResourceFacade",
    "Ref",
)

FUNCTIONS_20130523 = {
    "get_param": hot_funcs.GetParam,
    "get_resource": hot_funcs.GetResource,
    "get_attr": hot_funcs.GetAttThenSelect,
    "list_join": hot_funcs.Join,
    "str_replace": hot_funcs.Replace,
    "get_file": hot_funcs.GetFile,
    "resource_facade": NYI,
    "Fn::Select": NYI,
    **{name: NYI for name in _CFN_FUNCTIONS},
}
FUNCTIONS_20141016 = {
    **FUNCTIONS_20130523,
    "get_attr": hot_funcs.GetAtt,
    **{name: function.Removed for name in _CFN_FUNCTIONS},
}
FUNCTIONS_20150430 = {**FUNCTIONS_20141016, "repeat": NYI, "digest": NYI}
FUNCTIONS_20151015 = {
    **FUNCTIONS_20150430,
    "get_attr": hot_funcs.GetAttAllAttributes,
    "list_join": hot_funcs.JoinMultiple,
    "str_replace": hot_funcs.ReplaceJson,
    "str_split": NYI,
    "Fn::Select": function.Removed,
}
FUNCTIONS_20160408 = {**FUNCTIONS_20151015, "map_merge": NYI}
FUNCTIONS_20161014 = {**FUNCTIONS_20160408, "yaql": NYI, "map_replace": NYI, "if": hot_funcs.If}
FUNCTIONS_20170224 = {
    **FUNCTIONS_20161014,
    "filter": NYI,
    "str_replace_strict": hot_funcs.ReplaceJsonStrict,
}
FUNCTIONS_20170901 = {
    **FUNCTIONS_20170224,
    "make_url": NYI,
    "list_concat": NYI,
    "list_concat_unique": NYI,
    "contains": NYI,
    "str_replace_vstrict": hot_funcs.ReplaceJsonVeryStrict,
}
FUNCTIONS_20210416 = {**FUNCTIONS_20170901, "if": hot_funcs.IfNullable}

CONDITION_FUNCTIONS_20161014 = {
    "get_param": hot_funcs.GetParam,
    "equals": hot_funcs.Equals,
    "not": hot_funcs.Not,
    "and": hot_funcs.And,
    "or": hot_funcs.Or,
}
CONDITION_FUNCTIONS_20170901 = {**CONDITION_FUNCTIONS_20161014, "yaql": NYI, "contains": NYI}


def _no_parse(snippet, path):
    return snippet


class HOTemplate20130523(template.Template):
    """HOT 2013-05-23; also the base of every later version."""

    CANONICAL_VERSION = "2013-05-23"
    SECTIONS = (VERSION, DESCRIPTION, PARAMETER_GROUPS, PARAMETERS, RESOURCES, OUTPUTS) = (
        "heat_template_version",
        "description",
        "parameter_groups",
        "parameters",
        "resources",
        "outputs",
    )
    CONDITIONS = "conditions"
    SECTIONS_NO_DIRECT_ACCESS = frozenset([PARAMETERS, VERSION])
    RESOURCE_KEYS = (
        RES_TYPE,
        RES_PROPERTIES,
        RES_METADATA,
        RES_DEPENDS_ON,
        RES_DELETION_POLICY,
        RES_UPDATE_POLICY,
        RES_DESCRIPTION,
    ) = (
        "type",
        "properties",
        "metadata",
        "depends_on",
        "deletion_policy",
        "update_policy",
        "description",
    )
    RES_EXTERNAL_ID, RES_CONDITION = "external_id", "condition"
    OUTPUT_KEYS = (OUTPUT_DESCRIPTION, OUTPUT_VALUE) = ("description", "value")
    OUTPUT_CONDITION = None
    deletion_policies = {p: p for p in rsrc_defn.ResourceDefinition.DELETION_POLICIES}
    param_schema_class = parameters.Schema
    functions = FUNCTIONS_20130523

    def __getitem__(self, section):
        if section not in self.SECTIONS:
            raise KeyError('"%s" is not a valid template section' % section)
        if section in self.SECTIONS_NO_DIRECT_ACCESS:
            raise KeyError("Section %s can not be accessed directly." % section)
        default = "No description" if section == self.DESCRIPTION else {}
        return self.t.get(section) or default

    @property
    def description(self):
        return self[self.DESCRIPTION]

    # -- validation of the template's structure

    def validate(self):
        """Top-level sections, then the keys of every resource."""
        for section in self.t:
            if section not in self.SECTIONS:
                raise exception.InvalidTemplateSection(section=section)
        resources = self.t.get(self.RESOURCES) or {}
        if not isinstance(resources, collections.abc.Mapping):
            raise exception.StackValidationFailed(
                message="'%s' object has no attribute 'items'" % type(resources).__name__
            )
        for _name, snippet in sorted(resources.items(), key=lambda i: str(i[0])):
            self._validate_resource_keys(snippet)

    def _validate_resource_keys(self, snippet):
        missing_type = "Each resource must contain a type key."
        if not snippet:
            raise exception.StackValidationFailed(message=missing_type)
        if not isinstance(snippet, collections.abc.Mapping):
            raise exception.StackValidationFailed(
                message='"resources" must contain a map of resource maps. '
                "Found a [%s] instead" % type(snippet)
            )
        for key in snippet:
            if key not in self.RESOURCE_KEYS:
                raise exception.StackValidationFailed(
                    message='"%s" is not a valid keyword inside a resource definition' % key
                )
        if self.RES_TYPE not in snippet:
            raise exception.StackValidationFailed(message=missing_type)

    # -- parameters

    def param_schemata(self, param_defaults=None):
        """{name: parameters.Schema}; InvalidSchemaError for a bad definition."""
        section = self.t.get(self.PARAMETERS) or {}
        if not isinstance(section, collections.abc.Mapping):
            raise exception.InvalidSchemaError(
                message="Invalid parameters section, expected a mapping"
            )
        schemata = {}
        for name, schema_dict in section.items():
            schema = self.param_schema_class.from_dict(name, schema_dict)
            if param_defaults and name in param_defaults:
                schema.set_default(param_defaults[name])
            schemata[name] = schema
        return schemata

    # -- resources

    def resource_definitions(self, stack):
        """{name: ResourceDefinition} in template order, without condition-disabled ones."""
        resources = self.t.get(self.RESOURCES) or {}
        conds = self.conditions(stack)
        definitions = {}
        for name, snippet in resources.items():
            defn = self._resource_definition(stack, name, snippet)
            cond = defn.condition()
            if cond is not None:
                try:
                    enabled = conds.is_enabled(cond)
                except ValueError as exc:
                    raise exception.StackValidationFailed(
                        path=[self.RESOURCES, name, self.RES_CONDITION], message=str(exc)
                    )
                if not enabled:
                    continue
            definitions[name] = defn
        return definitions

    def resource_definition(self, stack, name):
        """The definition of one resource, parsing nothing else (a worker's hot path)."""
        snippet = (self.t.get(self.RESOURCES) or {}).get(name)
        if snippet is None:
            return None
        return self._resource_definition(stack, name, snippet)

    def _resource_definition(self, stack, name, snippet):
        try:
            invalid = set(snippet) - set(self.RESOURCE_KEYS)
            if invalid:
                raise ValueError(
                    "Invalid keyword(s) inside a resource definition: %s" % ", ".join(invalid)
                )
            args = dict(self._rsrc_defn_args(stack, name, snippet))
        except (TypeError, ValueError, KeyError) as ex:
            raise exception.StackValidationFailed(message=str(ex))
        return rsrc_defn.ResourceDefinition(name, stack=stack, **args)

    def _field(self, key, valid_types, typename, name, data, parse_func):
        if key not in data:
            return None
        value = parse_func(data[key], ".".join([self.RESOURCES, name, key]))
        if not isinstance(value, valid_types):
            raise TypeError("Resource %s %s type must be %s" % (name, key, typename))
        return value

    def _rsrc_defn_args(self, stack, name, data):
        if self.RES_TYPE not in data:
            raise KeyError('Resource %s is missing "%s"' % (name, self.RES_TYPE))
        parse = functools.partial(self.parse, stack)
        field = functools.partial(self._field, name=name, data=data)
        obj = (collections.abc.Mapping, function.Function)
        yield "resource_type", field(self.RES_TYPE, str, "string", parse_func=parse)
        yield "properties", field(self.RES_PROPERTIES, obj, "object", parse_func=parse)
        yield "metadata", field(self.RES_METADATA, obj, "object", parse_func=parse)
        yield "depends", self._depends(name, data)
        policy = field(
            self.RES_DELETION_POLICY, (str, function.Function), "string", parse_func=parse
        )
        yield "deletion_policy", self._deletion_policy(function.resolve(policy))
        yield "update_policy", field(self.RES_UPDATE_POLICY, obj, "object", parse_func=parse)
        yield "description", field(self.RES_DESCRIPTION, str, "string", parse_func=_no_parse)

    def _depends(self, name, data):
        depends = self._field(
            self.RES_DEPENDS_ON,
            collections.abc.Sequence,
            "list or string",
            name,
            data,
            _no_parse,
        )
        if isinstance(depends, str):
            return [depends]
        for dep in depends or []:
            if not isinstance(dep, str):
                raise exception.StackValidationFailed(
                    message="Resource %s %s must be a list of strings" % (name, self.RES_DEPENDS_ON)
                )
        return depends

    def _deletion_policy(self, policy):
        if policy is None:
            return None
        if policy not in self.deletion_policies:
            raise exception.StackValidationFailed(message='Invalid deletion policy "%s"' % policy)
        return self.deletion_policies[policy]

    def add_resource(self, definition, name=None):
        """Put a ResourceDefinition into the template (depends_on kept to known names)."""
        name = definition.name if name is None else name
        if self.t.get(self.RESOURCES) is None:
            self.t[self.RESOURCES] = {}
        rendered = definition.render_hot()
        if rendered.get(self.RES_DEPENDS_ON):
            rendered[self.RES_DEPENDS_ON] = [
                d for d in rendered[self.RES_DEPENDS_ON] if d in self.t[self.RESOURCES]
            ]
        self.t[self.RESOURCES][name] = rendered

    def remove_resource(self, name):
        self.t.get(self.RESOURCES, {}).pop(name)

    def remove_all_resources(self):
        if self.RESOURCES in self.t:
            self.t[self.RESOURCES] = {}

    # -- outputs

    def outputs(self, stack):
        """{name: OutputDefinition}; a condition-disabled output has the value None."""
        conds = self.conditions(stack)
        outputs = self.t.get(self.OUTPUTS) or {}
        return {key: self._output(stack, conds, key, val) for key, val in outputs.items()}

    def _output(self, stack, conds, key, val):
        def invalid(message):
            return exception.StackValidationFailed(
                error="Output validation error", path=[self.OUTPUTS, key], message=message
            )

        if not isinstance(val, collections.abc.Mapping):
            raise invalid(
                "Output definitions must be a map. Found a %s instead" % type(val).__name__
            )
        if self.OUTPUT_VALUE not in val:
            raise invalid("Each output definition must contain a %s key." % self.OUTPUT_VALUE)
        description = val.get(self.OUTPUT_DESCRIPTION)
        if not self._output_enabled(stack, conds, key, val):
            return rsrc_defn.OutputDefinition(key, None, description)
        value = self.parse(stack, val[self.OUTPUT_VALUE], path="outputs.%s.value" % key)
        return rsrc_defn.OutputDefinition(key, value, description)

    def _output_enabled(self, stack, conds, key, val):
        if self.OUTPUT_CONDITION is None:
            return True
        path = [self.OUTPUTS, key, self.OUTPUT_CONDITION]
        cond = self.parse_condition(stack, val.get(self.OUTPUT_CONDITION), ".".join(path))
        try:
            return conds.is_enabled(function.resolve(cond))
        except ValueError as exc:
            raise exception.StackValidationFailed(path=path, message=str(exc))

    def add_output(self, definition):
        if self.t.get(self.OUTPUTS) is None:
            self.t[self.OUTPUTS] = {}
        self.t[self.OUTPUTS][definition.name] = definition.render_hot()


class HOTemplate20141016(HOTemplate20130523):
    CANONICAL_VERSION = "2014-10-16"
    functions = FUNCTIONS_20141016


class HOTemplate20150430(HOTemplate20141016):
    CANONICAL_VERSION = "2015-04-30"
    functions = FUNCTIONS_20150430


class HOTemplate20151015(HOTemplate20150430):
    CANONICAL_VERSION = "2015-10-15"
    functions = FUNCTIONS_20151015


class HOTemplate20160408(HOTemplate20151015):
    CANONICAL_VERSION = "2016-04-08"
    functions = FUNCTIONS_20160408


class HOTemplate20161014(HOTemplate20160408):
    """Adds conditions (section, resource/output ``condition``, ``if``) and external_id."""

    CANONICAL_VERSION = "2016-10-14"
    SECTIONS = HOTemplate20160408.SECTIONS + (HOTemplate20160408.CONDITIONS,)
    SECTIONS_NO_DIRECT_ACCESS = HOTemplate20160408.SECTIONS_NO_DIRECT_ACCESS | {"conditions"}
    RESOURCE_KEYS = HOTemplate20160408.RESOURCE_KEYS + ("external_id", "condition")
    OUTPUT_CONDITION = "condition"
    OUTPUT_KEYS = HOTemplate20160408.OUTPUT_KEYS + (OUTPUT_CONDITION,)
    deletion_policies = {
        **HOTemplate20160408.deletion_policies,
        **{p.lower(): p for p in rsrc_defn.ResourceDefinition.DELETION_POLICIES},
    }
    functions = FUNCTIONS_20161014
    condition_functions = CONDITION_FUNCTIONS_20161014

    def _condition_parser_functions(self):
        # removed functions keep their own error; any other function is invalid here
        parser = {
            n: f if f is function.Removed else function.Invalid for n, f in self.functions.items()
        }
        parser.update(self.condition_functions)
        return parser

    def _condition_definitions(self):
        return self.t.get(self.CONDITIONS, {})

    def _rsrc_defn_args(self, stack, name, data):
        yield from super()._rsrc_defn_args(stack, name, data)
        parse = functools.partial(self.parse, stack)
        parse_cond = functools.partial(self.parse_condition, stack)
        field = functools.partial(self._field, name=name, data=data)
        yield (
            "external_id",
            field(self.RES_EXTERNAL_ID, (str, function.Function), "string", parse_func=parse),
        )
        yield (
            "condition",
            field(
                self.RES_CONDITION,
                (str, bool, function.Function),
                "string_or_boolean",
                parse_func=parse_cond,
            ),
        )


class HOTemplate20170224(HOTemplate20161014):
    CANONICAL_VERSION = "2017-02-24"
    functions = FUNCTIONS_20170224
    param_schema_class = parameters.Schema20170224


class HOTemplate20170901(HOTemplate20170224):
    CANONICAL_VERSION = "2017-09-01"
    functions = FUNCTIONS_20170901
    condition_functions = CONDITION_FUNCTIONS_20170901


class HOTemplate20180302(HOTemplate20170901):
    CANONICAL_VERSION = "2018-03-02"
    param_schema_class = parameters.Schema20180302


class HOTemplate20180831(HOTemplate20180302):
    CANONICAL_VERSION = "2018-08-31"


class HOTemplate20210416(HOTemplate20180831):
    CANONICAL_VERSION = "2021-04-16"
    functions = FUNCTIONS_20210416


_RELEASE_NAMES = {
    HOTemplate20161014: "newton",
    HOTemplate20170224: "ocata",
    HOTemplate20170901: "pike",
    HOTemplate20180302: "queens",
    HOTemplate20180831: "rocky",
    HOTemplate20210416: "wallaby",
}

for _cls in (
    HOTemplate20130523,
    HOTemplate20141016,
    HOTemplate20150430,
    HOTemplate20151015,
    HOTemplate20160408,
    HOTemplate20161014,
    HOTemplate20170224,
    HOTemplate20170901,
    HOTemplate20180302,
    HOTemplate20180831,
    HOTemplate20210416,
):
    template.register(_cls, _cls.CANONICAL_VERSION, *filter(None, [_RELEASE_NAMES.get(_cls)]))
