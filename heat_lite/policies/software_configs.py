"""``software_configs:<handler>`` rules (heat/policies/software_configs.py defaults)."""

from heat_lite.policies import base

S = "software_configs"
C = base.PREFIX + "/software_configs"

rules = [
    base.rule(S, "global_index", base.RULE_DENY_EVERYBODY, "List configs globally.", "GET " + C),
    base.rule(S, "index", base.PROJECT_READER, "List configs.", "GET " + C),
    base.rule(S, "create", base.PROJECT_MEMBER, "Create config.", "POST " + C),
    base.rule(S, "show", base.PROJECT_READER, "Show config details.", "GET " + C + "/{config_id}"),
    base.rule(S, "delete", base.PROJECT_MEMBER, "Delete config.", "DELETE " + C + "/{config_id}"),
]


def list_rules():
    return rules
