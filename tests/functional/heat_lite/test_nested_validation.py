"""A parent's create validates its nested stacks first (Heat 27's messages, nothing
stored), and max_resources_per_stack counts the whole tree."""

import pytest
import yaml

from heat_lite.common import exception
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status
DONE = {"CREATE_COMPLETE", "CREATE_FAILED"}


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _template(resources, **extra):
    return dict({"heat_template_version": "2018-08-31", "resources": resources}, **extra)


LEAF = _template(
    {"inner": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "req"}}}},
    parameters={"req": {"type": "string"}, "opt": {"type": "string", "default": "x"}},
)
BAD = _template({"inner": {"type": "OS::Heat::TestResource", "properties": {"foo": 1}}})
FILES = {"file:///leaf.yaml": yaml.safe_dump(LEAF), "file:///bad.yaml": yaml.safe_dump(BAD)}


def _create_fails(heat, tmpl, files=FILES, env=None):
    before = heat.client.list_stacks(heat.ctx, show_nested=True)
    with pytest.raises(exception.HeatException) as err:
        heat.client.create_stack(heat.ctx, "parent", tmpl, env or {}, files, {})
    assert heat.client.list_stacks(heat.ctx, show_nested=True) == before
    return str(err.value)


@pytest.mark.parametrize(
    "props, message",
    [
        (
            {"req": "a", "bogus": 1},
            "Property error: resources.nest.properties: Unknown Property bogus",
        ),
        ({"opt": "b"}, "Property error: resources.nest.properties: Property req not assigned"),
    ],
)
def test_template_resource_properties_are_its_parameters(heat, props, message):
    tmpl = _template({"nest": {"type": "file:///leaf.yaml", "properties": props}})
    assert _create_fails(heat, tmpl) == message


def test_parameter_defaults_satisfy_a_required_parameter(heat):
    tmpl = _template({"nest": {"type": "file:///leaf.yaml"}})
    env = {"parameter_defaults": {"req": "from-env"}}
    ident = heat.client.create_stack(heat.ctx, "pd", tmpl, env, FILES, {})
    assert _wait(heat, ident, DONE)["stack_status"] == "COMPLETE"


def test_error_inside_a_provider_template_fails_the_parent(heat):
    tmpl = _template({"nest": {"type": "file:///bad.yaml"}})
    assert _create_fails(heat, tmpl) == (
        "Property error: resources.nest<file:///bad.yaml>.resources.inner.properties: "
        "Unknown Property foo"
    )


def test_error_inside_a_group_member_and_a_nested_nested_template(heat):
    tmpl = _template(
        {
            "grp": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"resource_def": {"type": "file:///bad.yaml"}},
            }
        }
    )
    assert _create_fails(heat, tmpl) == (
        "Property error: resources.grp<nested_stack>.resources.0<file:///bad.yaml>.resources."
        "inner.properties: Unknown Property foo"
    )
    # a zero count switches the member off: nothing to validate
    tmpl["resources"]["grp"]["properties"]["count"] = 0
    ident = heat.client.create_stack(heat.ctx, "zero", tmpl, {}, FILES, {})
    assert _wait(heat, ident, DONE)["stack_status"] == "COMPLETE"


def test_os_heat_stack_template_is_validated(heat):
    tmpl = _template(
        {"nest": {"type": "OS::Heat::Stack", "properties": {"template": yaml.safe_dump(BAD)}}}
    )
    # Heat 27's RemoteStack.validate (heat/engine/resources/openstack/heat/remote_stack.py):
    # the endpoint's template validation, its heatclient error quoted
    assert _create_fails(heat, tmpl) == (
        'Failed validating stack template using Heat endpoint at region "RegionOne" due to '
        '"ERROR: Property error: resources.inner.properties: Unknown Property foo"'
    )


def test_recursion_is_refused_at_validation(heat):
    files = {"file:///self.yaml": yaml.safe_dump(_template({"me": {"type": "file:///self.yaml"}}))}
    message = _create_fails(heat, _template({"me": {"type": "file:///self.yaml"}}), files)
    assert message == (
        "RequestLimitExceeded: "
        + ".".join(["resources.me<file:///self.yaml>"] * 6)
        + ": Request limit exceeded: Recursion depth exceeds 5."
    )


def test_validate_template_does_not_descend(heat):
    tmpl = _template({"nest": {"type": "file:///bad.yaml"}})
    result = heat.client.validate_template(heat.ctx, tmpl, {}, files=FILES)
    assert "Error" not in result


@pytest.fixture
def small_heat(tmp_path):
    with inprocess.heat(tmp_path, max_resources_per_stack=4) as h:
        yield h


