"""``service:index`` (heat/policies/service.py default: admin of the project)."""

from heat_lite.policies import base

rules = [
    base.rule(
        "service",
        "index",
        base.PROJECT_ADMIN,
        "Show the status of each engine.",
        "GET " + base.PREFIX + "/services",
    ),
]


def list_rules():
    return rules
