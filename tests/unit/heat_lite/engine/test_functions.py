import copy

import pytest

from heat_lite.common import exception
from heat_lite.engine import attributes, function
from tests.unit.heat_lite.engine.fakes import FakeStack

pytestmark = pytest.mark.unit


PARAMS = {
    "name": {"type": "string", "default": "web"},
    "nets": {"type": "json", "default": {"private": ["10.0.0.3", "10.0.0.4"]}},
    "zones": {"type": "comma_delimited_list", "default": "az1,az2"},
    "flag": {"type": "boolean", "default": True},
}
ATTRS = {"a": {"addr": {"net": ["1.2.3.4"]}, "name": "a-name"}}


def make_stack(version="2018-08-31", params=None, conditions=None, **kwargs):
    tmpl = {
        "heat_template_version": version,
        "parameters": PARAMS,
        "resources": {"a": {"type": "T"}, "b": {"type": "T"}},
    }
    if conditions is not None:
        tmpl["conditions"] = conditions
    kwargs.setdefault("attrs", ATTRS)
    return FakeStack(tmpl, params, **kwargs)


def parse(snippet, version="2018-08-31", stack=None, **kwargs):
    stack = stack or make_stack(version, **kwargs)
    return stack.t.parse(stack, snippet), stack


def resolve(snippet, version="2018-08-31", **kwargs):
    return function.resolve(parse(snippet, version, **kwargs)[0])


def parse_error(snippet, version="2018-08-31"):
    with pytest.raises(exception.StackValidationFailed) as err:
        parse(snippet, version)
    return str(err.value)


def resolve_error(snippet, exc=(TypeError, ValueError), version="2018-08-31"):
    with pytest.raises(exc) as err:
        resolve(snippet, version)
    return str(err.value)


def validate_error(snippet, version="2018-08-31", **kwargs):
    parsed, _ = parse(snippet, version, **kwargs)
    with pytest.raises(exception.StackValidationFailed) as err:
        function.validate(parsed, ["resources", "r", "properties", "salt"])
    return str(err.value)


# -- get_param


def test_get_param():
    assert resolve({"get_param": "name"}) == "web"
    assert resolve({"get_param": "name"}, params={"name": "db"}) == "db"
    assert resolve({"get_param": "OS::stack_name"}) == "st"
    assert resolve({"get_param": "zones"}) == ["az1", "az2"]
    assert resolve({"get_param": "flag"}) is True


def test_get_param_path():
    assert resolve({"get_param": ["nets", "private", 1]}) == "10.0.0.4"
    assert resolve({"get_param": ["nets", "private", "0"]}) == "10.0.0.3"
    assert resolve({"get_param": ["zones", 1]}) == "az2"
    assert resolve({"get_param": ["nets", "public"]}) == ""
    assert resolve({"get_param": ["nets", "private", 5]}) == ""
    assert resolve({"get_param": [{"list_join": ["", ["na", "me"]]}]}) == "web"
    assert resolve({"get_param": ["nets", "private", "x"]}) == ""
    assert resolve({"get_param": ["name", "x"]}) == ""


def test_get_param_errors():
    assert resolve_error({"get_param": "nope"}, exception.UserParameterMissing) == (
        "The Parameter (nope) was not provided."
    )
    assert resolve_error({"get_param": [1]}) == 'Parameter name in "get_param" must be string'
    assert (
        resolve_error({"get_param": {"a": 1}}) == 'Argument to "get_param" must be string or list'
    )
    assert resolve_error({"get_param": []}) == 'Function "get_param" must have arguments'


# -- get_resource


def test_get_resource():
    parsed, _ = parse({"get_resource": "a"})
    assert function.resolve(parsed) == "a-id"
    assert list(function.dependencies(parsed, "r.Properties.x")) == ["a"]


