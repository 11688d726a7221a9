"""repeat, map_merge, map_replace, filter, list_concat(_unique), contains.

Expected values and messages are Heat 27's (checked against a running Heat 27).
"""

import pytest

from heat_lite.common import exception
from tests.unit.heat_lite.engine.fakes import hot_stack, parse, resolve, validate

pytestmark = pytest.mark.unit


def error(snippet, version="2018-08-31", exc=(TypeError, ValueError, KeyError), stack=None):
    with pytest.raises(exc) as err:
        resolve(snippet, stack, version)
    return str(err.value)


def parse_error(snippet, version="2018-08-31"):
    with pytest.raises(exception.StackValidationFailed) as err:
        parse(snippet, version=version)
    return str(err.value)


def validate_error(snippet, version="2018-08-31"):
    with pytest.raises(exception.StackValidationFailed) as err:
        validate(snippet, version=version)
    return str(err.value)


# -- repeat


def test_repeat_is_the_product_of_the_lists():
    stack = hot_stack(
        "2015-04-30", parameters={"ports": {"type": "comma_delimited_list", "default": "80,443"}}
    )
    snippet = {
        "repeat": {
            "template": {"port": "%p%", "name": "n-%p%"},
            "for_each": {"%p%": {"get_param": "ports"}},
        }
    }
    assert resolve(snippet, stack) == [
        {"port": "80", "name": "n-80"},
        {"port": "443", "name": "n-443"},
    ]
    two = {"repeat": {"template": "%a%-%b%", "for_each": {"%a%": ["x", "y"], "%b%": ["1", "2"]}}}
    assert resolve(two, version="2015-04-30") == ["x-1", "x-2", "y-1", "y-2"]
    keys = {"repeat": {"template": {"%a%": "v-%a%"}, "for_each": {"%a%": ["k"]}}}
    assert resolve(keys, version="2015-04-30") == [{"k": "v-k"}]


def test_repeat_none_values_give_nothing():
    snippet = {"repeat": {"template": "%a%", "for_each": {"%a%": ["x"], "%b%": None}}}
    assert resolve(snippet, version="2015-04-30") == []


@pytest.mark.parametrize(
    "version,for_each,result",
    [
        ("2015-04-30", {"k1": "v", "k2": "w"}, "must be lists"),
        ("2015-04-30", "abc", "must be lists"),
        ("2016-10-14", {"k1": "v", "k2": "w"}, ["k1", "k2"]),
        ("2016-10-14", "abc", "must be lists or maps"),
        ("2017-09-01", {"k": "v"}, ["k"]),
    ],
)
def test_repeat_values_per_version(version, for_each, result):
    snippet = {"repeat": {"template": "%a%", "for_each": {"%a%": for_each}}}
    if isinstance(result, list):
        assert resolve(snippet, version=version) == result
    else:
        assert error(snippet, version) == (
            'The values of the "for_each" argument to "repeat" %s' % result
        )


def test_repeat_permutations_from_2017_09_01():
    snippet = {
        "repeat": {
            "template": "%a%-%b%",
            "for_each": {"%a%": ["x", "y"], "%b%": ["1", "2"]},
            "permutations": False,
        }
    }
    assert resolve(snippet, version="2017-09-01") == ["x-1", "y-2"]
    # before pike the key is ignored
    assert resolve(snippet, version="2016-10-14") == ["x-1", "x-2", "y-1", "y-2"]
    snippet["repeat"]["for_each"]["%b%"] = ["1"]
    assert error(snippet, "2017-09-01") == (
        "For repeat, the length of for_each values should be equal if no nested loop."
    )
    maps = {"repeat": {"template": "%a%", "for_each": {"%a%": {"k": "v"}}, "permutations": False}}
    assert error(maps, "2017-09-01") == (
        'The values of the "for_each" argument to "repeat" must be lists'
    )


def test_repeat_argument_errors():
    base = "outputs.o.value.repeat: "
    assert parse_error({"repeat": [1]}) == base + 'Arguments to "repeat" must be a map'
    assert parse_error({"repeat": {"template": "%a%"}}) == base + repr(
        '"repeat" syntax should be repeat:\n              template: This is %var%\n'
        "              for_each:\n                %var%: ['a', 'b', 'c']"
    )
    bad_perm = {"repeat": {"template": "x", "for_each": {"%a%": ["x"]}, "permutations": "no"}}
    assert (
        parse_error(bad_perm) == base + '"permutations" should be boolean type for repeat function.'
    )
    assert validate_error({"repeat": {"template": "x", "for_each": [1]}}) == (
        base + 'The "for_each" argument to "repeat" must contain a map'
    )


# -- map_merge


def test_map_merge():
    snippet = {"map_merge": [{"a": 1, "b": 2}, {"a": 3}, None, {"c": [1]}]}
    assert resolve(snippet, version="2016-04-08") == {"a": 3, "b": 2, "c": [1]}
    shallow = {"map_merge": [{"a": {"x": 1}}, {"a": {"y": 2}}]}
    assert resolve(shallow) == {"a": {"y": 2}}


def test_map_merge_errors():
    assert error({"map_merge": [{"a": 1}, [1]]}) == (
        "Incorrect arguments: Items to merge must be maps. [1] is type <class 'list'> "
        "instead of a dict"
    )
    assert error({"map_merge": {"a": 1}}) == (
        'Incorrect arguments to "map_merge" should be: '
        '"map_merge" : [ { "key1": "val1" }, { "key2": "val2" } ]'
    )
    assert error({"map_merge": "ab"}).startswith("Incorrect arguments: Items to merge must be maps")


