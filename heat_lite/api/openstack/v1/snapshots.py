"""Stack snapshots: ``/v1/{tenant}/stacks/{name}/{id}/snapshots...`` (docs/heat-api.md §4.1).

Heat keeps these handlers in its StackController; their policies are ``stacks:<handler>``.
The engine's snapshot dicts (docs/heat-api.md §5.8) are the REST bodies as they are.

POST .../stacks/s1/<id>/snapshots {"name": "n1"}
  -> SnapshotController.snapshot -> rpc_client.stack_snapshot(ctx, identity, 'n1')
  <- 200 {"id", "name", "action", "status": "IN_PROGRESS", ...}
POST .../stacks/s1/<id>/snapshots/<sid>/restore
  -> rpc_client.stack_restore(ctx, identity, '<sid>')   <- 202
"""

from webob import exc

from heat_lite.api.openstack.v1 import util

# the snapshot table's name column
MAX_NAME_LENGTH = 255


class SnapshotController:
    REQUEST_SCOPE = "stacks"

    def __init__(self, rpc_client):
        self.rpc_client = rpc_client

    @util.registered_identified_stack
    def snapshot(self, req, ctx, identity, body):
        """Body ``{"name": ...}`` or ``{}``; answers with the snapshot still IN_PROGRESS."""
        name = body.get("name")
        if name is not None and not (isinstance(name, str) and len(name) <= MAX_NAME_LENGTH):
            raise exc.HTTPBadRequest(util.MALFORMED_REQUEST)
        return self.rpc_client.stack_snapshot(ctx, identity, name)

    @util.registered_identified_stack
    def list_snapshots(self, req, ctx, identity):
        return {"snapshots": self.rpc_client.stack_list_snapshots(ctx, identity)}

    @util.registered_identified_stack
    def show_snapshot(self, req, ctx, identity, snapshot_id):
        return {"snapshot": self.rpc_client.show_snapshot(ctx, identity, snapshot_id)}

    @util.registered_identified_stack
    def delete_snapshot(self, req, ctx, identity, snapshot_id):
        self.rpc_client.delete_snapshot(ctx, identity, snapshot_id)
        return util.no_content()

    @util.registered_identified_stack
    def restore_snapshot(self, req, ctx, identity, snapshot_id):
        self.rpc_client.stack_restore(ctx, identity, snapshot_id)
        return util.accepted()
