"""Resource property schemas and the typed, resolved view of a resource's properties.

    schema = {
        'name': Schema(Schema.STRING, required=True),
        'size': Schema(Schema.INTEGER, default=1, constraints=[constraints.Range(1, 10)]),
        'tags': Schema(Schema.LIST, schema=Schema(Schema.STRING)),
    }
    props = Properties(schema, {'name': {'get_param': 'n'}}, function.resolve,
                       parent_name='resources.server.properties')
    props.validate()   # StackValidationFailed: "Property error: resources.server.properties.
                       #                          size: Value 'x' is not an integer"
    props['size']      # 1 (typed value, or the default)

The ``resolver`` is called as ``resolver(snippet, nullable=True)``; an Ellipsis result (an
``if`` without else-branch) counts as "not given".
"""

import collections.abc
import json

from heat_lite.common import exception
from heat_lite.engine import constraints as constr

SCHEMA_KEYS = (UPDATE_ALLOWED, IMMUTABLE) = ("update_allowed", "immutable")


class Schema(constr.Schema):
    """The schema of one property (a member schema for list/map items via ``schema``)."""

    KEYS = (
        TYPE,
        DESCRIPTION,
        DEFAULT,
        SCHEMA,
        REQUIRED,
        CONSTRAINTS,
        UPDATE_ALLOWED,
        IMMUTABLE,
    ) = (
        "type",
        "description",
        "default",
        "schema",
        "required",
        "constraints",
        "update_allowed",
        "immutable",
    )

    def __init__(
        self,
        data_type,
        description=None,
        default=None,
        schema=None,
        required=False,
        constraints=None,
        update_allowed=False,
        immutable=False,
        implemented=True,
        allow_conversion=False,
    ):
        super().__init__(
            data_type,
            description=description,
            default=default,
            schema=schema,
            required=required,
            constraints=constraints,
            immutable=immutable,
        )
        self.update_allowed = update_allowed
        self.implemented = implemented
        self.allow_conversion = allow_conversion
        self.validate()

    def validate(self, context=None):
        super().validate(context)
        if self.update_allowed and self.immutable:
            raise exception.InvalidSchemaError(
                message="Options %s and %s cannot both be True" % (UPDATE_ALLOWED, IMMUTABLE)
            )

    def __getitem__(self, key):
        if key == self.UPDATE_ALLOWED:
            return self.update_allowed
        if key == self.IMMUTABLE:
            return self.immutable
        return super().__getitem__(key)


def _default_resolver(snippet, nullable=False):
    return snippet


class Property:
    """One property: converts a raw value to the schema's type, optionally validating."""

    def __init__(self, schema, name=None, context=None):
        self.schema = schema
        self.name = name
        self.context = context

    def required(self):
        return self.schema.required

    def implemented(self):
        return self.schema.implemented

    def update_allowed(self):
        return self.schema.update_allowed

    def immutable(self):
        return self.schema.immutable

    def has_default(self):
        return self.schema.default is not None

    def default(self):
        return self.schema.default

    def type(self):
        return self.schema.type

    def _or_default(self, value, empty):
        if value is not None:
            return value
        return (self.has_default() and self.default()) or empty

    def _get_integer(self, value):
        value = self._or_default(value, 0)
        try:
            return int(value)
        except ValueError:
            raise TypeError("Value '%s' is not an integer" % value)

    def _get_number(self, value):
        return constr.str_to_num(self._or_default(value, 0))

    def _get_string(self, value):
        value = self._or_default(value, "")
        if isinstance(value, str):
            return value
        if isinstance(value, (bool, int)):
            return str(value)
        raise ValueError("Value must be a string; got %r" % value)

    def _get_bool(self, value):
        value = self._or_default(value, False)
        if isinstance(value, bool):
            return value
        if isinstance(value, str):
            normalised = value.lower()
            if normalised not in ("true", "false"):
                raise ValueError('"%s" is not a valid boolean' % normalised)
            return normalised == "true"
        raise TypeError('"%s" is not a valid boolean' % value)

    def _get_map(self, value, validate=False):
        if value is None:
            value = self.default() if self.has_default() else {}
        if not isinstance(value, collections.abc.Mapping):
            if self.schema.allow_conversion:
                if isinstance(value, str):
                    return value
                if isinstance(value, collections.abc.Sequence):
                    return json.dumps(value)
            raise TypeError('"%s" is not a map' % value)
        return dict(self._get_children(value.items(), validate=validate))

    def _get_list(self, value, validate=False):
        value = self._or_default(value, [])
        if self.schema.allow_conversion and isinstance(value, str):
            value = value.split(",") if value else []
        if not isinstance(value, collections.abc.Sequence) or isinstance(value, str):
            raise TypeError('"%s" is not a list' % repr(value))
        children = self._get_children(enumerate(value), range(len(value)), validate)
        return [v for _, v in children]

    def _get_children(self, child_values, keys=None, validate=False):
        if self.schema.schema is None:
            return child_values
        if keys is None:
            keys = list(self.schema.schema)
        schemata = {k: self.schema.schema[k] for k in keys}
        props = Properties(schemata, dict(child_values), context=self.context)
        if validate:
            props.validate()
        return ((k, props[k]) for k in keys)

    def get_value(self, value, validate=False):
        """The value converted to the schema's type; checked against constraints if asked."""
        t = self.type()
        if t == Schema.MAP:
            result = self._get_map(value, validate)
        elif t == Schema.LIST:
            result = self._get_list(value, validate)
        elif t == Schema.ANY:
            result = value
        else:
            result = self._SCALARS[t](self, value)
        if validate:
            self.schema.validate_constraints(result, self.context)
        return result

    _SCALARS = {
        Schema.STRING: _get_string,
        Schema.INTEGER: _get_integer,
        Schema.NUMBER: _get_number,
        Schema.BOOLEAN: _get_bool,
    }


