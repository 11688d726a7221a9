"""HOT template parameters: schemas, typed values and the pseudo parameters of a stack.

    params = tmpl.parameters(identifier, {'flavor': 'm1.small'})
    params.validate()               # UnknownUserParameter / UserParameterMissing /
                                    # StackValidationFailed("Parameter 'p' is invalid: ...")
    params['flavor']                # typed value ('m1.small'; numbers, lists, dicts, bools)
    params['OS::stack_name']
    params.map(str)                 # {'flavor': 'm1.small', 'password': '******', ...}

Type names are HOT's: string, number, json, comma_delimited_list, boolean. Each template
version picks its schema class (``Schema``, ``Schema20170224`` adds ``modulo``,
``Schema20180302`` adds ``tags``).
"""

import collections.abc
import json

from heat_lite.common import exception
from heat_lite.engine import constraints as constr

PSEUDO_PARAMETERS = (PARAM_STACK_ID, PARAM_STACK_NAME, PARAM_REGION, PARAM_PROJECT_ID) = (
    "OS::stack_id",
    "OS::stack_name",
    "OS::region",
    "OS::project_id",
)

CONSTRAINT_KEYS = (
    DESCRIPTION,
    LENGTH,
    RANGE,
    MODULO,
    ALLOWED_VALUES,
    ALLOWED_PATTERN,
    CUSTOM_CONSTRAINT,
) = (
    "description",
    "length",
    "range",
    "modulo",
    "allowed_values",
    "allowed_pattern",
    "custom_constraint",
)
RANGE_KEYS = ("min", "max")
MODULO_KEYS = ("step", "offset")


def _num(cdef, key):
    value = cdef.get(key)
    return None if value is None else constr.str_to_num(value)


def check_dict(schema_dict, allowed_keys, entity):
    if not isinstance(schema_dict, dict):
        raise exception.InvalidSchemaError(message="Invalid %s, expected a mapping" % entity)
    for key in schema_dict:
        if key not in allowed_keys:
            raise exception.InvalidSchemaError(message="Invalid key '%s' for %s" % (key, entity))


class Schema(constr.Schema):
    """The schema of one HOT parameter (versions 2013-05-23 to 2016-10-14)."""

    KEYS = (TYPE, DESCRIPTION, DEFAULT, SCHEMA, CONSTRAINTS, HIDDEN, LABEL, IMMUTABLE) = (
        "type",
        "description",
        "default",
        "schema",
        "constraints",
        "hidden",
        "label",
        "immutable",
    )
    TAGS = "tags"
    TYPES = (STRING, NUMBER, LIST, MAP, BOOLEAN) = (
        "string",
        "number",
        "comma_delimited_list",
        "json",
        "boolean",
    )

    def __init__(
        self,
        data_type,
        description=None,
        default=None,
        constraints=None,
        hidden=False,
        label=None,
        immutable=False,
        tags=None,
    ):
        super().__init__(
            data_type,
            description=description,
            default=default,
            required=default is None,
            constraints=constraints,
            label=label,
            immutable=immutable,
        )
        self.hidden = hidden
        self.tags = tags

    def set_default(self, default=None):
        super().set_default(default)
        self.required = default is None

    def _validate_default(self, context):
        if self.default is None:
            return
        value = self.default
        if self.type == self.LIST:
            if isinstance(value, list):
                value = [str(x) for x in value]
            else:
                try:
                    value = value.split(",")
                except AttributeError as err:
                    raise exception.InvalidSchemaError(
                        message="Default must be a comma-delimited list string: %s" % err
                    )
        try:
            self.validate_constraints(value, context, [constr.CustomConstraint])
        except (ValueError, TypeError, exception.StackValidationFailed) as exc:
            raise exception.InvalidSchemaError(
                message="Invalid default %s (%s)" % (self.default, exc)
            )

    @classmethod
    def from_dict(cls, param_name, schema_dict):
        check_dict(schema_dict, cls.KEYS, "parameter (%s)" % param_name)
        if cls.TYPE not in schema_dict:
            raise exception.InvalidSchemaError(
                message="Missing parameter type for parameter: %s" % param_name
            )
        if not isinstance(schema_dict.get(cls.TAGS, []), list):
            raise exception.InvalidSchemaError(
                message="Tags property should be a list for parameter: %s" % param_name
            )
        return cls(
            schema_dict[cls.TYPE],
            description=schema_dict.get(cls.DESCRIPTION),
            default=schema_dict.get(cls.DEFAULT),
            constraints=list(cls._constraints(param_name, schema_dict)),
            hidden=schema_dict.get(cls.HIDDEN, False),
            label=schema_dict.get(cls.LABEL),
            immutable=schema_dict.get(cls.IMMUTABLE, False),
            tags=schema_dict.get(cls.TAGS),
        )

    @classmethod
    def _constraints(cls, param_name, schema_dict):
        defs = schema_dict.get(cls.CONSTRAINTS)
        if defs is None:
            return
        if not isinstance(defs, list):
            raise exception.InvalidSchemaError(
                message="Invalid parameter constraints for parameter %s, expected a list"
                % param_name
            )
        for cdef in defs:
            check_dict(cdef, CONSTRAINT_KEYS, "parameter constraints")
            yield cls._constraint_from_def(cdef)

    @classmethod
    def _constraint_from_def(cls, cdef):
        desc = cdef.get(DESCRIPTION)
        if RANGE in cdef:
            check_dict(cdef[RANGE], RANGE_KEYS, "range constraint")
            return constr.Range(_num(cdef[RANGE], "min"), _num(cdef[RANGE], "max"), desc)
        if LENGTH in cdef:
            check_dict(cdef[LENGTH], RANGE_KEYS, "length constraint")
            return constr.Length(_num(cdef[LENGTH], "min"), _num(cdef[LENGTH], "max"), desc)
        if ALLOWED_VALUES in cdef:
            return constr.AllowedValues(cdef[ALLOWED_VALUES], desc)
        if ALLOWED_PATTERN in cdef:
            return constr.AllowedPattern(cdef[ALLOWED_PATTERN], desc)
        if CUSTOM_CONSTRAINT in cdef:
            return constr.CustomConstraint(cdef[CUSTOM_CONSTRAINT], desc)
        raise exception.InvalidSchemaError(message="No constraint expressed")


