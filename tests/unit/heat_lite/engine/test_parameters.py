import pytest

from heat_lite.common import exception
from heat_lite.common.identifier import HeatIdentifier
from heat_lite.engine import constraints
from heat_lite.engine.template import Template

pytestmark = pytest.mark.unit

IDENT = HeatIdentifier("proj1", "mystack", "1234")


def params(param_defs, user=None, version="2018-08-31", ident=IDENT, defaults=None):
    tmpl = Template({"heat_template_version": version, "parameters": param_defs})
    return tmpl.parameters(ident, user or {}, param_defaults=defaults)


def invalid(param_def, value, version="2018-08-31"):
    """The message of validating ``value`` against one parameter 'p'."""
    ps = params({"p": param_def}, {"p": value}, version)
    with pytest.raises(exception.StackValidationFailed) as err:
        ps.validate()
    return str(err.value)


def schema_error(param_def, version="2018-08-31"):
    with pytest.raises(exception.InvalidSchemaError) as err:
        params({"p": param_def}, version=version).validate()
    return str(err.value)


# -- values and types


def test_typed_values():
    ps = params(
        {
            "s": {"type": "string"},
            "n": {"type": "number"},
            "f": {"type": "number"},
            "l": {"type": "comma_delimited_list"},
            "j": {"type": "json"},
            "b": {"type": "boolean"},
        },
        {"s": 5, "n": "3", "f": "2.5", "l": "a,b", "j": '{"k": [1]}', "b": "yes"},
    )
    ps.validate()
    assert ps["s"] == "5"
    assert ps["n"] == 3 and isinstance(ps["n"], int)
    assert ps["f"] == 2.5
    assert ps["l"] == ["a", "b"]
    assert ps["j"] == {"k": [1]}
    assert ps["b"] is True


def test_defaults_and_native_values():
    ps = params(
        {
            "l": {"type": "comma_delimited_list", "default": ["x", 1]},
            "e": {"type": "comma_delimited_list", "default": ""},
            "j": {"type": "json", "default": {"a": 1}},
            "b": {"type": "boolean", "default": False},
        }
    )
    ps.validate()
    assert ps["l"] == ["x", "1"]
    assert ps["e"] == []
    assert ps["j"] == {"a": 1}
    assert ps["b"] is False


def test_pseudo_parameters():
    ps = params({})
    assert ps["OS::stack_name"] == "mystack"
    assert ps["OS::stack_id"] == "1234"
    assert ps["OS::project_id"] == "proj1"
    assert "OS::region" not in ps
    assert ps.non_pseudo_param_keys == []


def test_pseudo_parameters_without_identifier():
    ps = params({}, ident=None)
    assert ps["OS::stack_id"] == ""
    assert ps["OS::project_id"] == ""
    assert "OS::stack_name" not in ps


def test_set_stack_id():
    ps = params({}, ident=HeatIdentifier("p", "s", None))
    assert ps["OS::stack_id"] == "None"
    assert ps.set_stack_id(HeatIdentifier("p", "s", "abc"))
    assert ps["OS::stack_id"] == "abc"
    assert not ps.set_stack_id(None)


def test_map_str_hides_hidden_values():
    ps = params(
        {
            "pw": {"type": "string", "hidden": True, "default": "secret"},
            "l": {"type": "comma_delimited_list", "default": "a,b"},
            "j": {"type": "json", "default": {"a": 1}},
            "b": {"type": "boolean", "default": "yes"},
        }
    )
    shown = ps.map(str)
    assert shown["pw"] == "******"
    assert shown["l"] == "a,b"
    assert shown["j"] == '{"a": 1}'
    assert shown["b"] == "True"
    assert shown["OS::stack_name"] == "mystack"
    assert ps["pw"] == "secret"


def test_map_with_filter():
    ps = params({"a": {"type": "string", "default": "x"}})
    assert ps.map(lambda p: p.label(), lambda p: p.name == "a") == {"a": "a"}


def test_param_defaults_override_template_default():
    ps = params({"a": {"type": "string", "default": "x"}}, defaults={"a": "y", "zz": 1})
    assert ps["a"] == "y"
    ps = params({"a": {"type": "string"}}, {"a": "u"}, defaults={"a": "y"})
    assert ps["a"] == "u"


