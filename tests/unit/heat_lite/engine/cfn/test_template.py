"""CFN templates: versions, sections, resource definitions, parameters, outputs.

Messages are Heat 27's (checked against a running Heat 27).
"""

import pytest

from heat_lite.common import exception, template_format
from heat_lite.engine import rsrc_defn
from heat_lite.engine.properties import Schema
from heat_lite.engine.template import Template
from tests.unit.heat_lite.engine.fakes import FakeStack

pytestmark = pytest.mark.unit

AWS = "AWSTemplateFormatVersion"
HEAT = "HeatTemplateFormatVersion"


def cfn(resources=None, key=AWS, **sections):
    tmpl = {key: "2010-09-09" if key == AWS else "2012-12-12", **sections}
    if resources is not None:
        tmpl["Resources"] = resources
    return Template(tmpl)


def invalid(func, exc=exception.StackValidationFailed):
    with pytest.raises(exc) as err:
        func()
    return str(err.value)


def test_versions():
    aws = Template(template_format.parse("AWSTemplateFormatVersion: 2010-09-09\n"))
    assert type(aws).__name__ == "CfnTemplate"
    assert aws.version == (AWS, "2010-09-09")
    heat = Template({HEAT: "2012-12-12"})
    assert type(heat).__name__ == "HeatTemplate"
    assert invalid(lambda: Template({AWS: "2011-01-01"}), exception.InvalidTemplateVersion) == (
        'The template version is invalid: "AWSTemplateFormatVersion: 2011-01-01". '
        '"AWSTemplateFormatVersion" should be: 2010-09-09'
    )
    assert invalid(lambda: Template({HEAT: "2011-01-01"}), exception.InvalidTemplateVersion) == (
        'The template version is invalid: "HeatTemplateFormatVersion: 2011-01-01". '
        '"HeatTemplateFormatVersion" should be: 2012-12-12'
    )
    empty = Template.create_empty_template(version=aws.version)
    assert empty.t == {AWS: "2010-09-09"} and empty.resource_names() == []


def test_sections():
    tmpl = cfn({}, Description="d", Mappings={"M": {}})
    assert tmpl["Description"] == "d" and tmpl["Mappings"] == {"M": {}} and tmpl.maps == {"M": {}}
    assert cfn({})["Description"] == "No description"
    assert list(tmpl) == ["Description", "Mappings", "Resources", "Outputs"]
    with pytest.raises(KeyError, match="Section Parameters can not be accessed directly."):
        tmpl["Parameters"]
    assert invalid(cfn({}, Foo=1).validate, exception.InvalidTemplateSection) == (
        "The template section is invalid: Foo"
    )
    assert invalid(cfn({}, HEAT, Conditions={}).validate, exception.InvalidTemplateSection) == (
        "The template section is invalid: Conditions"
    )
    cfn({}, Conditions={}).validate()


@pytest.mark.parametrize(
    "resources,message",
    [
        ({"v": {"Properties": {}}}, "Each Resource must contain a Type key."),
        ({"v": {}}, "Each Resource must contain a Type key."),
        ({"v": [1]}, "Resources must contain Resource. Found a [<class 'list'>] instead"),
    ],
)
def test_resource_validation(resources, message):
    assert invalid(cfn(resources).validate) == message


def test_unknown_resource_keys_are_ignored():
    tmpl = cfn({"v": {"Type": "T", "Foo": 1}})
    tmpl.validate()
    stack = FakeStack(tmpl)
    assert tmpl.resource_definitions(stack)["v"].resource_type == "T"


def test_resource_definitions():
    stack = FakeStack(
        cfn(
            {
                "a": {"Type": "T"},
                "b": {
                    "Type": "U",
                    "Properties": {"p": {"Ref": "a"}},
                    "Metadata": {"m": 1},
                    "DependsOn": "a",
                    "DeletionPolicy": "Retain",
                    "UpdatePolicy": {"x": 1},
                    "Description": "bee",
                },
            }
        )
    )
    defns = stack.t.resource_definitions(stack)
    b = defns["b"]
    assert (b.resource_type, b.depends_on, b.deletion_policy(), b.description) == (
        "U",
        ["a"],
        "Retain",
        "bee",
    )
    assert b.metadata() == {"m": 1} and b.resolved_properties() == {"p": "a-id"}
    assert b.required_resource_names() == {"a"}
    assert stack.t.resource_type("b") == "U" and stack.t.resource_names() == ["a", "b"]
    assert stack.t.resource_type("nope") is None


@pytest.mark.parametrize(
    "resource,message",
    [
        ({"Type": "T", "DeletionPolicy": "retain"}, 'Invalid deletion policy "retain"'),
        ({"Type": "T", "Condition": [1]}, "Resource v Condition type must be string or boolean"),
        ({"Type": "T", "DependsOn": [1]}, "Resource v DependsOn must be a list of strings"),
        ({"Properties": {}}, "'Resource v is missing \"Type\"'"),
    ],
)
def test_resource_definition_errors(resource, message):
    stack = FakeStack(cfn({"v": resource}))
    assert invalid(lambda: stack.t.resource_definitions(stack)) == message


