"""Typed schemas and value constraints, shared by template parameters and resource properties.

A ``Schema`` knows a type and a list of ``Constraint`` objects; ``validate_constraints``
raises ``StackValidationFailed`` with Heat's message for the first one that fails
(the constraint's own ``description`` replaces the built-in message when given).

    schema = Schema(Schema.INTEGER, constraints=[Range(1, 10)])
    schema.validate_constraints(11)
    # StackValidationFailed: 11 is out of range (min: 1, max: 10)

Custom constraints (``custom_constraint: nova.flavor``) look their validator up in a
registry filled by whoever knows the cloud: ``register_constraint(name, validator)``.
"""

import collections.abc
import importlib
import json
import numbers
import re

from heat_lite.common import exception

_TRUE_STRINGS = ("1", "t", "true", "on", "y", "yes")
_FALSE_STRINGS = ("0", "f", "false", "off", "n", "no")


def bool_from_string(value):
    """Strict boolean parsing, with oslo.utils' error message."""
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in _TRUE_STRINGS:
        return True
    if text in _FALSE_STRINGS:
        return False
    acceptable = ", ".join("'%s'" % s for s in sorted(_TRUE_STRINGS + _FALSE_STRINGS))
    raise ValueError("Unrecognized value '%s', acceptable values are: %s" % (value, acceptable))


def str_to_num(value):
    """'3' -> 3, '2.5' -> 2.5; numbers are returned unchanged."""
    if isinstance(value, numbers.Number):
        return value
    try:
        return int(value)
    except ValueError:
        return float(value)


class Schema(collections.abc.Mapping):
    """A typed schema with constraints; subclasses choose the type names (``TYPES``)."""

    KEYS = (TYPE, DESCRIPTION, DEFAULT, SCHEMA, REQUIRED, CONSTRAINTS, IMMUTABLE) = (
        "type",
        "description",
        "default",
        "schema",
        "required",
        "constraints",
        "immutable",
    )

    # the kinds a constraint may apply to; each Schema subclass maps them to its names
    TYPE_KEYS = (INTEGER_TYPE, STRING_TYPE, NUMBER_TYPE, BOOLEAN_TYPE, MAP_TYPE, LIST_TYPE) = (
        "INTEGER",
        "STRING",
        "NUMBER",
        "BOOLEAN",
        "MAP",
        "LIST",
    )

    TYPES = (INTEGER, STRING, NUMBER, BOOLEAN, MAP, LIST, ANY) = (
        "Integer",
        "String",
        "Number",
        "Boolean",
        "Map",
        "List",
        "Any",
    )

    def __init__(
        self,
        data_type,
        description=None,
        default=None,
        schema=None,
        required=False,
        constraints=None,
        label=None,
        immutable=False,
    ):
        if data_type not in self.TYPES:
            raise exception.InvalidSchemaError(message="Invalid type (%s)" % data_type)
        self.type = data_type
        self.description = description
        self.default = default
        self.required = required
        self.label = label
        self.immutable = immutable
        self.constraints = list(constraints or [])
        self.schema = self._member_schema(schema)

    def _member_schema(self, schema):
        if schema is None:
            return None
        if isinstance(schema, Schema):
            if self.type != self.LIST:
                raise exception.InvalidSchemaError(
                    message="Single schema valid only for %s, not %s" % (self.LIST, self.type)
                )
            return AnyIndexDict(schema)
        if self.type not in (self.LIST, self.MAP):
            raise exception.InvalidSchemaError(
                message="Schema valid only for %s or %s, not %s" % (self.LIST, self.MAP, self.type)
            )
        return schema

    def validate(self, context=None):
        """Check the constraints suit the type and the default obeys them."""
        for c in self.constraints:
            if not any(self.type == getattr(self, t, None) for t in c.valid_types):
                raise exception.InvalidSchemaError(
                    message="%s constraint invalid for %s" % (type(c).__name__, self.type)
                )
        self._validate_default(context)
        for nested in (self.schema or {}).values():
            nested.validate(context)

    def _validate_default(self, context):
        if self.default is None:
            return
        try:
            self.validate_constraints(self.default, context, [CustomConstraint])
        except (ValueError, TypeError, exception.StackValidationFailed) as exc:
            raise exception.InvalidSchemaError(
                message="Invalid default %s (%s)" % (self.default, exc)
            )

    def set_default(self, default=None):
        self.default = default

    def to_schema_type(self, value):
        """Convert ``value`` to this schema's type (numbers from strings, booleans...)."""
        try:
            if self.type == self.INTEGER:
                num = str_to_num(value)
                if isinstance(num, float):
                    raise ValueError("%s is not an integer." % num)
                return num
            if self.type == self.NUMBER:
                return str_to_num(value)
            if self.type == self.STRING:
                return str(value)
            if self.type == self.BOOLEAN:
                return bool_from_string(str(value))
        except ValueError:
            raise ValueError('Value "%s" is invalid for data type "%s".' % (value, self.type))
        return value

    def validate_constraints(self, value, context=None, skipped=None):
        skipped = skipped or []
        try:
            for constraint in self.constraints:
                if type(constraint) not in skipped:
                    constraint.validate(value, self, context)
        except ValueError as ex:
            raise exception.StackValidationFailed(message=str(ex))

    # Mapping: the schema as the API shows it (resource type schemas, parameters)
    def __getitem__(self, key):
        if key == self.TYPE:
            return self.type.lower()
        value = {
            self.DESCRIPTION: self.description,
            self.DEFAULT: self.default,
            self.REQUIRED: self.required,
            self.SCHEMA: self._schema_dict(),
            self.CONSTRAINTS: [dict(c) for c in self.constraints] or None,
        }.get(key)
        if value is None:
            raise KeyError(key)
        return value

    def _schema_dict(self):
        if self.schema is None:
            return None
        return {n: dict(s) for n, s in self.schema.items()}

    def __iter__(self):
        for k in self.KEYS:
            try:
                self[k]
            except KeyError:
                continue
            yield k

    def __len__(self):
        return len(list(iter(self)))


