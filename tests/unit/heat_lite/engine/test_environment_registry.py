"""The environment's resource_registry: which class a resource's type stands for."""

import pytest

from heat_lite.common import exception
from heat_lite.engine import environment, resources
from heat_lite.engine.resources.openstack.heat import stack_resource


def _env(registry):
    return {"resource_registry": registry}


def test_plain_type_without_environment():
    assert environment.get_class({}, "OS::Heat::None") is resources.get_class("OS::Heat::None")
    with pytest.raises(exception.ResourceTypeNotFound):
        environment.get_class({}, "Magnum::Optional::Foo")


def test_alias_chain_and_optional_mapping():
    env = _env(
        {"My::A": "My::B", "My::B": "OS::Heat::Value", "Magnum::Optional::X": "OS::Heat::None"}
    )
    assert environment.get_class(env, "My::A").__name__ == "Value"
    assert environment.get_class(env, "Magnum::Optional::X").__name__ == "NoneResource"
    assert environment.resolve_type(env, "OS::Heat::Value") == "OS::Heat::Value"


def test_wildcard_mapping_longest_prefix_wins():
    env = _env({"Opt::*": "OS::Heat::None", "Opt::Val::*": "OS::Heat::Val*"})
    assert environment.resolve_type(env, "Opt::Anything") == "OS::Heat::None"
    assert environment.resolve_type(env, "Opt::Val::ue") == "OS::Heat::Value"


def test_per_resource_override_wins_over_global():
    env = _env(
        {
            "My::T": "OS::Heat::Value",
            "resources": {
                "special": {"My::T": "OS::Heat::None"},
                "grp*": {"My::T": "OS::Heat::None"},
            },
        }
    )
    assert environment.resolve_type(env, "My::T", "other") == "OS::Heat::Value"
    assert environment.resolve_type(env, "My::T", "special") == "OS::Heat::None"
    assert environment.resolve_type(env, "My::T", "grp1") == "OS::Heat::None"


def test_loop_terminates():
    env = _env({"A::A": "B::B", "B::B": "A::A"})
    with pytest.raises(exception.ResourceTypeNotFound):
        environment.get_class(env, "A::A")


def test_provider_templates():
    files = {"file:///t/net.yaml": "heat_template_version: 2015-04-30\n"}
    env = _env({"My::Net": "file:///t/net.yaml"})
    cls = environment.get_class(env, "My::Net", "n", files)
    assert issubclass(cls, stack_resource.TemplateResource)
    assert cls.template_name == "file:///t/net.yaml"
    # one class per template, also when the template names itself as the type
    assert environment.get_class({}, "file:///t/net.yaml", "m", files) is cls
    with pytest.raises(exception.StackValidationFailed, match="Could not fetch remote template"):
        environment.get_class(env, "My::Net", "n", {})


def test_merge_environment_files_in_order():
    files = {
        "file:///e1.yaml": (
            "resource_registry:\n  My::T: OS::Heat::Value\n  My::U: OS::Heat::Value\n"
        ),
        "file:///e2.yaml": "resource_registry:\n  My::T: OS::Heat::None\n",
    }
    env = environment.merge({}, files, ["file:///e1.yaml", "file:///e2.yaml"])
    assert environment.resolve_type(env, "My::T") == "OS::Heat::None"
    assert environment.resolve_type(env, "My::U") == "OS::Heat::Value"