def test_error_paths_use_cfn_names():
    stack = FakeStack(cfn({"v": {"Type": "T", "Properties": {"value": {"Fn::Join": "x"}}}}))
    assert invalid(lambda: stack.t.resource_definitions(stack)) == (
        'Resources.v.Properties.value.Fn::Join: Incorrect arguments to "Fn::Join" should be: '
        '"Fn::Join" : [ " ", [ "str1", "str2"]]'
    )
    stack = FakeStack(cfn({"v": {"Type": "T", "Properties": {"bogus": 2}}}))
    props = stack.t.resource_definitions(stack)["v"].properties({"value": Schema(Schema.STRING)})
    assert (
        invalid(props.validate) == "Property error: Resources.v.Properties: Unknown Property bogus"
    )
    stack = FakeStack(cfn({}, Outputs={"o": {"Value": {"Fn::Base64": {"Fn::Split": ","}}}}))
    assert invalid(lambda: stack.t.outputs(stack)) == (
        'Outputs.o.Value.Fn::Base64.Fn::Split: Incorrect arguments to "Fn::Split" should be: '
        '"Fn::Split" : [ ",", "str1,str2"]]'
    )


def test_conditions_enable_resources_and_outputs():
    tmpl = cfn(
        {"p": {"Type": "T", "Condition": "IsProd"}, "d": {"Type": "T", "Condition": "IsDev"}},
        Parameters={"Env": {"Type": "String", "Default": "prod"}},
        Conditions={
            "IsProd": {"Fn::Equals": [{"Ref": "Env"}, "prod"]},
            "IsDev": {"Fn::Not": ["IsProd"]},
        },
        Outputs={
            "pv": {"Value": {"Fn::GetAtt": ["p", "v"]}, "Description": "pd"},
            "dv": {"Value": {"Fn::GetAtt": ["d", "v"]}, "Condition": "IsDev"},
        },
    )
    stack = FakeStack(tmpl, attrs={"p": {"v": 1}})
    assert list(tmpl.resource_definitions(stack)) == ["p"]
    outputs = tmpl.outputs(stack)
    assert outputs["pv"].get_value() == 1 and outputs["pv"].description() == "pd"
    assert outputs["dv"].get_value() is None
    bad = cfn({"v": {"Type": "T", "Condition": "nope"}})
    stack = FakeStack(bad)
    assert invalid(lambda: bad.resource_definitions(stack)) == (
        'Resources.v.Condition: Invalid condition "nope"'
    )


def test_heat_2012_12_12_ignores_conditions_keys():
    tmpl = cfn(
        {"v": {"Type": "T", "Condition": "whatever"}},
        HEAT,
        Outputs={"c": {"Value": "y", "Condition": "nothing"}},
    )
    stack = FakeStack(tmpl)
    assert list(tmpl.resource_definitions(stack)) == ["v"]
    assert tmpl.outputs(stack)["c"].get_value() == "y"


def test_parameters():
    tmpl = cfn(
        {},
        Parameters={
            "S": {
                "Type": "String",
                "Default": "abc",
                "MinLength": 1,
                "MaxLength": 4,
                "AllowedPattern": "[a-z]*",
                "NoEcho": "true",
                "Description": "s",
            },
            "N": {"Type": "Number", "Default": "3", "MinValue": 1, "MaxValue": 5},
            "L": {"Type": "CommaDelimitedList", "Default": "a,b"},
            "J": {"Type": "Json", "Default": {"a": [1]}},
            "B": {"Type": "Boolean", "Default": "true"},
            "E": {"Type": "String", "AllowedValues": ["x"], "ConstraintDescription": "only x"},
        },
    )
    params = tmpl.parameters(None, {"E": "x"})
    params.validate()
    assert [params[n] for n in "SNLJBE"] == ["abc", 3, ["a", "b"], {"a": [1]}, True, "x"]
    assert params.map(str)["S"] == "******"
    assert params.params["S"].description() == "s"
    bad = tmpl.parameters(None, {"E": "y"})
    assert invalid(bad.validate) == "Parameter 'E' is invalid: only x"
    assert invalid(tmpl.parameters(None, {"E": "x", "N": "9"}).validate) == (
        "Parameter 'N' is invalid: 9 is out of range (min: 1, max: 5)"
    )


@pytest.mark.parametrize(
    "schema,message",
    [
        ({"Type": "String", "Foo": 1}, "Invalid key 'Foo' for parameter (S)"),
        ({"Type": "string"}, "Invalid type (string)"),
        ({"Default": "x"}, "Missing parameter type for parameter: S"),
    ],
)
def test_parameter_schema_errors(schema, message):
    tmpl = cfn({}, Parameters={"S": schema})
    assert invalid(lambda: tmpl.parameters(None, {}), exception.InvalidSchemaError) == message


def test_add_resource_and_output_in_cfn_spelling():
    tmpl = cfn({"a": {"Type": "T"}})
    tmpl.add_resource(
        rsrc_defn.ResourceDefinition("b", "U", properties={"p": 1}, depends=["a"], condition="c")
    )
    assert tmpl.t["Resources"]["b"] == {
        "Type": "U",
        "Properties": {"p": 1},
        "DependsOn": "a",
        "Condition": "c",
    }
    tmpl.add_resource(rsrc_defn.ResourceDefinition("c", "U", depends=["gone"]))
    assert tmpl.t["Resources"]["c"] == {"Type": "U"}
    tmpl.add_resource(rsrc_defn.ResourceDefinition("d", "U", depends=["a", "b", "gone"]))
    assert tmpl.t["Resources"]["d"]["DependsOn"] == ["a", "b"]
    tmpl.add_output(rsrc_defn.OutputDefinition("o", {"Ref": "a"}, "desc"))
    assert tmpl.t["Outputs"] == {"o": {"Value": {"Ref": "a"}, "Description": "desc"}}
