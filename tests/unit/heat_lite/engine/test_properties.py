import pytest

from heat_lite.common import exception
from heat_lite.engine import constraints, function, properties
from heat_lite.engine.properties import Properties, Schema

pytestmark = pytest.mark.unit

PREFIX = "resources.r.properties"

# modelled on OS::Heat::RandomString and OS::Heat::TestResource
SCHEMA = {
    "length": Schema(Schema.INTEGER, default=32, constraints=[constraints.Range(1, 512)]),
    "sequence": Schema(
        Schema.STRING, constraints=[constraints.AllowedValues(["lettersdigits", "letters"])]
    ),
    "salt": Schema(Schema.STRING),
    "ratio": Schema(Schema.NUMBER),
    "fail": Schema(Schema.BOOLEAN, default=False),
    "wait": Schema(Schema.MAP, schema={"create": Schema(Schema.NUMBER)}),
    "tags": Schema(Schema.LIST, schema=Schema(Schema.STRING)),
    "classes": Schema(
        Schema.LIST,
        schema=Schema(
            Schema.MAP,
            schema={
                "class": Schema(
                    Schema.STRING,
                    required=True,
                    constraints=[constraints.AllowedValues(["lowercase", "digits"])],
                ),
                "min": Schema(Schema.INTEGER, default=1),
            },
        ),
    ),
    "anything": Schema(Schema.ANY),
    "free_map": Schema(Schema.MAP),
}


def props(data, schema=SCHEMA, **kwargs):
    return Properties(schema, data, parent_name=PREFIX, **kwargs)


def error(data, schema=SCHEMA):
    with pytest.raises(exception.StackValidationFailed) as err:
        props(data, schema).validate()
    return str(err.value)


@pytest.mark.parametrize(
    "data,message",
    [
        ({"foo": 1}, "resources.r.properties: Unknown Property foo"),
        ({"length": "abc"}, "resources.r.properties.length: Value 'abc' is not an integer"),
        (
            {"length": 1000},
            "resources.r.properties.length: 1000 is out of range (min: 1, max: 512)",
        ),
        ({"salt": [1]}, "resources.r.properties.salt: Value must be a string; got [1]"),
        ({"salt": {"a": 1}}, "resources.r.properties.salt: Value must be a string; got {'a': 1}"),
        ({"salt": 1.5}, "resources.r.properties.salt: Value must be a string; got 1.5"),
        (
            {"sequence": "foo"},
            'resources.r.properties.sequence: "foo" is not an allowed value '
            '["lettersdigits", "letters"]',
        ),
        ({"classes": "foo"}, "resources.r.properties.classes: \"'foo'\" is not a list"),
        ({"classes": ["foo"]}, 'resources.r.properties.classes[0]: "foo" is not a map'),
        (
            {"classes": [{"class": "foo"}]},
            'resources.r.properties.classes[0].class: "foo" is not an allowed value '
            '["lowercase", "digits"]',
        ),
        (
            {"classes": [{"klass": "foo"}]},
            "resources.r.properties.classes[0]: Unknown Property klass",
        ),
        (
            {"classes": [{"class": "digits", "min": "x"}]},
            "resources.r.properties.classes[0].min: Value 'x' is not an integer",
        ),
        ({"classes": [{}]}, "resources.r.properties.classes[0]: Property class not assigned"),
        ({"wait": "foo"}, 'resources.r.properties.wait: "foo" is not a map'),
        (
            {"wait": {"create": "x"}},
            "resources.r.properties.wait.create: could not convert string to float: 'x'",
        ),
        ({"fail": "maybe"}, 'resources.r.properties.fail: "maybe" is not a valid boolean'),
        ({"fail": "TRUEISH"}, 'resources.r.properties.fail: "trueish" is not a valid boolean'),
        ({"fail": 1}, 'resources.r.properties.fail: "1" is not a valid boolean'),
        ({"ratio": "x"}, "resources.r.properties.ratio: could not convert string to float: 'x'"),
    ],
)
def test_validation_messages(data, message):
    assert error(data) == "Property error: " + message


def test_required_property_missing():
    schema = {"value": Schema(Schema.ANY, required=True)}
    assert error({}, schema) == (
        "Property error: resources.r.properties: Property value not assigned"
    )


