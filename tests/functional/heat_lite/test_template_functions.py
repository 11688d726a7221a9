"""Template functions end to end: stacks created through the in-process engine, outputs
computed by the newer HOT functions and by a CFN template."""

import hashlib
import time

import pytest

from tests.fixtures import inprocess

pytestmark = pytest.mark.functional


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _create(heat, name, template, params=None):
    ident = heat.client.create_stack(heat.ctx, name, template, {"parameters": params or {}}, {}, {})
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        stack = heat.client.show_stack(heat.ctx, ident)[0]
        if stack["stack_status"] != "IN_PROGRESS":
            break
        time.sleep(0.02)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    return {o["output_key"]: o.get("output_error") or o["output_value"] for o in stack["outputs"]}


HOT = {
    "heat_template_version": "2021-04-16",
    "parameters": {
        "names": {"type": "comma_delimited_list", "default": "web,db"},
        "env": {"type": "string", "default": "prod"},
    },
    "conditions": {
        "is_prod": {"contains": [{"get_param": "env"}, ["prod", "staging"]]},
        "v3": {"yaql": {"expression": '$.data.t.startsWith("v3.")', "data": {"t": "v3.1"}}},
    },
    "resources": {
        "rnd": {"type": "OS::Heat::RandomString", "properties": {"length": 8}},
        "ports": {
            "type": "OS::Heat::Value",
            "properties": {
                "value": {
                    "repeat": {
                        "template": {"name": "%n%-%p%"},
                        "for_each": {"%n%": {"get_param": "names"}, "%p%": ["80", "443"]},
                    }
                }
            },
        },
        "test": {
            "type": "OS::Heat::TestResource",
            "properties": {"value": {"str_split": [",", "a,b,c", 1]}},
        },
    },
    "outputs": {
        "ports": {"value": {"get_attr": ["ports", "value"]}},
        # a path indexes lists the Python way, as in Heat: -1 is the last item
        "last_port": {"value": {"get_attr": ["ports", "value", -1, "name"]}},
        "past_first": {"value": {"get_attr": ["ports", "value", -5, "name"]}},
        "merged": {
            "value": {
                "map_replace": [
                    {"map_merge": [{"a": 1, "b": 2}, {"b": 3}]},
                    {"keys": {"a": "A"}, "values": {"3": "three"}},
                ]
            }
        },
        "split": {"value": {"get_attr": ["test", "output"]}},
        "digest": {"value": {"digest": ["sha256", {"get_attr": ["rnd", "value"]}]}},
        "random": {"value": {"get_attr": ["rnd", "value"]}},
        "url": {
            "value": {
                "make_url": {
                    "scheme": "https",
                    "host": {"get_param": "env"},
                    "port": 8443,
                    "path": "/v1",
                    "query": {"a": "b c"},
                }
            }
        },
        "lists": {
            "value": {
                "list_concat_unique": [
                    {"filter": [["db"], {"get_param": "names"}]},
                    ["web", "cache"],
                ]
            }
        },
        "conds": {"value": [{"if": ["is_prod", "prod"]}, {"if": [{"not": "v3"}, "old"]}]},
        "count": {"value": {"yaql": {"expression": "$.data.l.len()", "data": {"l": [1, 2, 3]}}}},
    },
}


def test_hot_functions(heat):
    outputs = _create(heat, "hot", HOT)
    assert outputs["ports"] == [
        {"name": "web-80"},
        {"name": "web-443"},
        {"name": "db-80"},
        {"name": "db-443"},
    ]
    assert outputs["last_port"] == "db-443"
    assert outputs["past_first"] is None
    assert outputs["merged"] == {"A": 1, "b": 3}  # values are replaced by equality: 3 != "3"
    assert outputs["split"] == "b"
    assert len(outputs["random"]) == 8
    assert outputs["digest"] == hashlib.sha256(outputs["random"].encode()).hexdigest()
    assert outputs["url"] == "https://prod:8443/v1?a=b+c"
    assert outputs["lists"] == ["web", "cache"]
    assert outputs["conds"] == ["prod"]
    assert outputs["count"] == 3


CFN = {
    "AWSTemplateFormatVersion": "2010-09-09",
    "Parameters": {
        "Env": {"Type": "String", "Default": "prod", "AllowedValues": ["prod", "dev"]},
        "Zones": {"Type": "CommaDelimitedList", "Default": "z1,z2"},
    },
    "Mappings": {"Sizes": {"prod": {"Flavor": "m1.large"}, "dev": {"Flavor": "m1.small"}}},
    "Conditions": {
        "IsProd": {"Fn::Equals": [{"Ref": "Env"}, "prod"]},
        "IsDev": {"Fn::Not": ["IsProd"]},
    },
    "Resources": {
        "flavor": {
            "Type": "OS::Heat::Value",
            "Properties": {"value": {"Fn::FindInMap": ["Sizes", {"Ref": "Env"}, "Flavor"]}},
        },
        "name": {
            "Type": "OS::Heat::TestResource",
            "DependsOn": "flavor",
            "Properties": {
                "value": {"Fn::Join": ["-", [{"Ref": "Env"}, {"Fn::GetAtt": ["flavor", "value"]}]]}
            },
        },
        "dev_only": {"Type": "OS::Heat::Value", "Condition": "IsDev", "Properties": {"value": 1}},
    },
    "Outputs": {
        "flavor": {"Value": {"Fn::GetAtt": ["flavor", "value"]}, "Description": "the flavor"},
        "name": {"Value": {"Fn::GetAtt": ["name", "output"]}},
        "zone": {"Value": {"Fn::Select": ["1", {"Ref": "Zones"}]}},
        "azs": {"Value": {"Fn::GetAZs": ""}},
        "size": {"Value": {"Fn::If": ["IsProd", "big", "small"]}},
        "dev": {"Value": {"Fn::GetAtt": ["dev_only", "value"]}, "Condition": "IsDev"},
        "region": {"Value": {"Ref": "AWS::Region"}},
        "stack": {
            "Value": {"Fn::Join": [":", [{"Ref": "AWS::StackName"}, {"Ref": "AWS::StackId"}]]}
        },
        "words": {
            "Value": {"Fn::Split": [" ", {"Fn::Replace": [{"%e%": {"Ref": "Env"}}, "a %e%"]}]}
        },
    },
}


def test_cfn_template(heat):
    outputs = _create(heat, "cfn", CFN)
    assert outputs.pop("stack").startswith("cfn:arn:openstack:heat::p1:stacks/cfn/")
    assert outputs == {
        "flavor": "m1.large",
        "name": "prod-m1.large",
        "zone": "z2",
        "azs": ["nova"],
        "size": "big",
        "dev": None,
        "region": "ap-southeast-1",
        "words": ["a", "prod"],
    }
    ident = heat.client.identify_stack(heat.ctx, "cfn")
    resources = {r["resource_name"]: r for r in heat.client.list_stack_resources(heat.ctx, ident)}
    assert sorted(resources) == ["flavor", "name"]
    assert resources["name"]["resource_type"] == "OS::Heat::TestResource"
    assert resources["flavor"]["required_by"] == ["name"]
    dev = _create(heat, "cfn-dev", CFN, {"Env": "dev"})
    assert (dev["flavor"], dev["size"], dev["dev"]) == ("m1.small", "small", 1)
