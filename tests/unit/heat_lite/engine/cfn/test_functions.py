"""CFN functions: Ref, Fn::GetAtt, Fn::Join/Select/Split/Replace/Base64/FindInMap/GetAZs,
Fn::MemberListToMap, Fn::ResourceFacade and the condition functions.

Expected values and messages are Heat 27's (checked against a running Heat 27).
"""

import pytest

from heat_lite.common import exception
from heat_lite.engine import function
from tests.unit.heat_lite.engine.fakes import FakeStack

pytestmark = pytest.mark.unit

PARAMS = {
    "P": {"Type": "String", "Default": "x"},
    "L": {"Type": "CommaDelimitedList", "Default": "a,b"},
}


def cfn_stack(version=("AWSTemplateFormatVersion", "2010-09-09"), **sections):
    tmpl = {
        version[0]: version[1],
        "Parameters": PARAMS,
        "Mappings": {"M": {"k1": {"v": "mv1"}, "k2": {"v": "mv2"}}},
        "Resources": {"v": {"Type": "T"}},
        **sections,
    }
    return FakeStack(tmpl, attrs={"v": {"value": {"a": [1]}}})


def parse(snippet, stack=None):
    stack = stack or cfn_stack()
    return stack.t.parse(stack, snippet, "Outputs.o.Value")


def resolve(snippet, stack=None):
    return function.resolve(parse(snippet, stack))


def parse_error(snippet):
    with pytest.raises(exception.StackValidationFailed) as err:
        parse(snippet)
    return str(err.value)


def test_ref_is_a_parameter_or_a_resource():
    assert resolve({"Ref": "P"}) == "x"
    assert resolve({"Ref": "L"}) == ["a", "b"]
    assert resolve({"Ref": "v"}) == "v-id"
    parsed = parse({"Ref": "v"})
    assert list(function.dependencies(parsed, "r.Properties")) == ["v"]
    with pytest.raises(exception.InvalidTemplateReference) as err:
        resolve({"Ref": "nope"})
    assert str(err.value) == 'The specified reference "nope" (in unknown) is incorrect.'


def test_pseudo_parameters():
    assert resolve({"Ref": "AWS::StackName"}) == "st"
    assert resolve({"Ref": "AWS::StackId"}) == "arn:openstack:heat::proj:stacks/st/sid"
    assert resolve({"Ref": "AWS::Region"}) == "ap-southeast-1"
    stack = FakeStack({"AWSTemplateFormatVersion": "2010-09-09"}, identifier=None)
    assert resolve({"Ref": "AWS::StackId"}, stack) == "None"
    assert "AWS::StackName" not in stack.parameters


def test_get_att():
    parsed = parse({"Fn::GetAtt": ["v", "value"]})
    assert function.resolve(parsed) == {"a": [1]}
    assert set(function.dep_attrs(parsed, "v")) == {("value",)}
    assert parse_error({"Fn::GetAtt": ["v"]}) == (
        'Outputs.o.Value.Fn::GetAtt: Arguments to "Fn::GetAtt" must be of the form '
        "[resource_name, attribute]"
    )
    stack = cfn_stack()
    stack.attr_names = {"v": {"value"}}
    with pytest.raises(exception.StackValidationFailed) as err:
        function.validate(parse({"Fn::GetAtt": ["v", "nope"]}, stack), ["Outputs", "o", "Value"])
    assert str(err.value) == (
        "Outputs.o.Value.Fn::GetAtt: The Referenced Attribute (v nope) is incorrect."
    )


@pytest.mark.parametrize(
    "args,result",
    [
        ([1, ["a", "b"]], "b"),
        (["1", ["a", "b"]], "b"),
        ([5, ["a", "b"]], ""),
        (["x", {"x": 1}], 1),
        (["y", {"x": 1}], ""),
        (["1", '["a", "b"]'], "b"),
        ([1, None], ""),
        ([1, ""], ""),
    ],
)
def test_select(args, result):
    assert resolve({"Fn::Select": args}) == result


@pytest.mark.parametrize(
    "args,message",
    [
        ([1, "not json"], '"Fn::Select": Expecting value: line 1 column 1 (char 0)'),
        ([1, {"x": 1}], 'Index to "Fn::Select" must be a string'),
        (["x", ["a"]], 'Index to "Fn::Select" must be an integer'),
        ([1, 5], "Arguments to Fn::Select not fully resolved"),
    ],
)
def test_select_errors(args, message):
    with pytest.raises((TypeError, ValueError)) as err:
        resolve({"Fn::Select": args})
    assert str(err.value) == message