class Properties(collections.abc.Mapping):
    """Property name -> typed, resolved value (or default) of one resource.

    :param schema: name -> Schema
    :param data: the (parsed) property snippet given in the template
    :param resolver: resolves functions in a value, ``resolver(snippet, nullable=True)``
    :param parent_name: error path prefix, e.g. ``'resources.r.properties'``
    :param is_pending: optional ``callable(snippet) -> bool``; True skips constraint
        checks of that value in ``validate`` (it depends on a resource not created yet)
    """

    def __init__(
        self,
        schema,
        data,
        resolver=_default_resolver,
        parent_name=None,
        context=None,
        rsrc_description=None,
        is_pending=None,
    ):
        self.props = {k: Property(s, k, context) for k, s in schema.items()}
        self.resolve = resolver
        self._raw_data = data
        self._data = None
        self.parent_name = parent_name
        self.context = context
        self.rsrc_description = rsrc_description or None
        self.is_pending = is_pending

    @property
    def data(self):
        """The property snippet; a function standing for the whole map is resolved once."""
        if self._data is None:
            data = self._raw_data
            if not isinstance(data, collections.abc.Mapping):
                data = self.resolve(data, nullable=True)
            self._data = data if isinstance(data, collections.abc.Mapping) else {}
        return self._data

    def _error_prefix(self):
        if self.parent_name is None:
            return []
        if isinstance(self.parent_name, (list, tuple)):
            return list(self.parent_name)
        return [self.parent_name]

    def validate(self, with_value=True):
        """Unknown names, then each value (or required/default); errors carry the path."""
        try:
            for key in self.data:
                if key not in self.props:
                    raise exception.StackValidationFailed(message="Unknown Property %s" % key)
            for key, prop in self.props.items():
                if with_value:
                    self._validate_value(key, prop)
                if not prop.implemented() and key in self.data:
                    raise exception.StackValidationFailed(
                        message="Property %s not implemented yet" % key
                    )
        except exception.StackValidationFailed as ex:
            raise exception.StackValidationFailed(
                error=ex.error or "Property error",
                path=self._error_prefix() + ex.path,
                message=ex.error_message,
            )

    def _validate_value(self, key, prop):
        try:
            self._get_property_value(key, validate=True)
        except exception.StackValidationFailed as ex:
            raise exception.StackValidationFailed(path=[key] + ex.path, message=ex.error_message)
        except ValueError as e:
            path = [] if prop.required() and key not in self.data else [key]
            raise exception.StackValidationFailed(path=path, message=str(e))

    def _pending(self, snippet):
        if self.is_pending is None:
            return False
        try:
            return bool(self.is_pending(snippet))
        except Exception:
            return False

    def _resolve_user_value(self, key, prop, validate):
        """(value, found): found is False when not given (or an if left it out)."""
        if key not in self.data:
            return None, False
        try:
            unresolved = self.data[key]
            if validate and self._pending(unresolved):
                validate = False
            value = self.resolve(unresolved, nullable=True)
            if value is Ellipsis:
                return None, False
            return prop.get_value(value, validate), True
        except exception.StackValidationFailed as e:
            raise exception.StackValidationFailed(path=e.path, message=e.error_message)
        except Exception as e:
            raise ValueError(str(e))

    def _get_property_value(self, key, validate=False):
        if key not in self:
            raise KeyError("Invalid Property %s" % key)
        prop = self.props[key]
        value, found = self._resolve_user_value(key, prop, validate)
        if found:
            return value
        if prop.has_default():
            return prop.get_value(None, validate)
        if prop.required():
            raise ValueError("Property %s not assigned" % key)
        if key == "description" and prop.update_allowed():
            return self.rsrc_description
        return None

    def get_user_value(self, key):
        """The value the template gave (typed, unvalidated), None if not given."""
        if key not in self:
            raise KeyError("Invalid Property %s" % key)
        return self._resolve_user_value(key, self.props[key], validate=False)[0]

    def __getitem__(self, key):
        return self._get_property_value(key)

    def __contains__(self, key):
        return key in self.props

    def __iter__(self):
        return iter(self.props)

    def __len__(self):
        return len(self.props)


