"""Environments (resource_registry) and nested stacks through the in-process engine."""

import contextlib
import json
import time

import pytest
import yaml

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status
DONE = {"CREATE_COMPLETE", "CREATE_FAILED"}


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _template(resources, outputs=None, **extra):
    tmpl = {"heat_template_version": "2018-08-31", "resources": resources}
    if outputs:
        tmpl["outputs"] = outputs
    tmpl.update(extra)
    return tmpl


def _resources(heat, ident, **kwargs):
    return {
        r["resource_name"]: r for r in heat.client.list_stack_resources(heat.ctx, ident, **kwargs)
    }


def _outputs(stack):
    return {o["output_key"]: o.get("output_value") for o in stack["outputs"]}


def test_environment_maps_types_and_per_resource_overrides(heat):
    tmpl = _template(
        {
            "opt": {"type": "Magnum::Optional::Thing", "properties": {"anything": 1}},
            "v": {"type": "My::Value", "properties": {"value": "x"}},
            "w": {"type": "My::Value", "properties": {"value": "y"}},
        },
        outputs={"v": {"value": {"get_attr": ["v", "value"]}}},
    )
    files = {
        "file:///env1.yaml": yaml.safe_dump(
            {"resource_registry": {"My::Value": "OS::Heat::TestResource"}}
        ),
        "file:///env2.yaml": yaml.safe_dump(
            {
                "resource_registry": {
                    "My::Value": "OS::Heat::Value",
                    "resources": {"w": {"My::Value": "OS::Heat::None"}},
                }
            }
        ),
    }
    params = {"resource_registry": {"Magnum::Optional::*": "OS::Heat::None"}}
    ident = heat.client.create_stack(
        heat.ctx,
        "env1",
        tmpl,
        params,
        files,
        {},
        environment_files=["file:///env1.yaml", "file:///env2.yaml"],
    )
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _outputs(stack) == {"v": "x"}
    resources = _resources(heat, ident)
    # the resource list shows the template's type names
    assert resources["opt"]["resource_type"] == "Magnum::Optional::Thing"
    assert resources["w"]["resource_type"] == "My::Value"
    shown = heat.client.describe_stack_resource(heat.ctx, ident, "v")
    assert shown["attributes"]["value"] == "x"
    registry = heat.client.get_environment(heat.ctx, ident)["resource_registry"]
    assert registry["resources"] == {"w": {"My::Value": "OS::Heat::None"}}


def test_unknown_type_fails_validation(heat):
    from heat_lite.common import exception

    with pytest.raises(exception.StackValidationFailed, match="Magnum::Optional::Thing"):
        heat.client.create_stack(
            heat.ctx, "bad", _template({"x": {"type": "Magnum::Optional::Thing"}}), {}, {}, {}
        )


LEAF = {
    "heat_template_version": "2018-08-31",
    "parameters": {"value": {"type": "string"}, "extra": {"type": "string", "default": "e"}},
    "resources": {
        "leaf": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "value"}}},
        "opt": {"type": "Magnum::Optional::Thing"},
    },
    "outputs": {
        "out": {"value": {"get_attr": ["leaf", "output"]}},
        "extra": {"value": {"get_param": "extra"}},
        "OS::stack_id": {"value": {"get_resource": "leaf"}},
    },
}