class AnyIndexDict(collections.abc.Mapping):
    """The member schema of a list: the same schema for every index, shown as ``'*'``."""

    ANYTHING = "*"

    def __init__(self, value):
        self.value = value

    def __getitem__(self, key):
        if key != self.ANYTHING and not isinstance(key, int):
            raise KeyError("Invalid key %s" % key)
        return self.value

    def __iter__(self):
        yield self.ANYTHING

    def __len__(self):
        return 1


class Constraint(collections.abc.Mapping):
    """A constraint; ``dict(c)`` is its HOT form, e.g. ``{'range': {'min': 1}}``."""

    DESCRIPTION = "description"
    valid_types = ()

    def __init__(self, description=None):
        self.description = description

    def validate(self, value, schema=None, context=None):
        if not self._is_valid(value, schema, context):
            raise ValueError(self.description or self._err_msg(value))

    def __str__(self):
        parts = [self.description] if self.description else []
        return "\n".join(parts + [self._str()])

    @classmethod
    def _name(cls):
        return "_".join(w.lower() for w in re.findall("[A-Z]?[a-z]+", cls.__name__))

    def __getitem__(self, key):
        if key == self.DESCRIPTION and self.description is not None:
            return self.description
        if key == self._name():
            return self._constraint()
        raise KeyError(key)

    def __iter__(self):
        if self.description is not None:
            yield self.DESCRIPTION
        yield self._name()

    def __len__(self):
        return 2 if self.description is not None else 1


def _min_max_dict(c):
    return {k: v for k, v in (("min", c.min), ("max", c.max)) if v is not None}


