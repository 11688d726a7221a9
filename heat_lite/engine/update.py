"""Heat's ``StackUpdate.preview``: what an update would do to each resource, without
doing it (``stack update --dry-run``, spec §4.1).

    changes = update.preview(current_stack, rows_by_name, updated_stack)
    -> {'unchanged': ['n'], 'updated': ['r'], 'replaced': [], 'added': [], 'deleted': []}

A resource is *replaced* when its plugin class changes, when its last action failed or
when a property that cannot be updated in place changes; *updated* when other
properties or its metadata change; *unchanged* otherwise (the rules of
``Resource.update_convergence``).
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
    new_props = new_defn.properties(rsrc.properties_schema) if rsrc.validate_properties else None
    after = rsrc_mod._resolved(new_props, new_defn)
    before = rsrc.properties_data if rsrc.properties_data is not None else rsrc._props_data()
    diff = {k: after.get(k) for k in set(before) | set(after) if before.get(k) != after.get(k)}
    if diff:
        return REPLACED if rsrc.needs_replace(diff, after) else UPDATED
    if rsrc_mod._metadata_snippet(old_defn) != rsrc_mod._metadata_snippet(new_defn):
        return UPDATED
    return UNCHANGED
