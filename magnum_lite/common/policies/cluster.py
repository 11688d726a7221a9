"""cluster:* rules."""

from magnum_lite.common.policies import base

C = "/v1/clusters"
CI = "/v1/clusters/{cluster_ident}"
MEMBER = base.RULE_ADMIN_OR_PROJECT_MEMBER_DENY_CLUSTER_USER
READER = base.RULE_ADMIN_OR_PROJECT_READER_DENY_CLUSTER_USER

rules = [
    base.documented("cluster:create", MEMBER, "Create a new cluster.", C, ["POST"]),
    base.documented("cluster:delete", MEMBER, "Delete a cluster.", CI, ["DELETE"]),
    base.documented(
        "cluster:delete_all_projects",
        base.ROLE_ADMIN,
        "Delete a cluster from any project.",
        CI,
        ["DELETE"],
    ),
    base.documented(
        "cluster:detail", READER, "Retrieve a list of clusters with detail.", C + "/detail", ["GET"]
    ),
    base.documented(
        "cluster:detail_all_projects",
        base.ROLE_ADMIN,
        "Retrieve a list of clusters with detail across projects.",
        C + "/detail",
        ["GET"],
    ),
    base.documented(
        "cluster:get", READER, "Retrieve information about the given cluster.", CI, ["GET"]
    ),
    base.documented(
        "cluster:get_one_all_projects",
        base.ROLE_ADMIN,
        "Retrieve information about the given cluster across projects.",
        CI,
        ["GET"],
    ),
    base.documented("cluster:get_all", READER, "Retrieve a list of clusters.", C + "/", ["GET"]),
    base.documented(
        "cluster:get_all_all_projects",
        base.ROLE_ADMIN,
        "Retrieve a list of all clusters across projects.",
        C + "/",
        ["GET"],
    ),
    base.documented("cluster:update", MEMBER, "Update an existing cluster.", CI, ["PATCH"]),
    base.documented(
        "cluster:update_health_status",
        base.RULE_ADMIN_OR_PROJECT_MEMBER_USER_OR_CLUSTER_USER,
        "Update the health status of an existing cluster.",
        CI,
        ["PATCH"],
    ),
    base.documented(
        "cluster:update_all_projects",
        base.ROLE_ADMIN,
        "Update an existing cluster across projects.",
        CI,
        ["PATCH"],
    ),
    base.documented(
        "cluster:resize", MEMBER, "Resize an existing cluster.", CI + "/actions/resize", ["POST"]
    ),
    base.documented(
        "cluster:upgrade", MEMBER, "Upgrade an existing cluster.", CI + "/actions/upgrade", ["POST"]
    ),
    base.documented(
        "cluster:upgrade_all_projects",
        base.ROLE_ADMIN,
        "Upgrade an existing cluster across projects.",
        CI + "/actions/upgrade",
        ["POST"],
    ),
]


def list_rules():
    return rules