def test_get_resource_unknown():
    parsed, _ = parse({"x": [{"get_resource": "c"}]})
    with pytest.raises(exception.InvalidTemplateReference) as err:
        list(function.dependencies(parsed, "r.Properties"))
    assert str(err.value) == 'The specified reference "c" (in r.Properties.x[0]) is incorrect.'
    with pytest.raises(exception.InvalidTemplateReference) as err:
        function.resolve(parsed)
    assert str(err.value) == 'The specified reference "c" (in unknown) is incorrect.'


# -- get_attr


def test_get_attr_with_path_passes_the_path_to_the_stack():
    parsed, stack = parse({"get_attr": ["a", "addr", "net", 0]})
    assert function.resolve(parsed) == "1.2.3.4"
    assert stack.calls == [("a", "addr", "net", 0)]
    assert list(function.dependencies(parsed, "r")) == ["a"]
    assert set(function.dep_attrs(parsed, "a")) == {("addr", "net", 0)}
    assert set(function.dep_attrs(parsed, "b")) == set()
    assert set(function.all_dep_attrs(parsed)) == {("a", ("addr", "net", 0))}


def test_get_attr_path_takes_negative_list_indexes():
    """As in Heat, a path component indexes the list the Python way: -1 is the last item."""
    attrs = {"a": {"addr": {"net": ["10.0.0.1", "10.0.0.2", "10.0.0.3"]}}}
    assert resolve({"get_attr": ["a", "addr", "net", -1]}, attrs=attrs) == "10.0.0.3"
    assert resolve({"get_attr": ["a", "addr", "net", -3]}, attrs=attrs) == "10.0.0.1"
    assert resolve({"get_attr": ["a", "addr", "net", -4]}, attrs=attrs) is None
    assert attributes.select_from_attribute([["x", "y"]], [-1, -2]) == "x"


def test_get_attr_2013_selects_the_path_itself():
    parsed, stack = parse({"get_attr": ["a", "addr", "net", 0]}, "2013-05-23")
    assert function.resolve(parsed) == "1.2.3.4"
    assert stack.calls == [("a", "addr")]
    assert set(function.dep_attrs(parsed, "a")) == {("addr",)}
    assert resolve({"get_attr": ["a", "addr", "nope"]}, "2013-05-23") is None
    assert resolve({"get_attr": ["b", "addr", "nope"]}, "2013-05-23") is None


def test_get_attr_all_attributes():
    parsed, _ = parse({"get_attr": ["a"]})
    assert function.resolve(parsed) == ATTRS["a"]
    assert set(function.dep_attrs(parsed, "a")) == {(attributes.ALL_ATTRIBUTES,)}
    assert resolve({"get_attr": "a"}) == ATTRS["a"]


def test_get_attr_resource_name_from_function():
    parsed, _ = parse({"get_attr": [{"get_param": "name"}, "x"]}, params={"name": "a"})
    assert set(function.dep_attrs(parsed, "a")) == {("x",)}


def test_get_attr_argument_errors():
    assert parse_error({"get_attr": ["a"]}, "2015-04-30") == (
        '.get_attr: Arguments to "get_attr" must be of the form '
        "[resource_name, attribute, (path), ...]"
    )
    assert parse_error({"get_attr": []}) == (
        '.get_attr: Arguments to "get_attr" can be of the next forms: [resource_name] or '
        "[resource_name, attribute, (path), ...]"
    )
    assert parse_error({"get_attr": {"a": 1}}) == '.get_attr: Argument to "get_attr" must be a list'
    assert parse_error({"get_attr": "ab"}, "2014-10-16") == (
        '.get_attr: Argument to "get_attr" must be a list'
    )