def test_parameter_accessors():
    ps = params(
        {
            "a": {
                "type": "string",
                "label": "L",
                "description": "D",
                "default": "x",
                "tags": ["t"],
            }
        }
    )
    p = ps.params["a"]
    assert (p.label(), p.description(), p.tags(), p.hidden()) == ("L", "D", ["t"], False)
    assert p.has_default() and p.default() == "x" and p.user_value is None


# -- validation errors (messages as Heat 27 gives them)


def test_unknown_user_parameter():
    ps = params({"p": {"type": "string", "default": "a"}}, {"q": "x"})
    with pytest.raises(exception.UnknownUserParameter) as err:
        ps.validate()
    assert str(err.value) == "The Parameter (q) was not defined in template."


def test_user_parameter_missing():
    ps = params({"p": {"type": "string"}})
    with pytest.raises(exception.UserParameterMissing) as err:
        ps.validate()
    assert str(err.value) == "The Parameter (p) was not provided."
    ps.validate(validate_value=False)
    with pytest.raises(exception.UserParameterMissing):
        ps["p"]


@pytest.mark.parametrize(
    "param_def,value,message",
    [
        ({"type": "number"}, "abc", "could not convert string to float: 'abc'"),
        (
            {"type": "number", "constraints": [{"range": {"min": 10, "max": 20}}]},
            "5",
            "5 is out of range (min: 10, max: 20)",
        ),
        (
            {"type": "number", "constraints": [{"range": {"min": 10}}]},
            "5",
            "5 is out of range (min: 10, max: None)",
        ),
        (
            {"type": "number", "constraints": [{"range": {"min": 2.5, "max": 3}}]},
            "1.5",
            "1.5 is out of range (min: 2.5, max: 3)",
        ),
        (
            {
                "type": "number",
                "constraints": [{"range": {"min": 10, "max": 20}, "description": "10 to 20"}],
            },
            "5",
            "10 to 20",
        ),
        (
            {"type": "string", "constraints": [{"length": {"min": 3, "max": 5}}]},
            "ab",
            "length (2) is out of range (min: 3, max: 5)",
        ),
        (
            {"type": "string", "constraints": [{"allowed_values": ["x", "y"]}]},
            "ab",
            '"ab" is not an allowed value ["x", "y"]',
        ),
        (
            {"type": "number", "constraints": [{"allowed_values": [1, 2]}]},
            "7",
            '"7" is not an allowed value [1, 2]',
        ),
        (
            {"type": "string", "constraints": [{"allowed_pattern": "[0-9]+"}]},
            "ab",
            '"ab" does not match pattern "[0-9]+"',
        ),
        (
            {"type": "string", "constraints": [{"allowed_pattern": "[0-9]+"}]},
            "12a",
            '"12a" does not match pattern "[0-9]+"',
        ),
        (
            {
                "type": "string",
                "constraints": [{"allowed_pattern": "[0-9]+", "description": "digits only"}],
            },
            "ab",
            "digits only",
        ),
        (
            {"type": "boolean"},
            "maybe",
            "Unrecognized value 'maybe', acceptable values are: '0', '1', 'f', 'false', "
            "'n', 'no', 'off', 'on', 't', 'true', 'y', 'yes'",
        ),
        (
            {"type": "json"},
            "{bad",
            "Value must be valid JSON: Expecting property name enclosed in double quotes: "
            "line 1 column 2 (char 1)",
        ),
        (
            {"type": "comma_delimited_list", "constraints": [{"length": {"max": 2}}]},
            "a,b,c",
            "length (3) is out of range (min: None, max: 2)",
        ),
        (
            {"type": "json", "constraints": [{"length": {"max": 1}}]},
            '{"a": 1, "b": 2}',
            "length (2) is out of range (min: None, max: 1)",
        ),
        (
            {"type": "comma_delimited_list", "constraints": [{"allowed_values": ["a", "b"]}]},
            "a,c",
            '["a", "c"] is not an allowed value ["a", "b"]',
        ),
    ],
)
def test_value_constraint_messages(param_def, value, message):
    assert invalid(param_def, value) == "Parameter 'p' is invalid: %s" % message


def test_valid_values_pass():
    ps = params(
        {
            "n": {"type": "number", "constraints": [{"range": {"min": 1, "max": 3}}]},
            "s": {"type": "string", "constraints": [{"allowed_pattern": "[a-z]+"}]},
            "b": {"type": "boolean", "constraints": [{"allowed_values": [True]}]},
            "l": {"type": "comma_delimited_list", "constraints": [{"allowed_values": ["a"]}]},
            "v": {"type": "number", "constraints": [{"allowed_values": [1, 2]}]},
        },
        {"n": "3", "s": "abc", "b": "yes", "l": "a,a", "v": "2"},
    )
    ps.validate()


