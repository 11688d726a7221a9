"""Event dicts from the engine (format_event) -> API JSON (docs/heat-api.md §5.4).

The event identity's path is ``/resources/<resource name>/events/<event uuid>``;
it gives the event id and the self/resource/stack links.

    format_event(req, event, summary_keys)
    -> {'id': '<uuid>', 'resource_status': 'CREATE_COMPLETE',
        'links': [self, resource, stack(, root_stack)], ...}
"""

from heat_lite.api.openstack.v1 import util
from heat_lite.common import identifier

# Engine keys (heat/rpc/api.py EVENT_*).
EVENT_ID = "event_identity"
EVENT_STACK_ID = "stack_identity"
EVENT_STACK_NAME = "stack_name"
EVENT_TIMESTAMP = "event_time"
EVENT_RES_NAME = "resource_name"
EVENT_RES_PHYSICAL_ID = "physical_resource_id"
EVENT_RES_ACTION = "resource_action"
EVENT_RES_STATUS = "resource_status"
EVENT_RES_STATUS_DATA = "resource_status_reason"
EVENT_ROOT_STACK_ID = "root_stack_id"

summary_keys = (
    EVENT_ID,
    EVENT_TIMESTAMP,
    EVENT_RES_NAME,
    EVENT_RES_STATUS,
    EVENT_RES_STATUS_DATA,
    EVENT_RES_PHYSICAL_ID,
)


def _id_and_links(req, identity):
    ident = identifier.HeatIdentifier(**identity)
    resource_path, _sep, event_id = ident.path.rpartition("/events/")
    resource = identifier.HeatIdentifier(
        ident.tenant, ident.stack_name, ident.stack_id, resource_path
    )
    links = [
        util.make_link(req, ident),
        util.make_link(req, resource, "resource"),
        util.make_link(req, ident.stack(), "stack"),
    ]
    return event_id, links


def format_event(req, event, keys=None):
    result = {}
    for key, value in event.items():
        if keys and key not in keys:
            continue
        if key == EVENT_ID:
            result["id"], result["links"] = _id_and_links(req, value)
        elif key in (EVENT_STACK_ID, EVENT_STACK_NAME, EVENT_RES_ACTION, EVENT_ROOT_STACK_ID):
            continue
        elif key == EVENT_RES_STATUS and EVENT_RES_ACTION in event:
            result[key] = "_".join((event[EVENT_RES_ACTION], value))
        elif key == EVENT_RES_NAME:
            result["logical_resource_id"] = value
            result[key] = value
        else:
            result[key] = value
    root_stack = event.get(EVENT_ROOT_STACK_ID)
    if root_stack and "links" in result:
        result["links"].append(util.make_link(req, root_stack, "root_stack"))
    return result