def test_get_attr_validates_attribute_names():
    names = {"a": {"addr", "name", "show"}}
    assert validate_error({"get_attr": ["a", "x"]}, attr_names=names) == (
        "resources.r.properties.salt.get_attr: The Referenced Attribute (a x) is incorrect."
    )
    parsed, _ = parse({"get_attr": ["a", "addr", 0]}, attr_names=names)
    function.validate(parsed)
    parsed, _ = parse({"get_attr": ["a"]}, attr_names=names)
    function.validate(parsed)
    parsed, _ = parse({"get_attr": ["a", "anything"]})  # names unknown: accepted
    function.validate(parsed)
    parsed, _ = parse({"get_attr": ["a", None]}, "2013-05-23", attr_names=names)
    with pytest.raises(exception.StackValidationFailed):
        function.validate(parsed)


def test_get_attr_unknown_resource():
    parsed, _ = parse({"get_attr": ["c", "x"]})
    with pytest.raises(exception.InvalidTemplateReference, match=r"\(in r.Properties.s\)"):
        list(function.dependencies(parsed, "r.Properties.s"))
    with pytest.raises(exception.StackValidationFailed) as err:
        function.validate(parsed, ["outputs", "o", "value"])
    assert str(err.value) == (
        'outputs.o.value.get_attr: The specified reference "c" (in unknown) is incorrect.'
    )


# -- str_replace


def test_str_replace():
    snippet = {
        "str_replace": {"template": "$a-$ab-$b", "params": {"$a": 1, "$ab": "X", "$b": None}}
    }
    assert resolve(snippet) == "1-X-"
    snippet = {"str_replace": {"template": "v=$v", "params": {"$v": {"get_param": "zones"}}}}
    assert resolve(snippet) == 'v=["az1", "az2"]'


def test_str_replace_order_is_heats():
    """Every occurrence of the longest key first (not the leftmost match), an inserted
    value never searched again, and a config of many keys (Magnum's heat-params)."""
    assert resolve({"str_replace": {"template": "abcd", "params": {"bcd": 1, "ab": 2}}}) == "a1"
    assert resolve({"str_replace": {"template": "ab", "params": {"a": "b", "b": "c"}}}) == "bc"
    keys = ["__K%d__" % i for i in range(150)]
    template = "\n".join('%s="%s"' % (k.strip("_"), k) for k in keys)
    params = {k: "v%d" % i for i, k in enumerate(keys)}
    lines = resolve({"str_replace": {"template": template, "params": params}}).split("\n")
    assert lines[0] == 'K0="v0"' and lines[149] == 'K149="v149"' and len(lines) == 150


def test_str_replace_2013_rejects_lists():
    snippet = {"str_replace": {"template": "v=$v", "params": {"$v": [1]}}}
    assert resolve_error(snippet, version="2013-05-23") == (
        '"str_replace" params must be strings or numbers, param $v is not valid'
    )


def test_str_replace_errors():
    assert parse_error({"str_replace": ["x"]}) == (
        '.str_replace: Arguments to "str_replace" must be a map'
    )
    assert parse_error({"str_replace": {"template": "x", "params": [1]}}) == (
        '.str_replace: "str_replace" parameters must be a mapping'
    )
    assert parse_error({"str_replace": {"template": "x"}}) == (
        '.str_replace: \'"str_replace" syntax should be str_replace:\\n'
        "              template: This is var1 template var2\\n"
        "              params:\\n                var1: a\\n                var2: string'"
    )
    assert resolve_error({"str_replace": {"template": ["x"], "params": {"a": "b"}}}) == (
        '"str_replace" template must be a string'
    )


def test_str_replace_strict_variants():
    strict = {"str_replace_strict": {"template": "a", "params": {"b": "c", "dd": 1}}}
    assert resolve_error(strict) == "The following params were not found in the template: dd,b"
    assert resolve({"str_replace_strict": {"template": "ab", "params": {"b": "c"}}}) == "ac"
    vstrict = {"str_replace_vstrict": {"template": "ab", "params": {"b": ""}}}
    assert resolve_error(vstrict) == (
        "str_replace_vstrict has an undefined or empty value for param b, must be a defined "
        "non-empty value"
    )
    assert parse({"str_replace_strict": {}}, "2016-10-14")[0] == {"str_replace_strict": {}}