def test_provider_template_and_os_heat_stack(heat):
    inline = {
        "heat_template_version": "2018-08-31",
        "parameters": {"p": {"type": "string"}},
        "resources": {
            "r": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "p"}}}
        },
        "outputs": {
            "o": {
                "value": {
                    "str_replace": {
                        "template": "<v>",
                        "params": {"v": {"get_attr": ["r", "value"]}},
                    }
                }
            }
        },
    }
    tmpl = _template(
        {
            "prov": {"type": "My::Leaf", "properties": {"value": "hello"}},
            "bypath": {
                "type": "file:///t/leaf.yaml",
                "properties": {"value": {"get_attr": ["prov", "out"]}},
            },
            "st": {
                "type": "OS::Heat::Stack",
                "properties": {"template": yaml.safe_dump(inline), "parameters": {"p": "q"}},
            },
        },
        outputs={
            "prov_out": {"value": {"get_attr": ["prov", "out"]}},
            "bypath_out": {"value": {"get_attr": ["bypath", "out"]}},
            "prov_ref": {"value": {"get_resource": "prov"}},
            "st_out": {"value": {"get_attr": ["st", "o"]}},
            "st_ref": {"value": {"get_resource": "st"}},
        },
    )
    files = {"file:///t/leaf.yaml": yaml.safe_dump(LEAF)}
    env = {
        "resource_registry": {
            "My::Leaf": "file:///t/leaf.yaml",
            "Magnum::Optional::Thing": "OS::Heat::None",
        }
    }
    ident = heat.client.create_stack(heat.ctx, "top", tmpl, env, files, {})
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    outs = _outputs(stack)
    assert outs["prov_out"] == "hello"
    assert outs["bypath_out"] == "hello"
    assert outs["st_out"] == "<q>"
    resources = _resources(heat, ident)
    # a provider template's reference is its OS::stack_id output, OS::Heat::Stack's the id
    assert (
        outs["prov_ref"]
        == _resources(heat, _child_ident(heat, resources["prov"]))["leaf"]["physical_resource_id"]
    )
    st_row = db_api.stack_get(resources["st"]["physical_resource_id"])
    assert outs["st_ref"] == st_row.id
    assert st_row.name.startswith("top-st-")
    assert st_row.owner_id == ident["stack_id"] and st_row.nested_depth == 1
    assert st_row.parent_resource_name == "st"

    nested = heat.client.list_stack_resources(heat.ctx, ident, nested_depth=2)
    assert {r["resource_name"] for r in nested} >= {"prov", "bypath", "st", "leaf", "opt", "r"}

    heat.client.delete_stack(heat.ctx, ident)
    inprocess.wait_for(heat, ident, "DELETE_COMPLETE")
    assert heat.client.list_stacks(heat.ctx) == []
    for name in ("prov", "bypath", "st"):
        row = db_api.stack_get(resources[name]["physical_resource_id"])
        assert row is None


def _child_ident(heat, rsrc):
    row = db_api.stack_get(rsrc["physical_resource_id"])
    return {"tenant": row.tenant, "stack_name": row.name, "stack_id": row.id, "path": ""}


def test_recursion_depth_limit(heat):
    files = {"file:///self.yaml": yaml.safe_dump(_template({"me": {"type": "file:///self.yaml"}}))}
    # Heat validates the whole tree before storing anything: the create is refused
    with pytest.raises(exception.StackValidationFailed, match="Recursion depth exceeds 5."):
        heat.client.create_stack(
            heat.ctx, "deep", _template({"me": {"type": "file:///self.yaml"}}), {}, files, {}
        )


# -- a Magnum-like three-level template ----------------------------------------------------

SWITCHER = {
    "heat_template_version": "2014-10-16",
    "parameters": {"private_ip": {"type": "string"}, "public_ip": {"type": "string"}},
    "outputs": {
        "private_ip": {"value": {"get_param": "private_ip"}},
        "public_ip": {"value": {"get_param": "public_ip"}},
    },
}

MEMBER = {
    "heat_template_version": "queens",
    "parameters": {
        "name": {"type": "string"},
        "prefix": {"type": "string", "default": "10.0.0."},
        "index": {"type": "string"},
    },
    "resources": {
        "server": {
            "type": "OS::Heat::TestResource",
            "properties": {
                "value": {"list_join": ["", [{"get_param": "prefix"}, {"get_param": "index"}]]}
            },
        },
        "floating": {"type": "Magnum::Optional::KubeMaster::Neutron::FloatingIP"},
        "api_address_switch": {
            "type": "Magnum::ApiGatewaySwitcher",
            "properties": {
                "private_ip": {"get_attr": ["server", "output"]},
                "public_ip": {"get_param": "name"},
            },
        },
    },
    "outputs": {
        "node_ip": {"value": {"get_attr": ["api_address_switch", "private_ip"]}},
        "node_name": {"value": {"get_attr": ["api_address_switch", "public_ip"]}},
        "OS::stack_id": {"value": {"get_resource": "server"}},
    },
}

