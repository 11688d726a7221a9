"""oslo.policy with Magnum's rule names and defaults in code (magnum_lite.common.policies).

    policy.enforce(context, 'cluster:get', cluster.as_dict(), action='cluster:get')
    policy.check_is_admin(context)   # role:admin

Without a target the caller's own ``{project_id, user_id}`` is the target, as in Magnum.
"""

from oslo_policy import opts as policy_opts
from oslo_policy import policy

from magnum_lite.common import exception, policies
from magnum_lite.conf import CONF

_ENFORCER = None

policy_opts.set_defaults(CONF, "policy.yaml")


def init(conf=None):
    global _ENFORCER
    if _ENFORCER is None:
        _ENFORCER = policy.Enforcer(conf or CONF)
        _ENFORCER.register_defaults(policies.list_rules())
    return _ENFORCER


def reset():
    global _ENFORCER
    if _ENFORCER is not None:
        _ENFORCER.clear()
    _ENFORCER = None


def get_enforcer():
    """For oslopolicy-sample-generator and friends (entry point ``oslo.policy.enforcer``)."""
    CONF([], project="magnum")
    return init()


def _creds(context):
    creds = context.to_policy_values()
    creds["is_admin"] = context.is_admin
    return creds


def enforce(context, rule, target=None, do_raise=True, exc=None, action=None):
    """Check ``rule``; raise PolicyNotAuthorized (403) unless ``do_raise`` is False."""
    if target is None:
        target = {"project_id": context.project_id, "user_id": context.user_id}
    kwargs = {}
    if do_raise:
        kwargs = {"exc": exc or exception.PolicyNotAuthorized, "action": action or rule}
    return init().enforce(rule, target, _creds(context), do_raise=do_raise, **kwargs)


def check_is_admin(context):
    target = {"project_id": context.project_id, "user_id": context.user_id}
    return init().enforce("context_is_admin", target, _creds(context))
