"""What HOT and CFN templates share: sections, resource and output definitions.

A format subclass names its spellings (``RESOURCES = 'resources'`` or ``'Resources'``,
``RES_TYPE = 'type'`` or ``'Type'``, ...) and this class does the rest, as Heat's
``template_common.CommonTemplate`` does:

    tmpl = Template({'AWSTemplateFormatVersion': '2010-09-09', 'Resources': {...}})
    tmpl['Description']                       # 'No description' when absent
    defns = tmpl.resource_definitions(stack)  # {name: ResourceDefinition}, enabled only
    outs = tmpl.outputs(stack)                # {name: OutputDefinition}
"""

import collections.abc
import functools

from heat_lite.common import exception
from heat_lite.engine import function, rsrc_defn, template


def _no_parse(snippet, path):
    return snippet


class CommonTemplate(template.Template):
    """Section access and definitions, in the subclass's spelling."""

    DESCRIPTION = RESOURCES = OUTPUTS = PARAMETERS = None
    RES_TYPE = RES_PROPERTIES = RES_METADATA = RES_DEPENDS_ON = None
    RES_DELETION_POLICY = RES_UPDATE_POLICY = RES_DESCRIPTION = None
    RES_EXTERNAL_ID = RES_CONDITION = None
    OUTPUT_DESCRIPTION = OUTPUT_VALUE = OUTPUT_CONDITION = None
    # internal (HOT) field name -> spelling used in error paths of definitions
    DEFINITION_NAMES = None
    deletion_policies = {p: p for p in rsrc_defn.ResourceDefinition.DELETION_POLICIES}
    param_schema_class = None

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

    def _check_sections(self):
        for section in self.t:
            if section not in self.SECTIONS:
                raise exception.InvalidTemplateSection(section=section)

    # -- parameters

    _schemata = None  # param_schemata() without defaults, once built

    def param_schemata(self, param_defaults=None):
        """{name: Schema}; InvalidSchemaError for a bad definition. Without defaults the
        schemata are built once per template (a stack's parameters are made on every
        resource check; the k8s root template declares ~100): callers must not change them."""
        if param_defaults:
            return self._param_schemata(param_defaults)
        if self._schemata is None:
            self._schemata = self._param_schemata(None)
        return self._schemata

    def _param_schemata(self, param_defaults):
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
            self._check_resource_keywords(snippet)
            args = dict(self._rsrc_defn_args(stack, name, snippet))
        except (TypeError, ValueError, KeyError) as ex:
            raise exception.StackValidationFailed(message=str(ex))
        return rsrc_defn.ResourceDefinition(
            name, stack=stack, section_names=self.DEFINITION_NAMES, **args
        )

    def _check_resource_keywords(self, snippet):
        """Unknown keys in a resource; CFN accepts (and ignores) them, as Heat does."""

    def _field(self, key, valid_types, typename, name, data, parse_func):
        if key is None or key not in data:
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

    def _condition_field(self, stack, name, data, typename):
        parse_cond = functools.partial(self.parse_condition, stack)
        return self._field(
            self.RES_CONDITION,
            (str, bool, function.Function),
            typename,
            name,
            data,
            parse_func=parse_cond,
        )

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
        rendered = self._render_resource(definition.render_hot())
        depends = rendered.get(self.RES_DEPENDS_ON)
        if depends:
            known = [d for d in depends if d in self.t[self.RESOURCES]]
            rendered[self.RES_DEPENDS_ON] = self._render_depends(depends, known)
            if rendered[self.RES_DEPENDS_ON] is None:
                del rendered[self.RES_DEPENDS_ON]
        self.t[self.RESOURCES][name] = rendered

    def _render_resource(self, hot_snippet):
        """A HOT-rendered resource snippet in this format's spelling."""
        return hot_snippet

    def _render_depends(self, depends, known):
        """The depends_on value to store, given the ``known`` subset (None: leave out)."""
        return known

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
        names = self.DEFINITION_NAMES
        if not self._output_enabled(stack, conds, key, val):
            return rsrc_defn.OutputDefinition(key, None, description, section_names=names)
        path = ".".join([self.OUTPUTS, key, self.OUTPUT_VALUE])
        value = self.parse(stack, val[self.OUTPUT_VALUE], path=path)
        return rsrc_defn.OutputDefinition(key, value, description, section_names=names)

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
        rendered = definition.render_hot()
        self.t[self.OUTPUTS][definition.name] = {
            {"value": self.OUTPUT_VALUE, "description": self.OUTPUT_DESCRIPTION}[k]: v
            for k, v in rendered.items()
        }
