"""hooks: which resources a registry stops, and Heat's messages for bad hooks."""

import pytest

from heat_lite.common import exception
from heat_lite.engine import hooks


def _env(resources):
    return {"resource_registry": {"resources": resources}}


def test_matches_exact_wildcard_and_lists():
    env = _env(
        {
            "server": {"hooks": "pre-create"},
            "port_*": {"hooks": ["pre-update", "pre-delete"]},
            "*_vol": {"hooks": "pre-delete"},
            "other": {"OS::Nova::Server": "x.yaml"},
        }
    )
    assert hooks.matches(env, "server", hooks.PRE_CREATE)
    assert not hooks.matches(env, "server", hooks.PRE_UPDATE)
    assert hooks.matches(env, "port_1", hooks.PRE_UPDATE)
    assert hooks.matches(env, "port_1", hooks.PRE_DELETE)
    assert hooks.matches(env, "data_vol", hooks.PRE_DELETE)
    assert not hooks.matches(env, "other", hooks.PRE_CREATE)
    assert not hooks.matches({}, "server", hooks.PRE_CREATE)


def test_child_resources_merges_matching_entries_exact_last():
    env = _env(
        {
            "grp*": {"inner": {"hooks": "pre-create"}, "x": {"hooks": "pre-update"}},
            "grp": {"inner": {"hooks": "pre-delete"}},
            "else": {"y": {"hooks": "pre-create"}},
        }
    )
    assert hooks.child_resources(env, "grp") == {
        "inner": {"hooks": "pre-delete"},
        "x": {"hooks": "pre-update"},
    }
    assert hooks.child_resources(env, "grp2") == {
        "inner": {"hooks": "pre-create"},
        "x": {"hooks": "pre-update"},
    }
    assert hooks.child_resources(env, "none") == {}


@pytest.mark.parametrize("value", ["pre-create", ["pre-update", "post-delete"]])
def test_validate_accepts_known_types(value):
    hooks.validate(_env({"r": {"hooks": value}, "n": {"inner": {"hooks": value}}}))


@pytest.mark.parametrize(
    "value, shown", [("pre_create", "pre_create"), (["pre-create", 1], "['pre-create', 1]")]
)
def test_validate_rejects_unknown_types_at_any_depth(value, shown):
    with pytest.raises(exception.InvalidBreakPointHook) as err:
        hooks.validate(_env({"n": {"inner": {"hooks": value}}}))
    assert str(err.value) == (
        'Invalid hook type "%s" for resource breakpoint, acceptable hook types are: '
        "('pre-create', 'pre-update', 'pre-delete', 'post-create', 'post-update', "
        "'post-delete')" % shown
    )


class _Stack:
    name, id = "s", "sid"


class NoneResource:
    def __init__(self, resource_id=None):
        self.name, self.stack, self.resource_id, self.id = "a", _Stack(), resource_id, 1


def test_describe_is_heats_str_of_a_resource():
    assert hooks.describe(NoneResource()) == 'NoneResource "a" Stack "s" [sid]'
    assert hooks.describe(NoneResource("p1")) == 'NoneResource "a" [p1] Stack "s" [sid]'


def test_check_unset_ignores_other_signals_and_rejects_unknown_types():
    rsrc = NoneResource()
    assert hooks.check_unset(rsrc, {"data": 1}) is False
    assert hooks.check_unset(rsrc, None) is False
    with pytest.raises(exception.InvalidBreakPointHook) as err:
        hooks.check_unset(rsrc, {"unset_hook": "pre-build"})
    assert str(err.value) == 'Invalid hook type "pre-build" for NoneResource "a" Stack "s" [sid]'
