"""str_split and make_url (str_replace, list_join: tests/unit/heat_lite/engine/test_functions.py).

Expected values and messages are Heat 27's (checked against a running Heat 27).
"""

import pytest

from heat_lite.common import exception
from tests.unit.heat_lite.engine.fakes import parse, resolve, validate

pytestmark = pytest.mark.unit


def error(snippet, exc=(TypeError, ValueError)):
    with pytest.raises(exc) as err:
        resolve(snippet)
    return str(err.value)


def invalid(snippet, stage=validate):
    with pytest.raises(exception.StackValidationFailed) as err:
        stage(snippet)
    return str(err.value)


SPLIT_USAGE = '"str_split" : [ ",", "apples,pears", <index>]'


def test_str_split():
    assert resolve({"str_split": [",", "a,b,c"]}, version="2015-10-15") == ["a", "b", "c"]
    assert resolve({"str_split": [",", "a,b,c", 1]}) == "b"
    assert resolve({"str_split": [",", "a,b,c", "2"]}) == "c"
    assert resolve({"str_split": [",", "a,b", -1]}) == "b"
    assert resolve({"str_split": [",", None]}) is None


def test_str_split_errors():
    assert error({"str_split": [",", "a,b,c", 5]}) == (
        'Incorrect index to "str_split" should be between 0 and 2'
    )
    assert error({"str_split": [",", "a,b,c", "x"]}) == (
        'Incorrect index to "str_split" should be: ' + SPLIT_USAGE
    )
    assert error({"str_split": [","]}) == 'Incorrect arguments to "str_split" should be: ' + (
        SPLIT_USAGE
    )
    assert invalid({"str_split": "a,b"}, parse) == (
        'outputs.o.value.str_split: Incorrect arguments to "str_split" should be: ' + SPLIT_USAGE
    )


def test_make_url():
    snippet = {
        "make_url": {
            "scheme": "https",
            "username": "u s",
            "password": "p@ss",
            "host": "example.com",
            "port": 443,
            "path": "/a b/c",
            "query": {"x": "1 2", "y": "/z"},
            "fragment": "f g",
        }
    }
    assert resolve(snippet, version="2017-09-01") == (
        "https://u%20s:p%40ss@example.com:443/a%20b/c?x=1+2&y=/z#f%20g"
    )
    assert resolve({"make_url": {"scheme": "http", "host": "::1", "port": "8080"}}) == (
        "http://[::1]:8080"
    )
    assert resolve({"make_url": {"host": "[fe80::1]", "path": "x"}}) == "//[fe80::1]/x"
    assert resolve({"make_url": {"username": "u", "host": "h"}}) == "//u@h"
    assert resolve({"make_url": {"password": "p", "host": "h"}}) == "//:p@h"


def test_make_url_errors():
    base = "outputs.o.value.make_url: "
    assert error({"make_url": {"scheme": "http:", "host": "h"}}) == (
        "URL \"scheme\" should not contain ':'"
    )
    assert invalid({"make_url": {"host": "h", "port": 70000}}) == (
        base + "Invalid URL port 70000, must be in range 1-65535"
    )
    assert invalid({"make_url": {"host": "h", "port": "abc"}}) == (
        base + "Invalid URL port \"abc\" for make_url called with {'host': 'h', 'port': 'abc'}"
    )
    assert invalid({"make_url": {"host": "h", "foo": 1}}) == (
        base + 'Invalid arguments to "make_url": foo'
    )
    assert invalid({"make_url": {"host": 1}}) == (
        base + 'The "host" argument to "make_url" must be a string'
    )
    assert invalid({"make_url": {"query": [1]}}) == (
        base + 'The "query" argument to "make_url" must be a map'
    )
    assert invalid({"make_url": [1]}) == base + 'The arguments to "make_url" must be a map'
    # Heat checks nothing after the query (the fragment is not type-checked)
    validate({"make_url": {"query": {}, "fragment": 1}})