# -- provider templates: a type's properties as template parameters -----------------------
# (GET /resource_types/{type}/template, heat/engine/properties.py). A property of type
# Any has no parameter type in Heat, whose lookup then fails with a bare KeyError (a 500);
# here it becomes a json parameter, the type that takes any structured value.

_CFN_PARAM_TYPES = {
    Schema.INTEGER: "Number",
    Schema.STRING: "String",
    Schema.NUMBER: "Number",
    Schema.BOOLEAN: "Boolean",
    Schema.MAP: "Json",
    Schema.LIST: "CommaDelimitedList",
    Schema.ANY: "Json",
}
_HOT_PARAM_TYPES = {
    Schema.INTEGER: "number",
    Schema.STRING: "string",
    Schema.NUMBER: "number",
    Schema.BOOLEAN: "boolean",
    Schema.MAP: "json",
    Schema.LIST: "comma_delimited_list",
    Schema.ANY: "json",
}


def _cfn_param_def(schema):
    param = {"Type": _CFN_PARAM_TYPES[schema.type]}
    if schema.description is not None:
        param["Description"] = schema.description
    if schema.default is not None:
        param["Default"] = schema.default
    for c in schema.constraints:
        if isinstance(c, constr.Length):
            keys = (("MinLength", c.min), ("MaxLength", c.max))
        elif isinstance(c, constr.Range):
            keys = (("MinValue", c.min), ("MaxValue", c.max))
        elif isinstance(c, constr.AllowedValues):
            keys = (("AllowedValues", list(c.allowed)),)
        elif isinstance(c, constr.AllowedPattern):
            keys = (("AllowedPattern", c.pattern),)
        else:
            keys = ()
        param.update((k, v) for k, v in keys if v is not None)
    if schema.type == Schema.BOOLEAN:
        param["AllowedValues"] = ["True", "true", "False", "false"]
    return param


def _hot_constraint(c):
    """HOT form of one constraint; custom and modulo constraints come out as ``{}``."""
    if isinstance(c, constr.Length):
        return {"length": {k: v for k, v in (("min", c.min), ("max", c.max)) if v is not None}}
    if isinstance(c, constr.Range):
        return {"range": {k: v for k, v in (("min", c.min), ("max", c.max)) if v is not None}}
    if isinstance(c, constr.AllowedValues):
        return {"allowed_values": list(c.allowed)}
    if isinstance(c, constr.AllowedPattern):
        return {"allowed_pattern": c.pattern}
    return {}


def _hot_param_def(schema):
    param = {"type": _HOT_PARAM_TYPES[schema.type]}
    if schema.description is not None:
        param["description"] = schema.description
    if schema.default is not None:
        param["default"] = schema.default
    if schema.constraints:
        param["constraints"] = [_hot_constraint(c) for c in schema.constraints]
    return param


def schema_to_parameters_and_properties(schema, template_type="cfn"):
    """(parameters, properties) of a provider template mirroring a properties schema.

    schema_to_parameters_and_properties({'n': Schema(Schema.LIST)})
    -> ({'n': {'Type': 'CommaDelimitedList'}}, {'n': {'Fn::Split': [',', {'Ref': 'n'}]}})
    """
    params, props = {}, {}
    for name, prop_schema in schema.items():
        if not prop_schema.implemented:
            continue
        if template_type == "hot":
            params[name] = _hot_param_def(prop_schema)
            props[name] = {"get_param": name}
        else:
            params[name] = _cfn_param_def(prop_schema)
            if prop_schema.type == Schema.LIST:
                props[name] = {"Fn::Split": [",", {"Ref": name}]}
            else:
                props[name] = {"Ref": name}
    return params, props


_PARAM_TO_PROPERTY_TYPE = {
    "string": Schema.STRING,
    "number": Schema.NUMBER,
    "comma_delimited_list": Schema.LIST,
    "commadelimitedlist": Schema.LIST,
    "json": Schema.MAP,
    "boolean": Schema.BOOLEAN,
}


def schema_from_params(param_schemata):
    """Property schemas standing for a provider template's parameters (Heat's
    ``Properties.schema_from_params``): a parameter without a default is a required
    property; list and json parameters take their values loosely (allow_conversion)."""
    result = {}
    for name, param in param_schemata.items():
        prop_type = _PARAM_TO_PROPERTY_TYPE.get(str(param.type).lower(), Schema.MAP)
        result[name] = Schema(
            prop_type,
            description=param.description,
            required=param.default is None,
            update_allowed=True,
            allow_conversion=prop_type in (Schema.LIST, Schema.MAP),
        )
    return result
