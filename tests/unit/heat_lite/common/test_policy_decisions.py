"""policy.enforce keeps the decisions that allowed (oslo.policy's check walk was a tenth
of heat-lite-api's CPU under polling): a kept decision answers only the same action,
target and caller's policy values, under the same rules; a policy file changed on disk
is applied at once; denials always go through oslo.policy and raise."""

import os

import pytest

from heat_lite.common import context, exception, policy
from heat_lite.conf import CONF


@pytest.fixture
def enforcer(tmp_path, monkeypatch):
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text("{}\n")
    CONF([], project="heat", default_config_files=[])
    policy.reset()
    policy.get_enforcer()  # registers the [oslo_policy] options
    CONF.set_override("policy_file", str(policy_file), group="oslo_policy")
    policy.reset()
    walks = []
    real = policy._Enforcer.enforce

    def counted(self, rule, *args, **kwargs):
        walks.append(rule)
        return real(self, rule, *args, **kwargs)

    monkeypatch.setattr(policy._Enforcer, "enforce", counted)
    yield policy_file, walks
    policy.reset()
    CONF.clear_override("policy_file", group="oslo_policy")


def _ctx(project="p1", roles=("member", "reader"), user="u1"):
    return context.RequestContext(user_id=user, project_id=project, roles=list(roles))


def test_an_allowed_decision_is_kept_for_the_same_caller_and_target(enforcer):
    _, walks = enforcer
    target = {"project_id": "p1"}
    assert policy.enforce(_ctx(), "stacks:create", target)
    assert policy.enforce(_ctx(), "stacks:create", dict(target))
    assert walks == ["stacks:create"]
    # another action, target or caller is decided by oslo.policy
    assert policy.enforce(_ctx(), "stacks:delete", target)
    assert policy.enforce(_ctx(project="p2"), "stacks:create", {"project_id": "p2"})
    assert policy.enforce(_ctx(user="u2"), "stacks:create", target)
    assert len(walks) == 4


def test_a_kept_decision_does_not_answer_another_caller(enforcer):
    assert policy.enforce(_ctx(), "stacks:create", {"project_id": "p1"})
    with pytest.raises(exception.Forbidden, match="not authorized to use stacks:create"):
        policy.enforce(_ctx(roles=("reader",)), "stacks:create", {"project_id": "p1"})
    with pytest.raises(exception.Forbidden):
        policy.enforce(_ctx(project="p2"), "stacks:create", {"project_id": "p1"})
    assert not policy.enforce(
        _ctx(roles=("reader",)), "stacks:create", {"project_id": "p1"}, do_raise=False
    )


def test_a_changed_policy_file_applies_at_once(enforcer):
    policy_file, walks = enforcer
    assert policy.enforce(_ctx(), "stacks:create", {"project_id": "p1"})
    policy_file.write_text('"stacks:create": "!"\n')
    later = os.stat(policy_file).st_mtime + 10  # a later mtime, however fast the test runs
    os.utime(policy_file, (later, later))
    with pytest.raises(exception.Forbidden):
        policy.enforce(_ctx(), "stacks:create", {"project_id": "p1"})
    assert walks == ["stacks:create", "stacks:create"]
