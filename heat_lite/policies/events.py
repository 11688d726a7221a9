"""``events:<handler>`` rules (heat/policies/events.py defaults)."""

from heat_lite.policies import base
from heat_lite.policies.base import STACK

S = "events"

rules = [
    base.rule(
        S,
        "index",
        base.PROJECT_READER,
        "List events.",
        "GET " + STACK + "/events",
        "GET " + STACK + "/resources/{resource_name}/events",
    ),
    base.rule(
        S,
        "show",
        base.PROJECT_READER,
        "Show event.",
        "GET " + STACK + "/resources/{resource_name}/events/{event_id}",
    ),
]


def list_rules():
    return rules
