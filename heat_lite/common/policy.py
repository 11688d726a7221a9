"""Policy enforcement: oslo.policy with heat-lite's defaults in code (heat_lite/policies).

    policy.enforce(ctx, 'stacks:create', {'project_id': ctx.project_id})
    # raises exception.Forbidden: "You are not authorized to use stacks:create."

Rules may be overridden in ``[oslo_policy] policy_file`` (policy.yaml), as in Heat.
"""

from oslo_policy import policy

from heat_lite import policies
from heat_lite.common import exception
from heat_lite.conf import CONF

_ENFORCER = None


def get_enforcer(conf=None):
    """The process-wide Enforcer, created (and its defaults registered) on first use."""
    global _ENFORCER
    if _ENFORCER is None:
        _ENFORCER = policy.Enforcer(conf or CONF)
        _ENFORCER.register_defaults(policies.list_rules())
    return _ENFORCER


def reset():
    """Forget the Enforcer (tests; after changing policy options)."""
    global _ENFORCER
    if _ENFORCER is not None:
        _ENFORCER.clear()
    _ENFORCER = None


def enforce(context, action, target=None, do_raise=True):
    """Check ``action`` for the caller in ``context`` against ``target``.

    :param context: a heat_lite RequestContext (its roles, project, user are checked).
    :param action: the rule name, ``<scope>:<name>``.
    :param target: the object acted on, usually ``{'project_id': <project>}``.
    :raises exception.Forbidden: when denied and ``do_raise`` (else returns False).
    """
    return get_enforcer().enforce(
        action,
        target or {},
        context,
        do_raise=do_raise,
        exc=exception.Forbidden,
        action=action,
    )


def check_is_admin(context):
    """Whether ``context`` passes ``context_is_admin``."""
    return enforce(context, "context_is_admin", {}, do_raise=False)
