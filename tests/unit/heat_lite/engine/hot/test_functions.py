"""digest, yaql, resource_facade, and which functions each HOT version has.

Expected values and messages are Heat 27's (checked against a running Heat 27).
"""

import hashlib

import pytest

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.engine import rsrc_defn
from heat_lite.engine.hot import functions as hot_funcs
from heat_lite.engine.hot import template as hot_template
from tests.unit.heat_lite.engine.fakes import hot_stack, parse, resolve, validate

pytestmark = pytest.mark.unit


def invalid(snippet, stage=validate, version="2018-08-31"):
    with pytest.raises(exception.StackValidationFailed) as err:
        stage(snippet, version=version)
    return str(err.value)


# -- digest


def test_digest():
    assert resolve({"digest": ["sha256", "hello"]}, version="2015-04-30") == (
        hashlib.sha256(b"hello").hexdigest()
    )
    assert (
        resolve({"digest": ["md5", "héllo"]}) == hashlib.md5("héllo".encode("latin-1")).hexdigest()
    )
    assert resolve({"digest": ["SHA512", "x"]}) == hashlib.sha512(b"x").hexdigest()


def test_digest_errors():
    with pytest.raises(ValueError) as err:
        resolve({"digest": ["sha256"]})
    assert str(err.value) == 'Function "digest" usage: ["<algorithm>", "<value>"]'
    with pytest.raises(TypeError) as err:
        resolve({"digest": ["sha256", 1]})
    assert str(err.value) == 'Argument to function "digest" must be a list of strings'
    with pytest.raises(ValueError) as err:
        resolve({"digest": ["nope", "x"]})
    assert str(err.value) == "Algorithm must be one of %s" % str(hashlib.algorithms_available)


# -- yaql


def test_yaql():
    stack = hot_stack("2016-10-14", parameters={"tag": {"type": "string", "default": "v3.26.1"}})
    expr = {"expression": '$.data.t.startsWith("v3.26.")', "data": {"t": {"get_param": "tag"}}}
    assert resolve({"yaql": expr}, stack) is True
    assert resolve({"yaql": {"expression": "$.data.l.sum()", "data": {"l": [1, 2, 3]}}}) == 6
    assert resolve({"yaql": {"expression": "$.data.l.select($ * 2)", "data": {"l": [1, 2]}}}) == [
        2,
        4,
    ]
    with pytest.raises(KeyError):
        resolve({"yaql": {"expression": "$.data.x"}})


def test_a_starting_service_builds_the_yaql_parser(monkeypatch):
    """resources.initialise() (engine and worker start) builds it, not the first stack."""
    from heat_lite.engine import resources

    monkeypatch.setattr(hot_funcs.Yaql, "_parser", None)
    resources.initialise()
    parser = hot_funcs.Yaql._parser
    assert parser is not None
    assert hot_funcs.Yaql.yaql_parser() is parser


def test_yaql_errors():
    base = "outputs.o.value.yaql: "
    assert invalid({"yaql": {"expression": "$.data.l.sum(", "data": {}}}) == (
        base + "Bad expression Parse error: unexpected end of statement."
    )
    assert invalid({"yaql": {"expression": "1", "foo": 1}}, parse) == base + repr(
        '"yaql" syntax should be yaql:\n              expression: $.data.var1.sum()\n'
        "              data:\n                var1: [3, 2, 1]"
    )
    assert invalid({"yaql": "1"}, parse) == base + 'Arguments to "yaql" must be a map.'
    assert invalid({"yaql": {"expression": 1}}) == (
        base + 'The "expression" argument to yaql must contain a string.'
    )


def test_yaql_limits_come_from_config():
    assert (CONF.yaql.limit_iterators, CONF.yaql.memory_quota) == (200, 10000)
    with pytest.raises(Exception, match="Collection length exceeds 200 elements"):
        resolve({"yaql": {"expression": "range(0, 1000).toList()"}})
    assert resolve({"yaql": {"expression": "range(0, 100).toList().len()"}}) == 100


# -- resource_facade


class Parent:
    def __init__(self):
        self.t = rsrc_defn.ResourceDefinition(
            "nested", "x.yaml", deletion_policy="Retain", update_policy={"batch": 2}
        )

    def metadata_get(self):
        return {"m": 1}


def test_resource_facade():
    stack = hot_stack("2016-10-14", parent_resource=Parent())
    assert resolve({"resource_facade": "metadata"}, stack) == {"m": 1}
    assert resolve({"resource_facade": "deletion_policy"}, stack) == "Retain"
    assert resolve({"resource_facade": "update_policy"}, stack) == {"batch": 2}


def test_resource_facade_errors():
    with pytest.raises(AttributeError) as err:
        resolve({"resource_facade": "metadata"})  # a top-level stack has no parent
    assert str(err.value) == "'NoneType' object has no attribute 'metadata_get'"
    assert invalid({"resource_facade": "foo"}, parse) == (
        'outputs.o.value.resource_facade: Incorrect arguments to "resource_facade" should be '
        "one of: metadata, deletion_policy, update_policy"
    )


# -- per-version tables


@pytest.mark.parametrize(
    "version,function",
    [
        ("2014-10-16", "Ref"),
        ("2014-10-16", "Fn::Join"),
        ("2015-10-15", "Fn::Select"),
        ("2021-04-16", "Fn::GetAZs"),
    ],
)
def test_removed_functions(version, function):
    assert invalid({function: ["x", ["y"]]}, version=version) == (
        "outputs.o.value.%s: The template version is invalid: The function %s is not "
        "supported in this version of HOT." % (function, function)
    )


@pytest.mark.parametrize(
    "version,function",
    [
        ("2015-04-30", "str_split"),
        ("2016-04-08", "yaql"),
        ("2016-10-14", "filter"),
        ("2017-02-24", "make_url"),
        ("2018-08-31", "deep_merge"),
    ],
)
def test_later_functions_are_plain_data(version, function):
    assert resolve({function: [1]}, version=version) == {function: [1]}


def test_select_in_2014_10_16():
    assert resolve({"Fn::Select": [1, ["a", "b"]]}, version="2014-10-16") == "b"
    assert resolve({"Fn::Select": ["x", {"x": 1}]}, version="2015-04-30") == 1


def test_version_tables_follow_heat():
    tables = [
        hot_template.FUNCTIONS_20150430,
        hot_template.FUNCTIONS_20161014,
        hot_template.FUNCTIONS_20170901,
    ]
    assert [t["repeat"].__name__ for t in tables] == [
        "Repeat",
        "RepeatWithMap",
        "RepeatWithNestedLoop",
    ]
    assert hot_template.FUNCTIONS_20210416["if"] is not hot_template.FUNCTIONS_20170901["if"]
    assert hot_template.CONDITION_FUNCTIONS_20170901["yaql"] is hot_funcs.Yaql