CLUSTER = {
    "heat_template_version": "queens",
    "parameters": {
        "count": {"type": "number", "default": 2},
        "to_remove": {"type": "comma_delimited_list", "default": []},
    },
    "resources": {
        "nodes": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {
                "count": {"get_param": "count"},
                "removal_policies": [{"resource_list": {"get_param": "to_remove"}}],
                "resource_def": {
                    "type": "file:///tmpl/member.yaml",
                    "properties": {
                        "name": {"list_join": ["-", [{"get_param": "OS::stack_name"}, "%index%"]]},
                        "index": "%index%",
                    },
                },
            },
        },
    },
    "outputs": {
        "ips": {"value": {"get_attr": ["nodes", "node_ip"]}},
        "names": {"value": {"get_attr": ["nodes", "node_name"]}},
        "first_ip": {"value": {"get_attr": ["nodes", "resource.0.node_ip"]}},
        "first_ref": {"value": {"get_attr": ["nodes", "resource.0"]}},
        "refs_map": {"value": {"get_attr": ["nodes", "refs_map"]}},
    },
}

CLUSTER_FILES = {
    "file:///tmpl/member.yaml": yaml.safe_dump(MEMBER),
    "file:///tmpl/switcher.yaml": yaml.safe_dump(SWITCHER),
    "file:///tmpl/env.yaml": yaml.safe_dump(
        {
            "resource_registry": {
                "Magnum::Optional::KubeMaster::Neutron::FloatingIP": "OS::Heat::None",
                "Magnum::ApiGatewaySwitcher": "file:///tmpl/switcher.yaml",
            }
        }
    ),
}


def test_magnum_like_group_of_provider_templates(heat):
    ident = heat.client.create_stack(
        heat.ctx, "k8s", CLUSTER, {}, CLUSTER_FILES, {}, environment_files=["file:///tmpl/env.yaml"]
    )
    stack = _wait(heat, ident, DONE, timeout=60)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    outs = _outputs(stack)
    assert outs["ips"] == ["10.0.0.0", "10.0.0.1"]
    assert outs["names"] == ["k8s-0", "k8s-1"]
    assert outs["first_ip"] == "10.0.0.0"
    assert sorted(outs["refs_map"]) == ["0", "1"]
    # a member's reference is its OS::stack_id output (the "server")
    assert outs["first_ref"] == outs["refs_map"]["0"]

    nested = heat.client.list_stack_resources(heat.ctx, ident, nested_depth=3)
    by_parent = {}
    for r in nested:
        by_parent.setdefault(r.get("parent_resource"), []).append(r["resource_name"])
    assert by_parent[None] == ["nodes"]
    assert sorted(by_parent["nodes"]) == ["0", "1"]
    assert sorted(by_parent["0"]) == ["api_address_switch", "floating", "server"]
    assert outs["first_ref"] in {r["physical_resource_id"] for r in nested}
    group = _resources(heat, ident)["nodes"]
    grp_row = db_api.stack_get(group["physical_resource_id"])
    assert grp_row.name.startswith("k8s-nodes-") and grp_row.nested_depth == 1

    # scale up
    heat.client.update_stack(
        heat.ctx,
        ident,
        CLUSTER,
        {"parameters": {"count": 3}},
        CLUSTER_FILES,
        {},
        environment_files=["file:///tmpl/env.yaml"],
    )
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"}, timeout=60)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _outputs(stack)["ips"] == ["10.0.0.0", "10.0.0.1", "10.0.0.2"]

    # scale down removing member "1" by name
    heat.client.update_stack(
        heat.ctx,
        ident,
        CLUSTER,
        {"parameters": {"count": 2, "to_remove": "1"}},
        CLUSTER_FILES,
        {},
        environment_files=["file:///tmpl/env.yaml"],
    )
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"}, timeout=60)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    outs = _outputs(stack)
    assert outs["ips"] == ["10.0.0.0", "10.0.0.2"]
    assert sorted(outs["refs_map"]) == ["0", "2"]

    child_ids = {
        r["physical_resource_id"]
        for r in heat.client.list_stack_resources(heat.ctx, ident, nested_depth=3)
        if r["resource_name"] in ("nodes", "0", "2", "api_address_switch")
    }
    heat.client.delete_stack(heat.ctx, ident)
    inprocess.wait_for(heat, ident, "DELETE_COMPLETE", timeout=60)
    for stack_id in child_ids:
        if stack_id and db_api.stack_get(stack_id) is not None:
            raise AssertionError("nested stack %s survived the delete" % stack_id)


