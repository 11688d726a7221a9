"""Heat's ``StackUpdate.preview``: what an update would do to each resource, without
doing it (``stack update --dry-run``, docs/heat-api.md §4.1).

    changes = update.preview(current_stack, rows_by_name, updated_stack)
    -> {'unchanged': ['n'], 'updated': ['r'], 'replaced': [], 'added': [], 'deleted': []}

A resource is *replaced* when its plugin class changes, when its last action failed, when
its plugin says so for the changed properties (needs_replace_with_prop_diff) or when a
property its schema does not allow to update changes; *updated* when other
properties or its metadata change, and always for a nested stack; *unchanged* otherwise
(OS::Heat::None whatever its properties).
"""

from heat_lite.engine import resource as rsrc_mod
from heat_lite.rpc import api as rpc_api

KINDS = (UNCHANGED, UPDATED, REPLACED, ADDED, DELETED) = (
    "unchanged",
    "updated",
    "replaced",
    "added",
    "deleted",
)


def preview(current, rows, updated):
    """Resource names by kind of change; ``rows``: the current live rows by name."""
    changes = {kind: [] for kind in KINDS}
    new_defns = updated.definitions
    for name, defn in new_defns.items():
        row = rows.get(name)
        changes[ADDED if row is None else _kind(current, row, updated, defn)].append(name)
    changes[DELETED] = [name for name in rows if name not in new_defns]
    return changes


def _kind(current, row, updated, new_defn):
    old_defn = current.definitions.get(row.name)
    if old_defn is None or row.status == rpc_api.FAILED:
        return REPLACED
    rsrc = rsrc_mod.Resource.load(row, current, old_defn)
    if updated.resource_class(new_defn) is not type(rsrc):
        return REPLACED
    diff, after, _props = rsrc.property_diff(new_defn)
    if rsrc.nested_stack:
        # as Heat: a nested stack is always updated (its resources decide), unless its
        # plugin needs a new one (OS::Heat::Stack in another region)
        return REPLACED if diff and rsrc.needs_replace(diff, after) else UPDATED
    if diff:
        # as Heat's preview: the plugin's needs_replace_with_prop_diff and the schema's
        # update_allowed decide; what a plugin finds out only while updating does not
        return REPLACED if rsrc_mod.Resource.needs_replace(rsrc, diff, after) else UPDATED
    if rsrc.ignores_property_changes:
        return UNCHANGED
    if rsrc_mod._metadata_snippet(old_defn) != rsrc_mod._metadata_snippet(new_defn):
        return UPDATED
    return UNCHANGED