def test_max_resources_counts_the_whole_tree(small_heat):
    heat = small_heat
    three = _template({n: {"type": "OS::Heat::None"} for n in ("a", "b", "c")})
    files = {"file:///three.yaml": yaml.safe_dump(three)}
    # the child alone fits (3 <= 4): validation passes
    ok = _template({"n1": {"type": "file:///three.yaml"}})
    ident = heat.client.create_stack(heat.ctx, "fits", ok, {}, files, {})
    assert _wait(heat, ident, DONE)["stack_status"] == "COMPLETE"
    # n1: its 2 + the root's 2 rows = 4 fits; n2: 2 + 4 rows under the root exceeds 4
    files["file:///two.yaml"] = yaml.safe_dump(
        _template({n: {"type": "OS::Heat::None"} for n in "ab"})
    )
    two = _template(
        {
            "n1": {"type": "file:///two.yaml"},
            "n2": {"type": "file:///two.yaml", "depends_on": "n1"},
        }
    )
    ident = heat.client.create_stack(heat.ctx, "over", two, {}, files, {})
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status"] == "FAILED"
    assert stack["stack_status_reason"] == (
        "Resource CREATE failed: RequestLimitExceeded: resources.n2: Request limit exceeded: "
        "Maximum resources per stack exceeded."
    )
    # a child template alone over the limit is refused at validation (400)
    five = _template({n: {"type": "OS::Heat::None"} for n in "abcde"})
    files["file:///five.yaml"] = yaml.safe_dump(five)
    message = _create_fails(heat, _template({"n": {"type": "file:///five.yaml"}}), files)
    assert message.endswith("Request limit exceeded: Maximum resources per stack exceeded.")


def _rsrc_events(heat, ident, name):
    return [
        "%s_%s" % (e["resource_action"], e["resource_status"])
        for e in heat.client.list_events(heat.ctx, ident, sort_dir="asc")
        if e["resource_name"] == name
    ]


def test_only_the_provider_template_changes(heat):
    v1 = _template(
        {"x": {"type": "OS::Heat::Value", "properties": {"value": "one"}}},
        outputs={"out": {"value": {"get_attr": ["x", "value"]}}},
    )
    v2 = _template(
        {"x": {"type": "OS::Heat::Value", "properties": {"value": "two"}}},
        outputs={"out": {"value": {"get_attr": ["x", "value"]}}},
    )
    tmpl = _template(
        {"nest": {"type": "file:///p.yaml"}},
        outputs={"out": {"value": {"get_attr": ["nest", "out"]}}},
    )
    ident = heat.client.create_stack(
        heat.ctx, "files", tmpl, {}, {"file:///p.yaml": yaml.safe_dump(v1)}, {}
    )
    assert _wait(heat, ident, DONE)["stack_status"] == "COMPLETE"
    # the same files: the nested stack is left alone
    heat.client.update_stack(heat.ctx, ident, tmpl, {}, {"file:///p.yaml": yaml.safe_dump(v1)}, {})
    inprocess.wait_for(heat, ident, "UPDATE_COMPLETE")
    assert _rsrc_events(heat, ident, "nest") == ["CREATE_IN_PROGRESS", "CREATE_COMPLETE"]
    # only the file's content changes: the nested stack is updated to it
    heat.client.update_stack(heat.ctx, ident, tmpl, {}, {"file:///p.yaml": yaml.safe_dump(v2)}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _rsrc_events(heat, ident, "nest")[-2:] == ["UPDATE_IN_PROGRESS", "UPDATE_COMPLETE"]
    outputs = {o["output_key"]: o["output_value"] for o in stack["outputs"]}
    assert outputs == {"out": "two"}


def test_validate_template_checks_provider_properties_and_update_policy(heat):
    tmpl = _template({"nest": {"type": "file:///leaf.yaml", "properties": {"bogus": 1}}})
    result = heat.client.validate_template(heat.ctx, tmpl, {}, files=FILES)
    assert result == {"Error": "Property error: resources.nest.properties: Unknown Property bogus"}
    # a required parameter is a value check: not made by validate
    tmpl = _template({"nest": {"type": "file:///leaf.yaml"}})
    assert "Error" not in heat.client.validate_template(heat.ctx, tmpl, {}, files=FILES)
    tmpl = _template(
        {
            "grp": {
                "type": "OS::Heat::ResourceGroup",
                "update_policy": {"rolling_update": {"foo": 1}},
                "properties": {"resource_def": {"type": "OS::Heat::None"}},
            }
        }
    )
    assert heat.client.validate_template(heat.ctx, tmpl, {}, files=FILES) == {
        "Error": "Property error: resources.grp.update_policy.rolling_update: Unknown Property foo"
    }


def test_unknown_group_member_type_is_reported_without_a_path(heat):
    tmpl = _template(
        {
            "grp": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"resource_def": {"type": "My::Missing"}},
            }
        }
    )
    assert _create_fails(heat, tmpl) == "The Resource Type (My::Missing) could not be found."


def test_a_provider_template_missing_from_files(heat):
    tmpl = _template({"nest": {"type": "file:///missing.yaml"}})
    assert _create_fails(heat, tmpl) == (
        'Could not fetch remote template "file:///missing.yaml": Invalid URL scheme file'
    )


def test_validate_show_nested_gives_the_child_parameter_groups(heat):
    child = dict(LEAF, parameter_groups=[{"label": "g", "parameters": ["req"]}])
    files = {"file:///leaf.yaml": yaml.safe_dump(child)}
    tmpl = _template({"nest": {"type": "file:///leaf.yaml", "properties": {"req": "r"}}})
    result = heat.client.validate_template(heat.ctx, tmpl, {}, files=files, show_nested=True)
    nested = result["NestedParameters"]["nest"]
    assert nested["ParameterGroups"] == [{"label": "g", "parameters": ["req"]}]
    assert nested["Parameters"]["req"]["Value"] == "r"