def test_nested_update_and_failure(heat):
    inline = {
        "heat_template_version": "2018-08-31",
        "parameters": {"p": {"type": "string"}},
        "resources": {
            "r": {"type": "OS::Heat::Value", "properties": {"value": {"get_param": "p"}}}
        },
        "outputs": {"o": {"value": {"get_attr": ["r", "value"]}}},
    }

    def tmpl(leaf_value, st_param):
        return _template(
            {
                "prov": {"type": "file:///t/leaf.yaml", "properties": {"value": leaf_value}},
                "st": {
                    "type": "OS::Heat::Stack",
                    "properties": {
                        "template": yaml.safe_dump(inline),
                        "parameters": {"p": st_param},
                    },
                },
            },
            outputs={
                "prov": {"value": {"get_attr": ["prov", "out"]}},
                "st": {"value": {"get_attr": ["st", "o"]}},
            },
        )

    files = {"file:///t/leaf.yaml": yaml.safe_dump(LEAF)}
    env = {"resource_registry": {"Magnum::Optional::Thing": "OS::Heat::None"}}
    ident = heat.client.create_stack(heat.ctx, "upd", tmpl("a", "b"), env, files, {})
    stack = inprocess.wait_for(heat, ident, "CREATE_COMPLETE")
    assert _outputs(stack) == {"prov": "a", "st": "b"}
    before = {
        r["resource_name"]: r["physical_resource_id"] for r in _resources(heat, ident).values()
    }

    heat.client.update_stack(heat.ctx, ident, tmpl("c", "d"), env, files, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _outputs(stack) == {"prov": "c", "st": "d"}
    after = {
        r["resource_name"]: r["physical_resource_id"] for r in _resources(heat, ident).values()
    }
    assert after == before  # updated in place: the same child stacks
    assert db_api.stack_get(after["st"]).action == "UPDATE"

    # a failing child fails the parent resource with the child's reason
    failing = _template(
        {"bad": {"type": "OS::Heat::TestResource", "properties": {"fail": True}}},
    )
    ident2 = heat.client.create_stack(
        heat.ctx,
        "failing",
        _template(
            {"st": {"type": "OS::Heat::Stack", "properties": {"template": yaml.safe_dump(failing)}}}
        ),
        {},
        {},
        {"disable_rollback": True},
    )
    stack = _wait(heat, ident2, DONE)
    assert stack["stack_status"] == "FAILED"
    # as Heat 27 reports it (checked against the reference): the child's path is chained
    assert stack["stack_status_reason"] == (
        "Resource CREATE failed: ValueError: resources.st.resources.bad: Test Resource failed bad"
    )


def _child_state(heat, rsrc):
    row = db_api.stack_get(rsrc["physical_resource_id"], show_deleted=True)
    return "%s_%s" % (row.action, row.status)


def test_nested_stacks_follow_suspend_resume_check_and_abandon(heat):
    """A nested stack is suspended, resumed, checked and abandoned with its parent, as
    Heat's StackResource does (the child's own traversal, its own events)."""
    leaf = _template({"t": {"type": "OS::Heat::TestResource", "properties": {"value": "v"}}})
    tmpl = _template(
        {
            "st": {"type": "OS::Heat::Stack", "properties": {"template": yaml.safe_dump(leaf)}},
            "grp": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": 2, "resource_def": {"type": "OS::Heat::TestResource"}},
            },
        }
    )
    ident = heat.client.create_stack(heat.ctx, "fam", tmpl, {}, {}, {})
    assert _wait(heat, ident, DONE)["stack_status"] == "COMPLETE"
    top = _resources(heat, ident)

    for action in ("SUSPEND", "RESUME", "CHECK"):
        getattr(heat.client, "stack_" + action.lower())(heat.ctx, ident)
        stack = _wait(heat, ident, {action + "_COMPLETE", action + "_FAILED"})
        assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
        for name in ("st", "grp"):
            assert _child_state(heat, top[name]) == action + "_COMPLETE"
        nested = heat.client.list_stack_resources(heat.ctx, ident, nested_depth=2)
        leaves = [r for r in nested if r["resource_name"] in ("t", "0", "1")]
        assert len(leaves) == 3
        assert {r["resource_action"] for r in leaves} == {action}, leaves

    with _abandon_enabled():
        data = heat.client.abandon_stack(heat.ctx, ident)
        stack = _wait(heat, ident, {"DELETE_COMPLETE", "DELETE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    # the nested resources are abandoned as whole child stacks (Heat's prepare_abandon)
    st = data["resources"]["st"]
    assert st["id"] == top["st"]["physical_resource_id"]
    assert st["resources"]["t"]["resource_data"] == {"value": "v"}
    assert set(data["resources"]["grp"]["resources"]) == {"0", "1"}
    for name in ("st", "grp"):
        assert db_api.stack_get(top[name]["physical_resource_id"]) is None


@contextlib.contextmanager
def _abandon_enabled():
    CONF.set_override("enable_stack_abandon", True)
    try:
        yield
    finally:
        CONF.clear_override("enable_stack_abandon")


def test_a_nested_output_error_reaches_the_parent_output(heat):
    """As Heat 27 (reference run): the child's output shows output_error, and the parent's
    output reading it shows 'Error in <resource> output <name>: <message>'."""
    child = {
        "heat_template_version": "2018-08-31",
        "outputs": {"out": {"value": {"get_param": "foo"}}},
    }
    tmpl = {
        "heat_template_version": "2018-08-31",
        "resources": {"c": {"type": "child.yaml"}},
        "outputs": {"o": {"value": {"get_attr": ["c", "out"]}}},
    }
    ident = heat.client.create_stack(
        heat.ctx, "nout", tmpl, {}, {"child.yaml": json.dumps(child)}, {}
    )
    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status_reason"] == "Stack CREATE completed successfully"
    [output] = stack["outputs"]
    assert output == {
        "output_key": "o",
        "description": "No description given",
        "output_error": "Error in c output out: The Parameter (foo) was not provided.",
        "output_value": None,
    }


def test_provider_template_using_the_type_it_stands_in_for(heat):
    """An environment maps OS::Heat::RandomString to a template that itself uses
    OS::Heat::RandomString: inside it the type is the built-in one (Heat 27 creates it:
    reference run), not the template again until the depth limit."""
    nested = {
        "heat_template_version": "2018-08-31",
        "parameters": {"length": {"type": "number", "default": 8}},
        "resources": {
            "secret2": {
                "type": "OS::Heat::RandomString",
                "properties": {"length": {"get_param": "length"}},
            }
        },
        "outputs": {"value": {"value": {"get_attr": ["secret2", "value"]}}},
    }
    tmpl = {
        "heat_template_version": "2018-08-31",
        "resources": {"secret1": {"type": "OS::Heat::RandomString", "properties": {"length": 12}}},
        "outputs": {"v": {"value": {"get_attr": ["secret1", "value"]}}},
    }
    env = {"resource_registry": {"OS::Heat::RandomString": "rs_nested.yaml"}}
    ident = heat.client.create_stack(
        heat.ctx, "rsx", tmpl, env, {"rs_nested.yaml": json.dumps(nested)}, {}
    )
    stack = _wait(heat, ident, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack["stack_status_reason"] == "Stack CREATE completed successfully"
    [output] = stack["outputs"]
    assert len(output["output_value"]) == 12


_INNER = {
    "heat_template_version": "2018-08-31",
    "resources": {"v": {"type": "OS::Heat::Value", "properties": {"value": "x"}}},
}


def _orphan(heat, parent, name):
    """A child stack made for resource ``name`` of ``parent`` that no resource records,
    as a worker killed between the child's create and resource_id_set leaves one."""
    ident = heat.client.create_stack(
        heat.ctx,
        "%s-%s-orphan" % (parent["stack_name"], name),
        _INNER,
        {},
        {},
        {"disable_rollback": True},
        owner_id=parent["stack_id"],
        nested_depth=1,
        parent_resource_name=name,
    )
    assert _wait(heat, ident, DONE)["stack_status"] == "COMPLETE"
    return ident["stack_id"]


def _live(stack_id):
    row = db_api.stack_get(stack_id)
    return row is not None and row.deleted_at is None


def test_a_child_its_resource_did_not_record_is_deleted_with_it(heat):
    tmpl = _template(
        {"st": {"type": "OS::Heat::Stack", "properties": {"template": yaml.safe_dump(_INNER)}}}
    )
    ident = heat.client.create_stack(heat.ctx, "orph", tmpl, {}, {}, {})
    assert _wait(heat, ident, DONE)["stack_status"] == "COMPLETE"
    recorded = _resources(heat, ident)["st"]["physical_resource_id"]
    orphan = _orphan(heat, ident, "st")
    other = _orphan(heat, ident, "another-name")  # not st's: left alone by st's delete
    heat.client.delete_stack(heat.ctx, ident)
    _wait(heat, ident, {"DELETE_COMPLETE", "DELETE_FAILED"})
    deadline = time.monotonic() + 30
    while _live(orphan) or _live(recorded):
        assert time.monotonic() < deadline, (_live(orphan), _live(recorded))
        time.sleep(0.05)
    assert _live(other)


def test_a_create_taken_over_adopts_the_child_an_earlier_try_made(heat):
    """The takeover of a nested stack resource's create (its worker was killed after it
    made the child): the child is taken, not made a second time."""
    tmpl = _template(
        {
            "first": {"type": "OS::Heat::Value", "properties": {"value": "1"}},
            "st": {
                "type": "OS::Heat::Stack",
                "depends_on": ["first"],
                "properties": {"template": yaml.safe_dump(_INNER)},
            },
        }
    )
    # the parent made with st's child already there (the earlier try's), then updated
    # to st: the create of st finds the unrecorded child
    base = _template({"first": {"type": "OS::Heat::Value", "properties": {"value": "1"}}})
    ident = heat.client.create_stack(heat.ctx, "adopt", base, {}, {}, {})
    assert _wait(heat, ident, DONE)["stack_status"] == "COMPLETE"
    orphan = _orphan(heat, ident, "st")
    heat.client.update_stack(heat.ctx, ident, tmpl, {}, {}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _resources(heat, ident)["st"]["physical_resource_id"] == orphan
    children = db_api.stack_get_all(filters={"owner_id": ident["stack_id"]}, show_nested=True)
    assert [c.id for c in children] == [orphan]