@pytest.mark.parametrize(
    "param_def,message",
    [
        ({"type": "strin"}, "Invalid type (strin)"),
        ({"type": "string", "foo": 1}, "Invalid key 'foo' for parameter (p)"),
        ({"default": 1}, "Missing parameter type for parameter: p"),
        ([], "Invalid parameter (p), expected a mapping"),
        (
            {"type": "string", "default": "ab", "constraints": [{"length": {"min": 3}}]},
            "Parameter 'p' is invalid: Invalid default ab "
            "(length (2) is out of range (min: 3, max: None))",
        ),
        (
            {"type": "string", "constraints": {"length": {"min": 3}}},
            "Invalid parameter constraints for parameter p, expected a list",
        ),
        (
            {"type": "string", "constraints": [{"range": {"min": 3}}]},
            "Parameter 'p' is invalid: Range constraint invalid for string",
        ),
        (
            {"type": "string", "constraints": [{"lenth": {"min": 3}}]},
            "Invalid key 'lenth' for parameter constraints",
        ),
        ({"type": "string", "constraints": [{"description": "x"}]}, "No constraint expressed"),
        (
            {"type": "string", "constraints": [{"length": {"min": 3, "mux": 2}}]},
            "Invalid key 'mux' for length constraint",
        ),
        (
            {"type": "string", "constraints": [{"length": {}}]},
            "A length constraint must have a min value and/or a max value specified.",
        ),
        (
            {"type": "string", "constraints": [{"allowed_values": "x"}]},
            "AllowedValues must be a list",
        ),
        (
            {
                "type": "comma_delimited_list",
                "default": "a,b",
                "constraints": [{"allowed_values": ["a"]}],
            },
            'Parameter \'p\' is invalid: Invalid default a,b (["a", "b"] is not an allowed '
            'value ["a"])',
        ),
        (
            {"type": "string", "tags": "x"},
            "Tags property should be a list for parameter: p",
        ),
    ],
)
def test_schema_error_messages(param_def, message):
    assert schema_error(param_def) == message


def test_modulo_only_from_2017_02_24():
    pdef = {"type": "number", "constraints": [{"modulo": {"step": 2, "offset": 1}}]}
    assert schema_error(pdef, "2016-10-14") == "No constraint expressed"
    assert invalid(pdef, "4", "2017-02-24") == (
        "Parameter 'p' is invalid: 4 is not a multiple of 2 with an offset of 1"
    )
    params({"p": pdef}, {"p": "5"}, "ocata").validate()


def test_tags_only_from_2018_03_02():
    pdef = {"type": "string", "default": "x", "tags": ["a"]}
    assert schema_error(pdef, "2017-09-01") == "Invalid key 'tags' for parameter (p)"
    params({"p": pdef}, version="queens").validate()


def test_custom_constraint_registry():
    pdef = {"type": "string", "constraints": [{"custom_constraint": "test.flavor"}]}
    assert invalid(pdef, "m1.huge") == (
        "Parameter 'p' is invalid: \"m1.huge\" does not validate test.flavor (constraint not found)"
    )
    constraints.register_constraint("test.flavor", lambda value, context: value == "m1.small")
    try:
        params({"p": pdef}, {"p": "m1.small"}).validate()
        assert invalid(pdef, "m1.huge") == (
            "Parameter 'p' is invalid: \"m1.huge\" does not validate test.flavor"
        )
    finally:
        constraints.unregister_constraint("test.flavor")


def test_custom_constraint_not_applied_to_default():
    pdef = {
        "type": "string",
        "default": "x",
        "constraints": [{"custom_constraint": "test.other"}],
    }
    ps = params({"p": pdef})
    ps.params["p"].schema.validate()
    assert str(ps.params["p"]) == "x"


def test_immutable_params_modified():
    defs = {
        "a": {"type": "string", "immutable": True},
        "b": {"type": "string"},
    }
    old = params(defs, {"a": "1", "b": "1"})
    new = params(defs, {"a": "2", "b": "2"})
    assert old.immutable_params_modified(new, {"a": "2"}) == ["a"]
    assert old.immutable_params_modified(new, {"a": "1"}) is None