def test_typed_values_and_defaults():
    p = props(
        {
            "length": "12",
            "salt": 5,
            "ratio": "2.5",
            "fail": "True",
            "wait": {"create": "3"},
            "tags": ["a", 1],
            "classes": [{"class": "digits"}],
            "anything": [1, {"a": None}],
            "free_map": {"x": [1]},
        }
    )
    p.validate()
    assert p["length"] == 12
    assert p["salt"] == "5"
    assert p["ratio"] == 2.5
    assert p["fail"] is True
    assert p["wait"] == {"create": 3}
    assert p["tags"] == ["a", "1"]
    assert p["classes"] == [{"class": "digits", "min": 1}]
    assert p["anything"] == [1, {"a": None}]
    assert p["free_map"] == {"x": [1]}
    assert p["sequence"] is None


def test_defaults_when_not_given():
    p = props({})
    p.validate()
    assert p["length"] == 32
    assert p["fail"] is False
    assert p["salt"] is None
    assert len(p) == len(SCHEMA) and set(p) == set(SCHEMA) and "salt" in p


def test_integer_truncates_floats_like_heat():
    assert props({"length": 1.5})["length"] == 1


def test_unknown_key_raises_keyerror():
    with pytest.raises(KeyError):
        props({})["nope"]


def test_resolver_is_used_and_ellipsis_means_not_given():
    calls = []

    def resolver(snippet, nullable=False):
        calls.append(nullable)
        return Ellipsis if snippet == "omit" else snippet.upper()

    p = props({"salt": "abc", "sequence": "omit"}, resolver=resolver)
    assert p["salt"] == "ABC"
    assert p["sequence"] is None
    assert calls and all(calls)


def test_resolver_errors_become_property_errors():
    def resolver(snippet, nullable=False):
        raise exception.UserParameterMissing(key="nope")

    with pytest.raises(exception.StackValidationFailed) as err:
        props({"length": "x"}, resolver=resolver).validate()
    assert str(err.value) == (
        "Property error: resources.r.properties.length: The Parameter (nope) was not provided."
    )


def test_is_pending_skips_constraint_checks():
    pending = props({"length": 1000}, is_pending=lambda snippet: True)
    pending.validate()
    assert pending["length"] == 1000
    with pytest.raises(exception.StackValidationFailed):
        props({"length": 1000}, is_pending=lambda snippet: False).validate()


class _WholeMap(function.Function):
    def result(self):
        return {"salt": "s", "length": 4}


def test_data_given_as_one_function():
    p = Properties(SCHEMA, _WholeMap(None, "get_param", "p"), function.resolve)
    p.validate()
    assert p["salt"] == "s" and p["length"] == 4


def test_validate_without_values_checks_names_only():
    props({"length": "abc"}).validate(with_value=False)
    with pytest.raises(exception.StackValidationFailed):
        props({"bogus": 1}).validate(with_value=False)


def test_get_user_value():
    p = props({"length": "7"})
    assert p.get_user_value("length") == 7
    assert p.get_user_value("salt") is None


def test_description_property_falls_back_to_resource_description():
    schema = {"description": Schema(Schema.STRING, update_allowed=True)}
    p = Properties(schema, {}, rsrc_description="from template")
    assert p["description"] == "from template"


def test_parent_name_as_list_and_none():
    p = Properties(SCHEMA, {"foo": 1}, parent_name=["resources", "r", "properties"])
    with pytest.raises(exception.StackValidationFailed, match="^Property error: resources.r"):
        p.validate()
    with pytest.raises(exception.StackValidationFailed) as err:
        Properties(SCHEMA, {"foo": 1}).validate()
    assert str(err.value) == "Property error: Unknown Property foo"


def test_unimplemented_property():
    schema = {"old": Schema(Schema.STRING, implemented=False)}
    assert error({"old": "x"}, schema) == (
        "Property error: resources.r.properties: Property old not implemented yet"
    )


