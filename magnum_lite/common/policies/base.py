"""Base rules every Magnum policy default is built from (Magnum 23's names and checks)."""

from oslo_policy import policy

ROLE_ADMIN = "rule:context_is_admin"
RULE_ADMIN_OR_OWNER = "rule:admin_or_owner"
RULE_ADMIN_OR_PROJECT_READER = "rule:admin_or_project_reader"
RULE_ADMIN_OR_PROJECT_MEMBER = "rule:admin_or_project_member"
RULE_ADMIN_OR_PROJECT_MEMBER_USER = "rule:admin_or_project_member_user"
RULE_ADMIN_OR_PROJECT_READER_USER = "rule:admin_or_project_reader_user"
RULE_ADMIN_OR_PROJECT_MEMBER_USER_OR_CLUSTER_USER = (
    "rule:admin_or_project_member_user_or_cluster_user"
)
RULE_PROJECT_MEMBER_DENY_CLUSTER_USER = "rule:project_member_deny_cluster_user"
RULE_ADMIN_OR_PROJECT_MEMBER_DENY_CLUSTER_USER = "rule:admin_or_project_member_deny_cluster_user"
RULE_ADMIN_OR_PROJECT_READER_DENY_CLUSTER_USER = "rule:admin_or_project_reader_deny_cluster_user"
RULE_PROJECT_READER_DENY_CLUSTER_USER = "rule:project_reader_deny_cluster_user"

rules = [
    policy.RuleDefault("context_is_admin", "role:admin"),
    policy.RuleDefault("admin_or_owner", "is_admin:True or project_id:%(project_id)s"),
    policy.RuleDefault("admin_or_user", "is_admin:True or user_id:%(user_id)s"),
    policy.RuleDefault("is_user", "user_id:%(user_id)s"),
    policy.RuleDefault("project_member", "role:member and project_id:%(project_id)s"),
    policy.RuleDefault("project_reader", "role:reader and project_id:%(project_id)s"),
    policy.RuleDefault(
        "admin_or_project_reader", "(rule:context_is_admin) or (rule:project_reader)"
    ),
    policy.RuleDefault(
        "admin_or_project_member", "(rule:context_is_admin) or (rule:project_member)"
    ),
    policy.RuleDefault(
        "admin_or_project_member_user",
        "(rule:context_is_admin) or ((rule:project_member) and (rule:is_user))",
    ),
    policy.RuleDefault(
        "admin_or_project_member_user_or_cluster_user",
        "(rule:context_is_admin) or ((rule:project_member) and (rule:is_user))",
    ),
    policy.RuleDefault(
        "admin_or_project_reader_user",
        "(rule:context_is_admin) or ((rule:project_reader) and (rule:is_user))",
    ),
    policy.RuleDefault("project_member_deny_cluster_user", "(rule:project_member)"),
    policy.RuleDefault(
        "admin_or_project_member_deny_cluster_user",
        "(rule:context_is_admin) or (rule:project_member)",
    ),
    policy.RuleDefault("project_reader_deny_cluster_user", "(rule:project_reader)"),
    policy.RuleDefault(
        "admin_or_project_reader_deny_cluster_user",
        "(rule:context_is_admin) or (rule:project_reader)",
    ),
]


def documented(name, check, description, path, methods):
    """One DocumentedRuleDefault: ``methods`` is a list like ['GET'] for ``path``."""
    return policy.DocumentedRuleDefault(
        name=name,
        check_str=check,
        description=description,
        operations=[{"path": path, "method": m} for m in methods],
    )


def list_rules():
    return rules