class Schema20170224(Schema):
    """Adds the ``modulo`` constraint."""

    @classmethod
    def _constraint_from_def(cls, cdef):
        if MODULO in cdef:
            check_dict(cdef[MODULO], MODULO_KEYS, "modulo constraint")
            return constr.Modulo(
                _num(cdef[MODULO], "step"), _num(cdef[MODULO], "offset"), cdef.get(DESCRIPTION)
            )
        return super()._constraint_from_def(cdef)


class Schema20180302(Schema20170224):
    """Adds the ``tags`` key."""

    KEYS = Schema20170224.KEYS + (Schema.TAGS,)


class Parameter:
    """A parameter of a stack: schema plus the user's value (or a default)."""

    def __init__(self, name, schema, value=None):
        self.name = name
        self.schema = schema
        self.user_value = value
        self.user_default = None

    def validate(self, validate_value=True, context=None):
        try:
            self.schema.validate(context)
            if not validate_value:
                return
            if self.user_value is not None:
                self._validate(self.user_value, context)
            elif self.has_default():
                self._validate(self.default(), context)
            else:
                raise exception.UserParameterMissing(key=self.name)
        except exception.StackValidationFailed as ex:
            raise exception.StackValidationFailed(message=self._invalid(ex))
        except exception.InvalidSchemaError as ex:
            raise exception.InvalidSchemaError(message=self._invalid(ex))

    def _invalid(self, ex):
        return "Parameter '%s' is invalid: %s" % (self.name, ex)

    def _validate(self, value, context):
        self.schema.validate_constraints(value, context)

    def raw_value(self):
        if self.user_value is not None:
            return self.user_value
        if self.has_default():
            return self.default()
        raise exception.UserParameterMissing(key=self.name)

    def value(self):
        return self.raw_value()

    def has_value(self):
        return self.user_value is not None or self.has_default()

    def hidden(self):
        return self.schema.hidden

    def description(self):
        return self.schema.description or ""

    def label(self):
        return self.schema.label or self.name

    def tags(self):
        return self.schema.tags or []

    def has_default(self):
        return self.schema.default is not None or self.user_default is not None

    def default(self):
        return self.user_default if self.user_default is not None else self.schema.default

    def set_default(self, value):
        self.user_default = value

    def _value_as_text(self, value):
        return str(value)

    def __str__(self):
        value = self.value()
        return "******" if self.hidden() else self._value_as_text(value)


class StringParam(Parameter):
    def value(self):
        return str(self.raw_value())


class NumberParam(Parameter):
    def _validate(self, value, context):
        try:
            constr.str_to_num(value)
        except (ValueError, TypeError) as ex:
            raise exception.StackValidationFailed(message=str(ex))
        super()._validate(value, context)

    def value(self):
        return constr.str_to_num(self.raw_value())


class BooleanParam(Parameter):
    def _validate(self, value, context):
        try:
            constr.bool_from_string(value)
        except ValueError as ex:
            raise exception.StackValidationFailed(message=str(ex))
        super()._validate(value, context)

    def value(self):
        return constr.bool_from_string(str(self.raw_value()))


