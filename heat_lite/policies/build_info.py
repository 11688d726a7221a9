"""``build_info:build_info`` (heat/policies/build_info.py default)."""

from heat_lite.policies import base

rules = [
    base.rule(
        "build_info",
        "build_info",
        base.PROJECT_READER,
        "Show build information.",
        "GET " + base.PREFIX + "/build_info",
    ),
]


def list_rules():
    return rules