class Range(Constraint):
    valid_types = (Schema.INTEGER_TYPE, Schema.NUMBER_TYPE)

    def __init__(self, min=None, max=None, description=None):
        super().__init__(description)
        for param in (min, max):
            if not isinstance(param, (float, int, type(None))):
                raise exception.InvalidSchemaError(message="min/max must be numeric")
        if min is None and max is None:
            raise exception.InvalidSchemaError(
                message="A range constraint must have a min value and/or a max value specified."
            )
        self.min, self.max = min, max

    def _str(self):
        if self.max is None:
            return "The value must be at least %(min)s." % self._constraint()
        if self.min is None:
            return "The value must be no greater than %(max)s." % self._constraint()
        return "The value must be in the range %(min)s to %(max)s." % self._constraint()

    def _err_msg(self, value):
        return "%s is out of range (min: %s, max: %s)" % (value, self.min, self.max)

    def _is_valid(self, value, schema, context):
        value = str_to_num(value)
        too_small = self.min is not None and value < self.min
        too_big = self.max is not None and value > self.max
        return not (too_small or too_big)

    def _constraint(self):
        return _min_max_dict(self)


class Length(Range):
    valid_types = (Schema.STRING_TYPE, Schema.LIST_TYPE, Schema.MAP_TYPE)

    def __init__(self, min=None, max=None, description=None):
        if min is None and max is None:
            raise exception.InvalidSchemaError(
                message="A length constraint must have a min value and/or a max value specified."
            )
        super().__init__(min, max, description)
        for param in (min, max):
            if not isinstance(param, (int, type(None))):
                raise exception.InvalidSchemaError(message="min/max length must be integral")

    def _str(self):
        if self.max is None:
            return "The length must be at least %(min)s." % self._constraint()
        if self.min is None:
            return "The length must be no greater than %(max)s." % self._constraint()
        return "The length must be in the range %(min)s to %(max)s." % self._constraint()

    def _err_msg(self, value):
        return "length (%d) is out of range (min: %s, max: %s)" % (len(value), self.min, self.max)

    def _is_valid(self, value, schema, context):
        return super()._is_valid(len(value), schema, context)


class Modulo(Constraint):
    valid_types = (Schema.INTEGER_TYPE, Schema.NUMBER_TYPE)

    def __init__(self, step=None, offset=None, description=None):
        super().__init__(description)
        if step is None or offset is None:
            raise exception.InvalidSchemaError(
                message="A modulo constraint must have a step value and an offset value specified."
            )
        for param in (step, offset):
            if not isinstance(param, (float, int)):
                raise exception.InvalidSchemaError(message="step/offset must be numeric")
            if int(param) != param:
                raise exception.InvalidSchemaError(message="step/offset must be integer")
        self.step, self.offset = step, offset
        self._check_step_offset(int(step), int(offset))

    @staticmethod
    def _check_step_offset(step, offset):
        if step == 0:
            raise exception.InvalidSchemaError(message="step cannot be 0.")
        if abs(offset) >= abs(step):
            raise exception.InvalidSchemaError(
                message="offset must be smaller (by absolute value) than step."
            )
        if step * offset < 0:
            raise exception.InvalidSchemaError(
                message="step and offset must be both positive or both negative."
            )

    def _str(self):
        return "The value must be a multiple of %(step)s with an offset of %(offset)s." % (
            self._constraint()
        )

    def _err_msg(self, value):
        return "%s is not a multiple of %s with an offset of %s" % (value, self.step, self.offset)

    def _is_valid(self, value, schema, context):
        return str_to_num(value) % self.step == self.offset

    def _constraint(self):
        return {"step": self.step, "offset": self.offset}


