"""Event rows for stack and resource state changes, and their pruning.

db_api.event_create(event.stack_event(stack))
event.add_resource_event(rsrc, "Signal: deployment succeeded", action="SIGNAL")
event.maybe_purge(stack.id)   # 2 in event_purge_batch_size chance of pruning
"""

import random

from heat_lite.conf import CONF
from heat_lite.db import api as db_api


def resource_event(rsrc):
    """A resource's event; before it has a physical id, its physical name stands in
    (as in Heat, so ``stack event list`` shows ``s1-r-<short id>`` for CREATE_IN_PROGRESS)."""
    physical_id = rsrc.resource_id or (rsrc.physical_resource_name() if rsrc.uuid else "")
    return {
        "stack_id": rsrc.stack.id,
        "resource_action": rsrc.action,
        "resource_status": rsrc.status,
        "resource_name": rsrc.name,
        "physical_resource_id": physical_id,
        "resource_status_reason": rsrc.status_reason,
        "resource_type": rsrc.type_name,
    }


def add_resource_event(rsrc, reason, action=None):
    """Store an event of ``rsrc``'s current state with ``reason`` and no state change
    (a hook reached, a signal received: ``action`` then stands in for the resource's)."""
    values = resource_event(rsrc)
    values["resource_status_reason"] = reason
    if action is not None:
        values["resource_action"] = action
    db_api.event_create(values)


def stack_event(stack):
    return {
        "stack_id": stack.id,
        "resource_action": stack.action,
        "resource_status": stack.status,
        "resource_name": stack.name,
        "physical_resource_id": stack.id,
        "resource_status_reason": stack.status_reason,
        "resource_type": "OS::Heat::Stack",
    }


def maybe_purge(stack_id):
    """Keep roughly max_events_per_stack events: sometimes count, and drop the oldest batch."""
    limit = CONF.max_events_per_stack
    batch = CONF.event_purge_batch_size
    if limit <= 0 or random.random() >= 2.0 / batch:
        return
    if db_api.event_count_all_by_stack(stack_id) >= limit:
        db_api.event_purge_oldest(stack_id, batch)