def test_join_split_replace_base64():
    assert resolve({"Fn::Join": [",", [{"Ref": "P"}, "b"]]}) == "x,b"
    assert resolve({"Fn::Split": ["-", "a-b-c"]}) == ["a", "b", "c"]
    assert resolve({"Fn::Replace": [{"%p%": {"Ref": "P"}}, "is %p%"]}) == "is x"
    assert resolve({"Fn::Base64": "abc"}) == "abc"
    with pytest.raises(TypeError, match='"Fn::Base64" argument must be a string'):
        resolve({"Fn::Base64": 1})


def test_argument_errors():
    assert parse_error({"Fn::Join": "x"}) == (
        'Outputs.o.Value.Fn::Join: Incorrect arguments to "Fn::Join" should be: '
        '"Fn::Join" : [ " ", [ "str1", "str2"]]'
    )
    assert parse_error({"Fn::Select": [1]}) == (
        'Outputs.o.Value.Fn::Select: Arguments to "Fn::Select" must be of the form '
        "[index, collection]"
    )
    assert parse_error({"Fn::Split": ","}) == (
        'Outputs.o.Value.Fn::Split: Incorrect arguments to "Fn::Split" should be: '
        '"Fn::Split" : [ ",", "str1,str2"]]'
    )
    assert parse_error({"Fn::Replace": [1]}) == (
        'Outputs.o.Value.Fn::Replace: Incorrect arguments to "Fn::Replace" should be: '
        '{"Fn::Replace": [ {"$var1": "foo", "%var2%": "bar"}, "$var1 is %var2%"]}'
    )
    assert parse_error({"Fn::FindInMap": ["a", "b"]}) == (
        "Outputs.o.Value.Fn::FindInMap: 'not enough values to unpack (expected 3, got 2)'"
    )
    assert parse_error({"Fn::MemberListToMap": ["a", "b"]}) == (
        'Outputs.o.Value.Fn::MemberListToMap: Wrong Arguments try: "\n'
        "            {'Fn::MemberListToMap': ['Name', 'Value',\n"
        "                                     ['.member.0.Name=key',\n"
        "                                      '.member.0.Value=door']]}\n"
        '            "'
    )
    assert parse_error({"Fn::ResourceFacade": "metadata"}) == (
        'Outputs.o.Value.Fn::ResourceFacade: Incorrect arguments to "Fn::ResourceFacade" '
        "should be one of: Metadata, DeletionPolicy, UpdatePolicy"
    )


def test_find_in_map_get_azs_member_list():
    assert resolve({"Fn::FindInMap": ["M", "k2", "v"]}) == "mv2"
    with pytest.raises(KeyError):
        resolve({"Fn::FindInMap": ["M", "k3", "v"]})
    assert resolve({"Fn::GetAZs": ""}) == ["nova"]
    members = [".member.0.Key=a", ".member.0.Value=1", ".member.2.Key=b", ".member.1.Value=2"]
    assert resolve({"Fn::MemberListToMap": ["Key", "Value", members]}) == {"a": "1"}


def test_hot_functions_are_plain_data():
    assert resolve({"get_param": "P"}) == {"get_param": "P"}


def test_conditions():
    stack = cfn_stack(
        Conditions={
            "IsX": {"Fn::Equals": [{"Ref": "P"}, "x"]},
            "NotX": {"Fn::Not": ["IsX"]},
            "Both": {
                "Fn::And": ["IsX", {"Fn::Equals": [{"Fn::FindInMap": ["M", "k1", "v"]}, "mv1"]}]
            },
            "Either": {"Fn::Or": ["NotX", False]},
        }
    )
    assert resolve({"Fn::If": ["Both", "big", "small"]}, stack) == "big"
    assert resolve({"Fn::If": ["Either", "y", "n"]}, stack) == "n"
    assert resolve({"Fn::If": ["NotX", {"Ref": "nope"}, "ok"]}, stack) == "ok"


@pytest.mark.parametrize(
    "condition,message",
    [
        (
            {"Fn::Not": [True, False]},
            'Conditions.C.Fn::Not: Arguments to "Fn::Not" must be of the form: [condition]',
        ),
        (
            {"Fn::Equals": [{"Fn::GetAtt": ["v", "value"]}, "x"]},
            'Conditions.C.Fn::Equals[0].Fn::GetAtt: The function "Fn::GetAtt" is invalid in '
            "this context",
        ),
    ],
)
def test_condition_errors(condition, message):
    stack = cfn_stack(Conditions={"C": condition})
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.conditions(stack)
    assert str(err.value) == message


def test_heat_2012_12_12_has_no_if():
    stack = cfn_stack(("HeatTemplateFormatVersion", "2012-12-12"))
    assert resolve({"Fn::If": ["c", 1, 2]}, stack) == {"Fn::If": ["c", 1, 2]}
    assert resolve({"Ref": "P"}, stack) == "x"