class _ParsedParam(Parameter):
    """A parameter whose text value is parsed (lists, JSON)."""

    def _validate(self, value, context):
        try:
            parsed = self.parse(value)
        except ValueError as ex:
            raise exception.StackValidationFailed(message=str(ex))
        super()._validate(parsed, context)

    def value(self):
        if not self.has_value():
            raise exception.UserParameterMissing(key=self.name)
        return self.parse(self.raw_value())


class CommaDelimitedListParam(_ParsedParam):
    def parse(self, value):
        if isinstance(value, list):
            return [str(x) for x in value]
        try:
            return value.split(",") if value != "" else []
        except AttributeError as err:
            raise ValueError("Value must be a comma-delimited list string: %s" % err)

    def _value_as_text(self, value):
        return ",".join(value)


class JsonParam(_ParsedParam):
    def parse(self, value):
        try:
            text = value if isinstance(value, str) else json.dumps(value)
            if text:
                return json.loads(text)
        except (ValueError, TypeError) as err:
            raise ValueError("Value must be valid JSON: %s" % err)
        return value

    def _value_as_text(self, value):
        return json.dumps(value)


def make_parameter(name, schema, value=None):
    """A Parameter of the class matching ``schema.type`` (HOT or CFN type names)."""
    classes = {
        schema.STRING: StringParam,
        schema.NUMBER: NumberParam,
        schema.LIST: CommaDelimitedListParam,
        schema.MAP: JsonParam,
        schema.BOOLEAN: BooleanParam,
    }
    return classes[schema.type](name, schema, value)


class Parameters(collections.abc.Mapping):
    """The parameters of a stack, name -> typed value; ``.params`` holds the objects.

    HOT's pseudo parameters; CFN templates use ``cfn.parameters.CfnParameters``.
    """

    PSEUDO_PARAMETERS = PSEUDO_PARAMETERS
    PARAM_STACK_ID = PARAM_STACK_ID

    def __init__(self, stack_identifier, tmpl, user_params=None, param_defaults=None):
        self.tmpl = tmpl
        self.user_params = dict(user_params or {})
        schemata = tmpl.param_schemata()
        self.params = {p.name: p for p in self._pseudo_parameters(stack_identifier)}
        for name, schema in schemata.items():
            self.params[name] = make_parameter(name, schema, self.user_params.get(name))
        self.non_pseudo_param_keys = [p for p in self.params if p not in self.PSEUDO_PARAMETERS]
        for name, default in (param_defaults or {}).items():
            if name in self.params:
                self.params[name].set_default(default)

    @staticmethod
    def _pseudo_parameters(stack_identifier):
        stack_id = getattr(stack_identifier, "stack_id", "")
        stack_name = getattr(stack_identifier, "stack_name", "")
        tenant = getattr(stack_identifier, "tenant", "")
        yield StringParam(PARAM_STACK_ID, Schema(Schema.STRING, "Stack ID", str(stack_id)))
        yield StringParam(PARAM_PROJECT_ID, Schema(Schema.STRING, "Project ID", str(tenant)))
        if stack_name:
            yield StringParam(PARAM_STACK_NAME, Schema(Schema.STRING, "Stack Name", stack_name))

    def validate(self, validate_value=True, context=None):
        """Unknown user parameters first, then every parameter's schema and value."""
        for name in self.user_params:
            if name not in self.non_pseudo_param_keys:
                raise exception.UnknownUserParameter(key=name)
        for param in self.params.values():
            param.validate(validate_value, context)

    def __contains__(self, key):
        return key in self.params

    def __iter__(self):
        return iter(self.params)

    def __len__(self):
        return len(self.params)

    def __getitem__(self, key):
        return self.params[key].value()

    def map(self, func, filter_func=lambda p: True):
        """{name: func(Parameter)}; ``map(str)`` shows hidden values as '******'."""
        return {n: func(p) for n, p in self.params.items() if filter_func(p)}

    def set_stack_id(self, stack_identifier):
        if stack_identifier is None:
            return False
        self.params[self.PARAM_STACK_ID].schema.set_default(self._stack_id(stack_identifier))
        return True

    @staticmethod
    def _stack_id(stack_identifier):
        return stack_identifier.stack_id

    def immutable_params_modified(self, new_parameters, input_params):
        """Names of immutable parameters an update would change, or None."""
        common = set(new_parameters.non_pseudo_param_keys) & set(self.non_pseudo_param_keys)
        changed = []
        for name in sorted(common):
            new_value = input_params[name] if name in input_params else new_parameters[name]
            immutable = new_parameters.params[name].schema.immutable
            if immutable and self.params[name].value() != new_value:
                changed.append(name)
        return changed or None
