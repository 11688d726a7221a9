"""Shared check strings and the helper every policy module uses to declare its rules.

Heat 27 defaults (docs/heat-api.md §7), with one deliberate widening: Keystone makes
``admin`` imply ``member`` and ``member`` imply ``reader``, but oslo.policy only sees
the literal role list. heat-lite's noauth caller has roles ``['admin']`` (Heat's noauth
also hard-codes admin, and then needs ``enforce_new_defaults = false``), so the
reader/member checks here accept the implying roles too:

    PROJECT_READER = (role:reader or role:member or role:admin) and project_id:%(project_id)s
    PROJECT_MEMBER = (role:member or role:admin) and project_id:%(project_id)s

A deployment that wants Heat's literal checks can override them in policy.yaml.
"""

from oslo_policy import policy

RULE_CONTEXT_IS_ADMIN = "rule:context_is_admin"
RULE_PROJECT_ADMIN = "rule:project_admin"
RULE_DENY_STACK_USER = "rule:deny_stack_user"
RULE_DENY_EVERYBODY = "rule:deny_everybody"
RULE_ALLOW_EVERYBODY = "rule:allow_everybody"

_IN_PROJECT = "project_id:%(project_id)s"
PROJECT_READER = "(role:reader or role:member or role:admin) and " + _IN_PROJECT
PROJECT_MEMBER = "(role:member or role:admin) and " + _IN_PROJECT
PROJECT_ADMIN = "role:admin and " + _IN_PROJECT
PROJECT_STACK_USER = "role:heat_stack_user and " + _IN_PROJECT
PROJECT_READER_OR_STACK_USER = "(%s) or (%s)" % (PROJECT_READER, PROJECT_STACK_USER)

PREFIX = "/v1/{tenant_id}"
STACK = PREFIX + "/stacks/{stack_name}/{stack_id}"


def rule(scope, name, check_str, description, *operations):
    """A DocumentedRuleDefault ``<scope>:<name>``; operations are ``"METHOD /path"``."""
    ops = []
    for op in operations:
        method, path = op.split(" ", 1)
        ops.append({"method": method, "path": path})
    return policy.DocumentedRuleDefault(
        name="%s:%s" % (scope, name),
        check_str=check_str,
        description=description,
        operations=ops,
        scope_types=["project"],
    )


rules = [
    policy.RuleDefault(
        name="context_is_admin",
        check_str="(role:admin and is_admin_project:True)",
        description="Decides what is required for the 'is_admin:True' check to succeed.",
    ),
    policy.RuleDefault(
        name="project_admin", check_str="role:admin", description="Default rule for project admin."
    ),
    policy.RuleDefault(
        name="deny_stack_user",
        check_str="not role:heat_stack_user",
        description="Default rule for deny stack user.",
    ),
    policy.RuleDefault(
        name="deny_everybody", check_str="!", description="Default rule for deny everybody."
    ),
    policy.RuleDefault(
        name="allow_everybody", check_str="", description="Default rule for allow everybody."
    ),
]


def list_rules():
    return rules
