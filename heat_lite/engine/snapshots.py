"""Stack snapshots under convergence: what a snapshot holds and how a restore uses it
(Heat's heat/engine/snapshots.py and ``Stack.update_snapshot``/``restore_data``).

A snapshot is a SNAPSHOT traversal whose id is the snapshot's id: every resource goes
SNAPSHOT_IN_PROGRESS -> SNAPSHOT_COMPLETE, and when the stack completes (or fails) the
snapshot row gets the stack's abandon data (docs/heat-api.md §5.7) with the final ``status``. A
restore converges the stack to the snapshot's template and environment (action RESTORE);
resources that are created again get the ``resource_data`` the snapshot saved for them.

    snapshot = db_snapshots.snapshot_create({... 'data': in_progress_data(stack)})
    stack.converge_stack(stack.t, action='SNAPSHOT', new_traversal_id=snapshot.id)
    ...   # the traversal completes: stack.mark_complete() -> update_snapshot(stack, ...)
    stack.converge_stack(restore_template(snapshot.data), action='RESTORE',
                         pre_converge=functools.partial(restore_resource_data, stack, data))
"""

import copy
import logging

from heat_lite.db import api as db_api
from heat_lite.db import snapshots as db_snapshots
from heat_lite.engine import api
from heat_lite.engine import template as tmpl_mod
from heat_lite.rpc import api as rpc_api

LOG = logging.getLogger(__name__)

# A snapshot's own action. Heat also has DELETE (IN_PROGRESS while a worker deletes the
# resources' snapshot data); here no resource keeps data outside the row, the row is
# deleted at once, and the table (migration 0002) has no action column: always CREATE.
CREATE = rpc_api.CREATE


def format_snapshot(row):
    """The snapshot dict of the RPC replies (Heat's ``api.format_snapshot``,
    docs/heat-api.md §5.8)."""
    return {
        rpc_api.SNAPSHOT_ID: row.id,
        rpc_api.SNAPSHOT_NAME: row.name,
        rpc_api.SNAPSHOT_ACTION: CREATE,
        rpc_api.SNAPSHOT_STATUS: row.status,
        rpc_api.SNAPSHOT_STATUS_REASON: row.status_reason,
        rpc_api.SNAPSHOT_DATA: row.data,
        rpc_api.SNAPSHOT_CREATION_TIME: api.heat_timestamp(row.created_at),
    }


def stack_data(stack, status=None, with_resources=True):
    """Heat's ``Stack.prepare_abandon()`` (the export data), ``status`` overriding."""
    data = stack.prepare_abandon()
    if not with_resources:
        data["resources"] = {}
    if status is not None:
        data["status"] = status
    data["tags"] = data.get("tags") or []
    return data


def update_snapshot(stack, status, reason):
    """The SNAPSHOT traversal ended: store the data (the traversal id is the snapshot id)."""
    values = {"data": stack_data(stack, status), "status": status, "status_reason": reason}
    if not db_snapshots.snapshot_update(stack.current_traversal, values):
        LOG.info("Snapshot %s was deleted before it completed", stack.current_traversal)


def restore_template(data):
    """A new Template from a snapshot's data: its template, files and environment."""
    return tmpl_mod.Template(
        copy.deepcopy(data["template"]),
        files=data.get("files") or {},
        env=copy.deepcopy(data.get("environment") or {}),
    )


def restore_resource_data(stack, data):
    """RESTORE's pre_converge: give every resource about to be created again (an INIT
    row of the restored template) the resource_data its snapshot saved."""
    saved = data.get("resources") or {}
    for row in db_api.resource_get_all_by_stack(stack.id):
        rsrc_data = (saved.get(row.name) or {}).get("resource_data")
        if row.action == rpc_api.INIT and row.current_template_id == stack.t.id and rsrc_data:
            for key, value in rsrc_data.items():
                db_api.resource_data_set(row.id, key, value)
