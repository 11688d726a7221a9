"""Resource dicts from the engine (format_stack_resource) -> API JSON (docs/heat-api.md §5.3).

format_resource(req, {'resource_identity': {..., 'path': '/resources/r'},
                      'resource_name': 'r', 'resource_action': 'CREATE',
                      'resource_status': 'COMPLETE', ...})
-> {'resource_name': 'r', 'logical_resource_id': 'r',
    'resource_status': 'CREATE_COMPLETE', 'links': [self, stack], ...}
"""

from heat_lite.api.openstack.v1 import util

# Engine keys (heat/rpc/api.py RES_*).
RES_ID = "resource_identity"
RES_NAME = "resource_name"
RES_ACTION = "resource_action"
RES_STATUS = "resource_status"
RES_STACK_ID = "stack_identity"
RES_STACK_NAME = "stack_name"
RES_NESTED_STACK_ID = "nested_stack_identity"
RES_METADATA = "metadata"

# Internal keys the API never shows; resource_action is folded into resource_status.
_HIDDEN = frozenset((RES_STACK_ID, RES_STACK_NAME, RES_ACTION, RES_NESTED_STACK_ID, RES_METADATA))


def _links(req, res, identity):
    stack_url = util.stack_url(req, identity)
    links = [
        {"href": stack_url + util.quoted_path(identity), "rel": "self"},
        {"href": stack_url, "rel": "stack"},
    ]
    nested = res.get(RES_NESTED_STACK_ID)
    if nested:
        links.append(util.make_link(req, nested, "nested"))
    return links


def format_resource(req, res, keys=None):
    result = {}
    for key, value in res.items():
        if keys and key not in keys:
            continue
        if key == RES_ID:
            result["links"] = _links(req, res, value)
        elif key in _HIDDEN:
            continue
        elif key == RES_STATUS and RES_ACTION in res:
            result[key] = "_".join((res[RES_ACTION], value))
        elif key == RES_NAME:
            result["logical_resource_id"] = value
            result[key] = value
        else:
            result[key] = value
    return result