# -- list_join


def test_list_join():
    assert resolve({"list_join": [",", ["a", "b"], ["c"], None]}) == "a,b,c"
    assert resolve({"list_join": [",", [{"k": 1}, ["x"]]]}) == '{"k": 1},["x"]'
    assert resolve({"list_join": ["-", {"get_param": "zones"}]}) == "az1-az2"
    assert resolve({"list_join": [",", ["a", None]]}, "2013-05-23") == "a,"


def test_list_join_errors():
    usage = '.list_join: Incorrect arguments to "list_join" should be: "list_join" : [ " ", '
    assert parse_error({"list_join": ","}) == usage + '[ "str1", "str2"] ...]'
    assert parse_error({"list_join": [","]}) == usage + '[ "str1", "str2"] ...]'
    assert parse_error({"list_join": [",", [], []]}, "2015-04-30") == (usage + '[ "str1", "str2"]]')
    assert resolve_error({"list_join": [",", "abc"]}) == '"list_join" must operate on a list'
    assert resolve_error({"list_join": [",", [1, 2]]}) == (
        "Items to join must be string, map or list not 1"
    )
    assert resolve_error({"list_join": [",", [1]]}, version="2015-04-30") == (
        "Items to join must be strings not 1"
    )
    assert resolve_error({"list_join": [1, ["a"]]}) == '"list_join" delimiter must be a string'


# -- get_file, removed and not-yet-implemented functions


def test_get_file():
    stack = make_stack(files={"boot.sh": "#!/bin/sh"})
    assert resolve({"get_file": "boot.sh"}, stack=stack) == "#!/bin/sh"
    assert resolve_error({"get_file": "nope"}) == (
        'No content found in the "files" section for get_file path: nope'
    )


def test_removed_functions():
    assert validate_error({"Ref": "x"}) == (
        "resources.r.properties.salt.Ref: The template version is invalid: "
        "The function Ref is not supported in this version of HOT."
    )
    assert validate_error({"list_join": [",", [{"Fn::Base64": "x"}]]}) == (
        "resources.r.properties.salt.list_join: [1][0].Fn::Base64: The template version is "
        "invalid: The function Fn::Base64 is not supported in this version of HOT."
    )
    assert validate_error({"Fn::Select": [0, ["a"]]}, "2015-10-15").endswith(
        "The function Fn::Select is not supported in this version of HOT."
    )


def test_unknown_or_later_functions_are_plain_data():
    assert resolve({"bogus_fn": "x"}) == {"bogus_fn": "x"}
    assert resolve({"map_merge": [{}]}, "2013-05-23") == {"map_merge": [{}]}
    assert resolve({"if": ["c", 1, 2]}, "2016-04-08") == {"if": ["c", 1, 2]}


# -- conditions and if

CONDS = {
    "yes": True,
    "no": {"not": "yes"},
    "is_web": {"equals": [{"get_param": "name"}, "web"]},
    "both": {"and": ["yes", "is_web"]},
    "either": {"or": ["no", False]},
}


def cond(name, **kwargs):
    stack = make_stack(conditions=CONDS, **kwargs)
    return stack.t.conditions(stack).is_enabled(name)


def test_condition_functions():
    assert cond("yes") is True
    assert cond("no") is False
    assert cond("is_web") is True
    assert cond("is_web", params={"name": "db"}) is False
    assert cond("both") is True
    assert cond("either") is False
    assert cond(None) is True and cond(False) is False


def test_if():
    stack = make_stack(conditions=CONDS)
    snippet = {"a": {"if": ["is_web", "W", "X"]}, "b": {"if": ["no", "W", {"get_param": "name"}]}}
    assert resolve(snippet, stack=stack) == {"a": "W", "b": "web"}
    assert resolve({"if": [{"not": "yes"}, 1, 2]}, stack=stack) == 2