# -- map_replace

MAP_REPLACE_USAGE = (
    '"map_replace" : [ { "key1": "val1" }, {"keys": {"key1": "key2"}, "values": {"val1": "val2"}}]'
)


def test_map_replace():
    snippet = {
        "map_replace": [{"k1": "v1", "k2": "v2"}, {"keys": {"k1": "K1"}, "values": {"v2": "V2"}}]
    }
    assert resolve(snippet, version="2016-10-14") == {"K1": "v1", "k2": "V2"}
    assert resolve({"map_replace": [{"k1": [1]}, {"values": {"v": "x"}}]}) == {"k1": [1]}
    assert resolve({"map_replace": [None, None]}) == {}


@pytest.mark.parametrize(
    "args,message",
    [
        (
            [{"k1": "v1", "k2": "v2"}, {"keys": {"k1": "k2"}}],
            "key replacement k2 collides with a key in the input map",
        ),
        (
            [{"k1": "v1", "k2": "v2"}, {"keys": {"k1": "K", "k2": "K"}}],
            "key replacement K collides with a key in the output map",
        ),
        ([{"k1": "v1"}, {"foo": {}}], 'Incorrect arguments to "map_replace" should be: '),
        ([{"k1": "v1"}], 'Incorrect arguments to "map_replace" should be: '),
        ([{"k1": "v1"}, {}, {}], 'Incorrect arguments to "map_replace" should be: '),
        (
            [[1], {}],
            'Incorrect arguments: to "map_replace", arguments must be a list of maps. Example:  ',
        ),
        (
            [{"k1": "v1"}, {"keys": [1]}],
            'Incorrect arguments: to "map_replace", arguments must be a list of maps. Example:  ',
        ),
        ({"a": 1}, "0"),
    ],
)
def test_map_replace_errors(args, message):
    if message.endswith(": ") or message.endswith("  "):
        message += MAP_REPLACE_USAGE
    assert error({"map_replace": args}) == message


# -- filter


def test_filter():
    assert resolve({"filter": [[None, 2], [1, None, 2, 3]]}, version="2017-02-24") == [1, 3]
    assert resolve({"filter": [[], [1]]}) == [1]
    assert resolve({"filter": [None, []]}) == []
    assert error({"filter": [[1], "abc"]}) == '"filter" only works with lists'
    assert error({"filter": [1, [1, 2]]}) == '"filter" filters a list of values'
    assert parse_error({"filter": [[1]]}) == (
        'outputs.o.value.filter: "filter" expected 2 arguments of the form [values, sequence] '
        "but got 1 arguments instead"
    )
    assert (
        parse_error({"filter": "x"})
        == 'outputs.o.value.filter: Argument to "filter" must be a list'
    )


# -- list_concat, list_concat_unique


def test_list_concat():
    assert resolve({"list_concat": [[1, 2], [2, 3], None]}, version="2017-09-01") == [1, 2, 2, 3]
    unique = {"list_concat_unique": [[1, 2], [2, 3], [{"a": 1}], [{"a": 1}]]}
    assert resolve(unique) == [1, 2, 3, {"a": 1}]
    assert error({"list_concat": [[1], "ab"]}) == (
        'Incorrect arguments: Items to concat must be lists. [[1], "ab"] contains an item '
        'that is not a list: "ab"'
    )
    assert error({"list_concat": "ab"}) == (
        'Incorrect arguments to "list_concat" should be: '
        '"list_concat" : [ [ <value 1>, <value 2> ], [ <value 3>, <value 4> ] ]'
    )


# -- contains


def test_contains():
    assert resolve({"contains": ["a", ["a", "b"]]}, version="2017-09-01") is True
    assert resolve({"contains": ["c", ["a", "b"]]}) is False
    assert resolve({"contains": ["b", "abc"]}) is True  # a string is a sequence
    assert (
        error({"contains": [1, {"a": 1}]}) == 'Second argument to "contains" should be a sequence.'
    )
    assert parse_error({"contains": ["a"]}) == (
        'outputs.o.value.contains: Arguments to "contains" must be of the form: '
        "[value1, [value1, value2]]"
    )
    assert parse_error({"contains": "a"}) == (
        'outputs.o.value.contains: Incorrect arguments to "contains" should be: '
        '"contains" : [ "value1", [ "value1", "value2"]]'
    )


def test_contains_and_yaql_are_condition_functions_from_2017_09_01():
    stack = hot_stack(
        "2017-09-01",
        parameters={"env": {"type": "string", "default": "prod"}},
        conditions={
            "c1": {"contains": [{"get_param": "env"}, ["prod", "staging"]]},
            "c2": {"yaql": {"expression": "$.data.e = prod", "data": {"e": {"get_param": "env"}}}},
        },
    )
    assert resolve({"if": ["c1", "yes", "no"]}, stack) == "yes"
    assert resolve({"if": ["c2", "yes", "no"]}, stack) == "yes"
    old = hot_stack("2016-10-14", conditions={"c": {"yaql": {"expression": "true"}}})
    with pytest.raises(exception.StackValidationFailed) as err:
        old.t.conditions(old)
    assert str(err.value) == 'conditions.c.yaql: The function "yaql" is invalid in this context'
