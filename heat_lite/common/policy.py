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


class _Enforcer(policy.Enforcer):
    """oslo.policy's Enforcer, keeping the decisions that allowed (``allowed()``), by
    everything a decision reads: the action, the target and the caller's policy values.
    oslo.policy walks the rule's check tree for each call (with an inspect.getfullargspec
    per check): a tenth of heat-lite-api's CPU while clients poll (bench/api_load.py).
    Denials are not kept: they raise."""

    ALLOWED_MAX = 4096
    _allowed, _allowed_for = None, None

    def set_rules(self, *args, **kwargs):
        self._allowed = None  # another rule set
        super().set_rules(*args, **kwargs)

    def allowed(self):
        """The kept decisions, emptied first when the rules were replaced or added to in
        place since they were made (load_rules does both without set_rules)."""
        # (a new rules object is made while the one it replaces lives: never its id)
        made_for = (id(self.rules), len(self.rules))
        if self._allowed is None or self._allowed_for != made_for:
            self._allowed, self._allowed_for = {}, made_for
        elif len(self._allowed) >= self.ALLOWED_MAX:
            self._allowed.clear()
        return self._allowed


def get_enforcer(conf=None):
    """The process-wide Enforcer, created (and its defaults registered) on first use."""
    global _ENFORCER
    if _ENFORCER is None:
        _ENFORCER = _Enforcer(conf or CONF)
        _ENFORCER.register_defaults(policies.list_rules())
    return _ENFORCER


def reset():
    """Forget the Enforcer (tests; after changing policy options)."""
    global _ENFORCER
    if _ENFORCER is not None:
        _ENFORCER.clear()
    _ENFORCER = None


def _frozen(value):
    """A hashable copy of a JSON-like value (TypeError for anything else)."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (list, tuple)):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return ("{}", tuple(sorted((k, _frozen(v)) for k, v in value.items())))
    raise TypeError("not JSON-like: %r" % type(value))


def _decision_key(action, target, context):
    """What a decision reads, hashable; None when a value is not JSON-like."""
    try:
        target_key = _frozen(dict(target))
        creds_key = _frozen(dict(context.to_policy_values()))
    except TypeError:
        return None
    return action, target_key, creds_key


def enforce(context, action, target=None, do_raise=True):
    """Check ``action`` for the caller in ``context`` against ``target``.

    :param context: a heat_lite RequestContext (its roles, project, user are checked).
    :param action: the rule name, ``<scope>:<name>``.
    :param target: the object acted on, usually ``{'project_id': <project>}``.
    :raises exception.Forbidden: when denied and ``do_raise`` (else returns False).
    """
    enforcer = get_enforcer()
    target = target or {}
    enforcer.load_rules()  # a changed policy file is read again, as enforce does
    allowed_before = enforcer.allowed()
    key = _decision_key(action, target, context)
    if key is not None and key in allowed_before:
        return True
    allowed = enforcer.enforce(
        action, target, context, do_raise=do_raise, exc=exception.Forbidden, action=action
    )
    if allowed and key is not None:
        allowed_before[key] = True
    return allowed


def check_is_admin(context):
    """Whether ``context`` passes ``context_is_admin``."""
    return enforce(context, "context_is_admin", {}, do_raise=False)
