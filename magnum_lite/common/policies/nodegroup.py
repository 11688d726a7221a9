"""nodegroup:* rules."""

from magnum_lite.common.policies import base

C = "/v1/clusters/{cluster_id}/nodegroups"
CI = C + "/{nodegroup}"

rules = [
    base.documented(
        "nodegroup:get",
        base.RULE_ADMIN_OR_PROJECT_READER,
        "Retrieve information about the given nodegroup.",
        CI,
        ["GET"],
    ),
    base.documented(
        "nodegroup:get_all",
        base.RULE_ADMIN_OR_PROJECT_READER,
        "Retrieve a list of nodegroups that belong to a cluster.",
        C,
        ["GET"],
    ),
    base.documented(
        "nodegroup:get_all_all_projects",
        base.ROLE_ADMIN,
        "Retrieve a list of nodegroups across projects.",
        C,
        ["GET"],
    ),
    base.documented(
        "nodegroup:get_one_all_projects",
        base.ROLE_ADMIN,
        "Retrieve infornation for a given nodegroup.",
        CI,
        ["GET"],
    ),
    base.documented(
        "nodegroup:create",
        base.RULE_ADMIN_OR_PROJECT_MEMBER,
        "Create a new nodegroup.",
        C,
        ["POST"],
    ),
    base.documented(
        "nodegroup:delete", base.RULE_ADMIN_OR_PROJECT_MEMBER, "Delete a nodegroup.", CI, ["DELETE"]
    ),
    base.documented(
        "nodegroup:update",
        base.RULE_ADMIN_OR_PROJECT_MEMBER,
        "Update an existing nodegroup.",
        CI,
        ["PATCH"],
    ),
]


def list_rules():
    return rules
