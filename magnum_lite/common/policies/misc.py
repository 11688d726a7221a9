"""quota:*, certificate:*, credential:*, stats:*, magnum-service:* and federation:* rules."""

from magnum_lite.common.policies import base

Q = "/v1/quotas"
CERT = "/v1/certificates"
MEMBER_DENY = base.RULE_ADMIN_OR_PROJECT_MEMBER_DENY_CLUSTER_USER
READER_DENY = base.RULE_ADMIN_OR_PROJECT_READER_DENY_CLUSTER_USER
F = "/v1/federations"

rules = [
    base.documented("quota:create", base.ROLE_ADMIN, "Create quota.", Q, ["POST"]),
    base.documented(
        "quota:delete",
        base.ROLE_ADMIN,
        "Delete quota for a given project_id and resource.",
        Q + "/{project_id}/{resource}",
        ["DELETE"],
    ),
    base.documented(
        "quota:get",
        base.RULE_ADMIN_OR_PROJECT_READER,
        "Retrieve Quota information for the given project_id.",
        Q + "/{project_id}/{resource}",
        ["GET"],
    ),
    base.documented("quota:get_all", base.ROLE_ADMIN, "Retrieve a list of quotas.", Q, ["GET"]),
    base.documented(
        "quota:update",
        base.ROLE_ADMIN,
        "Update quota for a given project_id.",
        Q + "/{project_id}/{resource}",
        ["PATCH"],
    ),
    base.documented(
        "certificate:create",
        base.RULE_ADMIN_OR_PROJECT_MEMBER_USER,
        "Sign a new certificate by the CA.",
        CERT,
        ["POST"],
    ),
    base.documented(
        "certificate:get",
        base.RULE_ADMIN_OR_PROJECT_READER_USER,
        "Retrieve CA information about the given cluster.",
        CERT + "/{cluster_uuid}",
        ["GET"],
    ),
    base.documented(
        "certificate:rotate_ca",
        base.RULE_ADMIN_OR_PROJECT_MEMBER,
        "Rotate the CA certificate on the given cluster.",
        CERT + "/{cluster_uuid}",
        ["PATCH"],
    ),
    base.documented(
        "credential:rotate",
        base.RULE_PROJECT_MEMBER_DENY_CLUSTER_USER,
        "Rotate the credential of a cluster.",
        "/v1/credentials/{cluster_uuid}",
        ["PATCH"],
    ),
    base.documented(
        "stats:get_all",
        base.RULE_ADMIN_OR_PROJECT_READER,
        "Retrieve magnum stats.",
        "/v1/stats",
        ["GET"],
    ),
    base.documented(
        "magnum-service:get_all",
        base.ROLE_ADMIN,
        "Retrieve a list of magnum-services.",
        "/v1/mservices",
        ["GET"],
    ),
    base.documented("federation:create", MEMBER_DENY, "Create a new federation.", F, ["POST"]),
    base.documented(
        "federation:delete",
        MEMBER_DENY,
        "Delete a federation.",
        F + "/{federation_ident}",
        ["DELETE"],
    ),
    base.documented(
        "federation:detail", READER_DENY, "Retrieve a list of federations with detail.", F, ["GET"]
    ),
    base.documented(
        "federation:get",
        READER_DENY,
        "Retrieve information about the given federation.",
        F + "/{federation_ident}",
        ["GET"],
    ),
    base.documented(
        "federation:get_all", READER_DENY, "Retrieve a list of federations.", F + "/", ["GET"]
    ),
    base.documented(
        "federation:update",
        MEMBER_DENY,
        "Update an existing federation.",
        F + "/{federation_ident}",
        ["PATCH"],
    ),
]


def list_rules():
    return rules
