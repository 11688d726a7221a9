"""clustertemplate:* rules."""

from magnum_lite.common.policies import base

C = "/v1/clustertemplates"
CI = "/v1/clustertemplate/{clustertemplate_ident}"
READER = base.RULE_ADMIN_OR_PROJECT_READER_DENY_CLUSTER_USER

rules = [
    base.documented(
        "clustertemplate:create",
        base.RULE_ADMIN_OR_PROJECT_MEMBER_DENY_CLUSTER_USER,
        "Create a new cluster template.",
        C,
        ["POST"],
    ),
    base.documented(
        "clustertemplate:delete",
        base.RULE_ADMIN_OR_PROJECT_MEMBER,
        "Delete a cluster template.",
        CI,
        ["DELETE"],
    ),
    base.documented(
        "clustertemplate:delete_all_projects",
        base.ROLE_ADMIN,
        "Delete a cluster template from any project.",
        CI,
        ["DELETE"],
    ),
    base.documented(
        "clustertemplate:detail_all_projects",
        base.ROLE_ADMIN,
        "Retrieve a list of cluster templates with detail across projects.",
        C,
        ["GET"],
    ),
    base.documented(
        "clustertemplate:detail",
        READER,
        "Retrieve a list of cluster templates with detail.",
        C,
        ["GET"],
    ),
    base.documented(
        "clustertemplate:get",
        READER,
        "Retrieve information about the given cluster template.",
        CI,
        ["GET"],
    ),
    base.documented(
        "clustertemplate:get_one_all_projects",
        base.ROLE_ADMIN,
        "Retrieve information about the given cluster template across project.",
        CI,
        ["GET"],
    ),
    base.documented(
        "clustertemplate:get_all", READER, "Retrieve a list of cluster templates.", C, ["GET"]
    ),
    base.documented(
        "clustertemplate:get_all_all_projects",
        base.ROLE_ADMIN,
        "Retrieve a list of cluster templates across projects.",
        C,
        ["GET"],
    ),
    base.documented(
        "clustertemplate:update",
        base.RULE_ADMIN_OR_PROJECT_MEMBER,
        "Update an existing cluster template.",
        CI,
        ["PATCH"],
    ),
    base.documented(
        "clustertemplate:update_all_projects",
        base.ROLE_ADMIN,
        "Update an existing cluster template across projects.",
        CI,
        ["PATCH"],
    ),
    base.documented(
        "clustertemplate:publish",
        base.ROLE_ADMIN,
        "Publish an existing cluster template.",
        C,
        ["POST", "PATCH"],
    ),
]


def list_rules():
    return rules
