"""Stack dicts from the engine (format_stack) -> the API's JSON (docs/heat-api.md §5.1-5.2).

format_stack(req, {'stack_identity': ident, 'stack_action': 'CREATE',
                   'stack_status': 'COMPLETE', ...})
-> {'id': ..., 'links': [{'href': '.../stacks/s1/<id>', 'rel': 'self'}],
    'stack_status': 'CREATE_COMPLETE', ...}
"""

import urllib.parse

from heat_lite.api.openstack.v1 import util
from heat_lite.rpc import api as rpc_api

# The keys of a stack list item (docs/heat-api.md §5.2), in the engine's names.
basic_keys = (
    rpc_api.STACK_ID,
    rpc_api.STACK_NAME,
    rpc_api.STACK_DESCRIPTION,
    rpc_api.STACK_STATUS,
    rpc_api.STACK_STATUS_DATA,
    rpc_api.STACK_CREATION_TIME,
    rpc_api.STACK_DELETION_TIME,
    rpc_api.STACK_UPDATED_TIME,
    rpc_api.STACK_OWNER,
    rpc_api.STACK_PARENT,
    rpc_api.STACK_USER_PROJECT_ID,
    rpc_api.STACK_TAGS,
)


def format_stack(req, stack, keys=None, include_project=False):
    """One stack: identity -> id + links (+ project), action and status joined."""
    result = {}
    for key, value in stack.items():
        if keys and key not in keys:
            continue
        if key == rpc_api.STACK_ID:
            result["id"] = value["stack_id"]
            result["links"] = [util.make_link(req, value)]
            if include_project:
                result["project"] = value["tenant"]
        elif key == rpc_api.STACK_ACTION:
            continue
        elif key == rpc_api.STACK_STATUS and rpc_api.STACK_ACTION in stack:
            result[key] = "_".join((stack[rpc_api.STACK_ACTION], value))
        else:
            result[key] = value
    return result


def collection(req, stacks, count=None, include_project=False):
    """``{"stacks": [...], ["links": [next]], ["count": N]}``."""
    items = [format_stack(req, s, basic_keys, include_project) for s in stacks]
    result = {"stacks": items}
    links = collection_links(req, items)
    if links:
        result["links"] = links
    if count is not None:
        result["count"] = count
    return result


def collection_links(req, items):
    """A ``next`` link when the page is full: same query plus ``marker=<last id>``."""
    try:
        limit = int(req.params.get("limit") or 0)
    except ValueError:
        limit = 0
    if limit <= 0 or limit != len(items):
        return []
    params = req.params.copy()
    params["marker"] = items[-1]["id"]
    href = "%s?%s" % (req.path_url, urllib.parse.urlencode(list(params.items())))
    return [{"rel": "next", "href": href}]
