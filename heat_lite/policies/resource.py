"""``resource:<handler>`` rules (heat/policies/resource.py defaults)."""

from heat_lite.policies import base
from heat_lite.policies.base import STACK

S = "resource"
R = STACK + "/resources/{resource_name}"

rules = [
    base.rule(S, "index", base.PROJECT_READER, "List resources.", "GET " + STACK + "/resources"),
    base.rule(
        S,
        "metadata",
        base.PROJECT_READER_OR_STACK_USER,
        "Show resource metadata.",
        "GET " + R + "/metadata",
    ),
    base.rule(
        S, "signal", base.PROJECT_READER_OR_STACK_USER, "Signal resource.", "POST " + R + "/signal"
    ),
    base.rule(
        S, "mark_unhealthy", base.PROJECT_MEMBER, "Mark resource as unhealthy.", "PATCH " + R
    ),
    base.rule(S, "show", base.PROJECT_READER, "Show resource.", "GET " + R),
]


def list_rules():
    return rules
