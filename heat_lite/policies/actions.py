"""``actions:<action>`` rules (heat/policies/actions.py defaults)."""

from heat_lite.policies import base
from heat_lite.policies.base import STACK

S = "actions"
OP = "POST " + STACK + "/actions"

rules = [
    base.rule(
        S,
        "action",
        base.PROJECT_MEMBER,
        "Performs non-lifecycle operations on the "
        "stack (Snapshot, Resume, Cancel update, or check stack resources).",
        OP,
    ),
    base.rule(S, "snapshot", base.PROJECT_MEMBER, "Create stack snapshot.", OP),
    base.rule(S, "suspend", base.PROJECT_MEMBER, "Suspend a stack.", OP),
    base.rule(S, "resume", base.PROJECT_MEMBER, "Resume a suspended stack.", OP),
    base.rule(S, "check", base.PROJECT_READER, "Check stack resources.", OP),
    base.rule(S, "cancel_update", base.PROJECT_MEMBER, "Cancel stack operation and roll back.", OP),
    base.rule(
        S,
        "cancel_without_rollback",
        base.PROJECT_MEMBER,
        "Cancel stack operation without rolling back.",
        OP,
    ),
]


def list_rules():
    return rules