def test_schema_errors():
    with pytest.raises(exception.InvalidSchemaError, match=r"^Invalid type \(Str\)$"):
        Schema("Str")
    with pytest.raises(exception.InvalidSchemaError) as err:
        Schema(Schema.STRING, update_allowed=True, immutable=True)
    assert str(err.value) == "Options update_allowed and immutable cannot both be True"
    with pytest.raises(exception.InvalidSchemaError) as err:
        Schema(Schema.STRING, constraints=[constraints.Range(1, 2)])
    assert str(err.value) == "Range constraint invalid for String"
    with pytest.raises(exception.InvalidSchemaError) as err:
        Schema(Schema.INTEGER, default=5, constraints=[constraints.Range(1, 2)])
    assert str(err.value) == "Invalid default 5 (5 is out of range (min: 1, max: 2))"
    with pytest.raises(exception.InvalidSchemaError) as err:
        Schema(Schema.STRING, schema={"a": Schema(Schema.STRING)})
    assert str(err.value) == "Schema valid only for List or Map, not String"
    with pytest.raises(exception.InvalidSchemaError) as err:
        Schema(Schema.MAP, schema=Schema(Schema.STRING))
    assert str(err.value) == "Single schema valid only for List, not Map"


def test_schema_as_dict():
    schema = Schema(
        Schema.LIST,
        description="tags",
        schema=Schema(Schema.STRING),
        constraints=[constraints.Length(min=1, description="not empty")],
        update_allowed=True,
    )
    assert dict(schema) == {
        "type": "list",
        "description": "tags",
        "schema": {
            "*": {"type": "string", "required": False, "update_allowed": False, "immutable": False}
        },
        "required": False,
        "constraints": [{"length": {"min": 1}, "description": "not empty"}],
        "update_allowed": True,
        "immutable": False,
    }


def test_constraint_descriptions():
    assert str(constraints.Range(1, 5)) == "The value must be in the range 1 to 5."
    assert str(constraints.Range(min=1)) == "The value must be at least 1."
    assert str(constraints.Length(max=3, description="short")) == (
        "short\nThe length must be no greater than 3."
    )
    assert str(constraints.AllowedValues(["a", 1])) == 'Allowed values: "a", 1'
    assert str(constraints.AllowedPattern("[a-z]*")) == "Value must match pattern: [a-z]*"
    assert dict(constraints.Modulo(2, 1)) == {"modulo": {"step": 2, "offset": 1}}


@pytest.mark.parametrize(
    "make,message",
    [
        (lambda: constraints.Range(), "A range constraint must have a min value and/or a max"),
        (lambda: constraints.Range("a"), "min/max must be numeric"),
        (lambda: constraints.Length(1.5), "min/max length must be integral"),
        (lambda: constraints.Modulo(2), "A modulo constraint must have a step value and an"),
        (lambda: constraints.Modulo(0, 0), "step cannot be 0."),
        (lambda: constraints.Modulo(2, 3), "offset must be smaller (by absolute value) than"),
        (lambda: constraints.Modulo(-3, 1), "step and offset must be both positive or both"),
        (lambda: constraints.Modulo(2.5, 1), "step/offset must be integer"),
        (lambda: constraints.AllowedPattern(1), "AllowedPattern must be a string"),
    ],
)
def test_constraint_definition_errors(make, message):
    with pytest.raises(exception.InvalidSchemaError) as err:
        make()
    assert str(err.value).startswith(message)


def test_schema_from_params_makes_required_and_loose_properties():
    from heat_lite.engine import parameters as params_mod

    schemata = {
        "s": params_mod.Schema.from_dict("s", {"type": "string"}),
        "n": params_mod.Schema.from_dict("n", {"type": "number", "default": 1}),
        "l": params_mod.Schema.from_dict("l", {"type": "comma_delimited_list", "default": []}),
        "j": params_mod.Schema.from_dict("j", {"type": "json", "default": {}}),
        "b": params_mod.Schema.from_dict("b", {"type": "boolean", "default": False}),
    }
    schema = properties.schema_from_params(schemata)
    assert {k: (v.type, v.required, v.allow_conversion) for k, v in schema.items()} == {
        "s": ("String", True, False),
        "n": ("Number", False, False),
        "l": ("List", False, True),
        "j": ("Map", False, True),
        "b": ("Boolean", False, False),
    }
    assert all(v.update_allowed for v in schema.values())
