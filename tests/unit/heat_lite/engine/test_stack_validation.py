"""Stack.validate: parameter_groups, duplicate names and update_policy, with Heat 27's messages."""

import pytest

from heat_lite.common import context, exception
from heat_lite.engine import parameter_groups
from heat_lite.engine import stack as parser
from heat_lite.engine import template as tmpl_mod

PARAMS = {
    "flavor": {"type": "string", "default": "m1"},
    "image": {"type": "string", "default": "i"},
}


def _validate(groups, extra=None):
    tmpl = {"heat_template_version": "2018-08-31", "parameters": PARAMS, "resources": {}}
    if groups is not None:
        tmpl["parameter_groups"] = groups
    tmpl.update(extra or {})
    stack = parser.Stack(
        context.RequestContext(user_id="u", project_id="p1", roles=["member"]),
        "s",
        tmpl_mod.Template(tmpl),
    )
    stack.validate()


@pytest.mark.parametrize(
    "groups, message",
    [
        (
            {"label": "x"},
            "Parameter Groups error: parameter_groups: The parameter_groups should be a list.",
        ),
        (
            [{"label": "g1"}],
            "Parameter Groups error: parameter_groups.g1: The parameters must be "
            "provided for each parameter group.",
        ),
        (
            [{"label": "g1", "parameters": "flavor"}],
            "Parameter Groups error: parameter_groups.g1: "
            "The parameters of parameter group should be a list.",
        ),
        (
            [{"label": "g1", "parameters": ["flavor"]}, {"label": "g2", "parameters": ["flavor"]}],
            "Parameter Groups error: parameter_groups.g2: The flavor parameter must be assigned to "
            "one parameter group only.",
        ),
        (
            [{"label": "g1", "parameters": ["key"]}],
            "Parameter Groups error: parameter_groups.g1: "
            "The grouped parameter key does not reference a valid parameter.",
        ),
        (
            [{"parameters": ["key"]}],
            "Parameter Groups error: parameter_groups.: "
            "The grouped parameter key does not reference a valid parameter.",
        ),
    ],
)
def test_invalid_groups(groups, message):
    with pytest.raises(exception.StackValidationFailed) as err:
        _validate(groups)
    assert str(err.value) == message


def test_valid_groups_and_none():
    _validate([{"label": "a", "parameters": ["flavor"]}, {"parameters": ["image"]}])
    _validate(None)
    _validate([])


def test_duplicate_parameter_and_resource_name():
    with pytest.raises(exception.StackValidationFailed) as err:
        _validate(None, {"resources": {"image": {"type": "OS::Heat::None"}}})
    assert str(err.value) == "Duplicate names {'image'}"


def test_groups_of():
    tmpl = tmpl_mod.Template({"heat_template_version": "2018-08-31"})
    assert parameter_groups.groups_of(tmpl) is None


@pytest.mark.parametrize(
    "resource, message",
    [
        (
            {"type": "OS::Heat::ResourceGroup", "update_policy": {"rolling_update": {"foo": 1}}},
            "Property error: resources.r.update_policy.rolling_update: Unknown Property foo",
        ),
        (
            {"type": "OS::Heat::ResourceGroup", "update_policy": {"bar": {}}},
            "Property error: resources.r.update_policy: Unknown Property bar",
        ),
        (
            {
                "type": "OS::Heat::ResourceGroup",
                "update_policy": {"rolling_update": {"max_batch_size": 0}},
            },
            "Property error: resources.r.update_policy.rolling_update.max_batch_size: "
            "0 is out of range (min: 1, max: None)",
        ),
        (
            {"type": "OS::Heat::TestResource", "update_policy": {"bar": {}}},
            "Property error: resources.r.update_policy: Unknown Property bar",
        ),
    ],
)
def test_update_policy_is_checked_against_the_type_schema(resource, message):
    if resource["type"] == "OS::Heat::ResourceGroup":
        resource["properties"] = {"resource_def": {"type": "OS::Heat::None"}}
    with pytest.raises(exception.StackValidationFailed) as err:
        _validate(None, {"resources": {"r": resource}})
    assert str(err.value) == message


def test_a_placeholder_type_takes_any_update_policy():
    _validate(None, {"resources": {"r": {"type": "OS::Heat::None", "update_policy": {"x": {}}}}})