def test_if_without_else_drops_the_item_from_2021_04_16():
    stack = make_stack("2021-04-16", conditions=CONDS)
    snippet = {"keep": 1, "drop": {"if": ["no", 2]}, "list": [1, {"if": ["no", 2]}, 3]}
    assert resolve(snippet, stack=stack) == {"keep": 1, "list": [1, 3]}
    assert resolve({"if": ["no", 2]}, stack=stack) is None
    with pytest.raises(exception.StackValidationFailed, match="must be of the form"):
        resolve({"if": ["no", 2]}, stack=make_stack("2018-08-31", conditions=CONDS))


def test_if_references_only_the_chosen_branch():
    stack = make_stack(conditions=CONDS)
    parsed, _ = parse({"if": ["yes", {"get_resource": "a"}, {"get_resource": "zzz"}]}, stack=stack)
    assert list(function.dependencies(parsed, "r")) == ["a"]


def test_if_errors():
    stack = make_stack(conditions=CONDS)
    with pytest.raises(exception.StackValidationFailed) as err:
        parse({"v": {"if": ["nope", 1, 2]}}, stack=stack)
    assert str(err.value) == '.v.if: Invalid condition "nope"'
    with pytest.raises(exception.StackValidationFailed) as err:
        parse({"if": "x"}, stack=stack)
    assert str(err.value) == (
        '.if: Arguments to "if" must be of the form: '
        "[condition_name, value_if_true, value_if_false]"
    )


def test_condition_argument_errors():
    stack = make_stack()
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.parse_condition(stack, {"equals": [1]}, "conditions.c")
    assert str(err.value) == (
        'conditions.c.equals: Arguments to "equals" must be of the form: [value_1, value_2]'
    )
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.parse_condition(stack, {"and": ["yes"]}, "conditions.c")
    assert (
        str(err.value)
        == 'conditions.c.and: The minimum number of condition arguments to "and" is 2.'
    )
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.parse_condition(stack, {"or": "yes"}, "conditions.c")
    assert str(err.value) == 'conditions.c.or: Arguments to "or" must be a list of conditions'
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.parse_condition(stack, {"not": None}, "conditions.c")
    assert str(err.value) == 'conditions.c.not: Argument to "not" must be a condition'


# -- the generic helpers


def test_validate_paths_in_lists():
    parsed, _ = parse({"a": [{"b": {"Ref": "x"}}]})
    with pytest.raises(exception.StackValidationFailed) as err:
        function.validate(parsed, ["resources", "r", "metadata"])
    assert str(err.value).startswith("resources.r.metadata.a[0].b.Ref: ")


def test_deepcopy_gives_back_template_form():
    parsed, _ = parse({"x": {"get_param": "name"}, "y": [{"get_resource": "a"}]})
    assert copy.deepcopy(parsed) == {"x": {"get_param": "name"}, "y": [{"get_resource": "a"}]}


def test_function_equality_compares_results():
    one, _ = parse({"get_param": "name"})
    two, _ = parse({"list_join": ["", ["w", "eb"]]})
    assert one == two and one == "web" and one != "db"
    assert "GetParam" in repr(one)


def test_resolve_ellipsis_at_top_level():
    class Nothing(function.Function):
        def result(self):
            return Ellipsis

    assert function.resolve(Nothing(None, "x", None)) is None
    assert function.resolve(Nothing(None, "x", None), nullable=True) is Ellipsis
    assert function.resolve({"a": Nothing(None, "x", None), "b": (1,)}) == {"b": [1]}


def test_invalid_function_in_conditions():
    stack = make_stack()
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.parse_condition(stack, {"get_resource": "a"}, "conditions.c")
    assert str(err.value) == (
        'conditions.c.get_resource: The function "get_resource" is invalid in this context'
    )
    parsed = stack.t.parse_condition(stack, {"Ref": "a"}, "conditions.c")
    assert isinstance(parsed, function.Removed)
