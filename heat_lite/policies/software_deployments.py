"""``software_deployments:<handler>`` rules (heat/policies/software_deployments.py)."""

from heat_lite.policies import base

S = "software_deployments"
D = base.PREFIX + "/software_deployments"

rules = [
    base.rule(S, "index", base.PROJECT_READER, "List deployments.", "GET " + D),
    base.rule(S, "create", base.PROJECT_MEMBER, "Create deployment.", "POST " + D),
    base.rule(
        S, "show", base.PROJECT_READER, "Show deployment details.", "GET " + D + "/{deployment_id}"
    ),
    base.rule(
        S, "update", base.PROJECT_MEMBER, "Update deployment.", "PUT " + D + "/{deployment_id}"
    ),
    base.rule(
        S, "delete", base.PROJECT_MEMBER, "Delete deployment.", "DELETE " + D + "/{deployment_id}"
    ),
    base.rule(
        S,
        "metadata",
        base.PROJECT_READER_OR_STACK_USER,
        "Show server configuration metadata.",
        "GET " + D + "/metadata/{server_id}",
    ),
]


def list_rules():
    return rules