class AllowedValues(Constraint):
    valid_types = (
        Schema.STRING_TYPE,
        Schema.INTEGER_TYPE,
        Schema.NUMBER_TYPE,
        Schema.BOOLEAN_TYPE,
        Schema.LIST_TYPE,
    )

    def __init__(self, allowed, description=None):
        super().__init__(description)
        if not isinstance(allowed, collections.abc.Sequence) or isinstance(allowed, str):
            raise exception.InvalidSchemaError(message="AllowedValues must be a list")
        self.allowed = tuple(allowed)

    def _str(self):
        return "Allowed values: %s" % ", ".join(json.dumps(a) for a in self.allowed)

    def _err_msg(self, value):
        allowed = "[%s]" % ", ".join(json.dumps(a) for a in self.allowed)
        return "%s is not an allowed value %s" % (json.dumps(value), allowed)

    def _is_valid(self, value, schema, context):
        if isinstance(value, list):
            return all(v in self.allowed for v in value)
        if schema is not None:
            allowed = tuple(schema.to_schema_type(v) for v in self.allowed)
            return schema.to_schema_type(value) in allowed
        return value in self.allowed

    def _constraint(self):
        return list(self.allowed)


class AllowedPattern(Constraint):
    valid_types = (Schema.STRING_TYPE,)

    def __init__(self, pattern, description=None):
        super().__init__(description)
        if not isinstance(pattern, str):
            raise exception.InvalidSchemaError(message="AllowedPattern must be a string")
        self.pattern = pattern
        self.match = re.compile(pattern).match

    def _str(self):
        return "Value must match pattern: %s" % self.pattern

    def _err_msg(self, value):
        return '"%s" does not match pattern "%s"' % (value, self.pattern)

    def _is_valid(self, value, schema, context):
        match = self.match(value)
        return match is not None and match.end() == len(value)

    def _constraint(self):
        return self.pattern


# name -> validator: a callable ``(value, context) -> bool`` or an object with
# ``validate(value, context) -> bool`` and optionally ``error(value) -> str`` / ``message``;
# ``validate`` may raise ValueError with the message itself (Heat's "Error validating ...").
_custom_constraints = {}

# modules whose ``constraint_mapping()`` gives Heat's built-in constraints (loaded once)
CONSTRAINT_MODULES = (
    "heat_lite.engine.common_constraints",
    "heat_lite.engine.clients.constraints",
)
_builtins_loaded = False


def load_builtins():
    """Load the built-in custom constraints (once)."""
    global _builtins_loaded
    if _builtins_loaded:
        return
    for module_name in CONSTRAINT_MODULES:
        for name, validator in importlib.import_module(module_name).constraint_mapping().items():
            _custom_constraints.setdefault(name, validator)
    _builtins_loaded = True


def register_constraint(name, validator):
    _custom_constraints[name] = validator


def unregister_constraint(name):
    _custom_constraints.pop(name, None)


class CustomConstraint(Constraint):
    """``custom_constraint: <name>``, checked by the validator registered under that name."""

    valid_types = (
        Schema.STRING_TYPE,
        Schema.INTEGER_TYPE,
        Schema.NUMBER_TYPE,
        Schema.BOOLEAN_TYPE,
        Schema.LIST_TYPE,
    )

    def __init__(self, name, description=None):
        super().__init__(description)
        self.name = name

    @property
    def validator(self):
        load_builtins()
        return _custom_constraints.get(self.name)

    def validate(self, value, schema=None, context=None):
        try:
            super().validate(value, schema, context)
        except ValueError as exc:
            raise ValueError(self.description or str(exc))

    def _constraint(self):
        return self.name

    def _str(self):
        return getattr(self.validator, "message", None) or "Value must be of type %s" % self.name

    def _err_msg(self, value):
        validator = self.validator
        if validator is None:
            return '"%s" does not validate %s (constraint not found)' % (value, self.name)
        if hasattr(validator, "error"):
            return validator.error(value)
        return '"%s" does not validate %s' % (value, self.name)

    def _is_valid(self, value, schema, context):
        validator = self.validator
        if validator is None:
            return False
        check = getattr(validator, "validate", validator)
        return bool(check(value, context))
