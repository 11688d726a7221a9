"""The engine's stack snapshot RPC methods (docs/rpc-and-convergence.md §2.2, §4.2, §4.17).

``SnapshotMethods`` is an endpoint of topic ``engine`` (heat_lite.engine.service).
A snapshot is a SNAPSHOT traversal of the stack's current template whose traversal id is
the snapshot's id; a restore is a RESTORE traversal to the snapshot's template (see
engine/snapshots.py for both).

    engine.stack_snapshot(ctx, identity, 's1')        # {'id', 'status': 'IN_PROGRESS', ...}
    engine.stack_restore(ctx, identity, snapshot_id)   # None; RESTORE traversal started
"""

import functools

import oslo_messaging

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.db import snapshots as db_snapshots
from heat_lite.engine import snapshots, stack_loader
from heat_lite.rpc import api as rpc_api

expected = oslo_messaging.expected_exceptions(exception.HeatException)


class SnapshotMethods:
    """Snapshot endpoint methods."""

    target = oslo_messaging.Target(version=rpc_api.ENGINE_RPC_VERSION)

    @expected
    def stack_snapshot(self, cnxt, stack_identity, name):
        """Store a snapshot row (CREATE IN_PROGRESS) and start the SNAPSHOT traversal.

        :param name: the snapshot's name (None allowed)
        :returns: the snapshot (format_snapshot), still IN_PROGRESS
        :raises: ActionInProgress while the stack is IN_PROGRESS; RequestLimitExceeded
                 beyond CONF.max_snapshots_per_stack (not for admins)
        """
        stack = stack_loader.load_stack(cnxt, stack_identity)
        if stack.status == rpc_api.IN_PROGRESS:
            raise exception.ActionInProgress(stack_name=stack.name, action=stack.action)
        limit = CONF.max_snapshots_per_stack
        if not cnxt.is_admin and limit >= 0:
            if db_snapshots.snapshot_count_all_by_stack(stack.id) >= limit:
                raise exception.RequestLimitExceeded(
                    message=(
                        "You have reached the maximum snapshots per stack, %d. Please delete "
                        "some snapshots." % limit
                    )
                )
        snapshot = db_snapshots.snapshot_create(
            {
                "stack_id": stack.id,
                "name": name,
                "tenant": cnxt.project_id,
                "status": rpc_api.IN_PROGRESS,
                "data": snapshots.stack_data(stack, with_resources=False),
            }
        )
        stack.converge_stack(stack.t, action=rpc_api.SNAPSHOT, new_traversal_id=snapshot.id)
        return snapshots.format_snapshot(snapshot)

    @expected
    def show_snapshot(self, cnxt, stack_identity, snapshot_id):
        """:raises: NotFound (another project's too), SnapshotNotFound (another stack's)"""
        return snapshots.format_snapshot(self._get_snapshot(cnxt, stack_identity, snapshot_id)[1])

    @expected
    def stack_list_snapshots(self, cnxt, stack_identity):
        stack = stack_loader.load_stack(cnxt, stack_identity)
        return [snapshots.format_snapshot(row) for row in db_snapshots.snapshot_get_all(stack.id)]

    @expected
    def delete_snapshot(self, cnxt, stack_identity, snapshot_id):
        """Delete the snapshot (no resource keeps snapshot data outside of it).

        :raises: NotSupported while it is being created, and show_snapshot's errors
        """
        _stack, snapshot = self._get_snapshot(cnxt, stack_identity, snapshot_id)
        if snapshot.status == rpc_api.IN_PROGRESS:
            raise exception.NotSupported(feature="Deleting in-progress snapshot")
        db_snapshots.snapshot_delete(snapshot.id)

    @expected
    def stack_restore(self, cnxt, stack_identity, snapshot_id):
        """Converge the stack to the snapshot's template and environment (RESTORE).

        :raises: NotSupported unless the snapshot is COMPLETE, and show_snapshot's errors
        """
        stack, snapshot = self._get_snapshot(cnxt, stack_identity, snapshot_id)
        if snapshot.status != rpc_api.COMPLETE:
            raise exception.NotSupported(feature="Restoring incomplete snapshot")
        tmpl = snapshots.restore_template(snapshot.data)
        stack.converge_stack(
            tmpl,
            action=rpc_api.RESTORE,
            pre_converge=functools.partial(snapshots.restore_resource_data, stack, snapshot.data),
        )

    def _get_snapshot(self, cnxt, stack_identity, snapshot_id):
        """(stack, snapshot row); as Heat, a snapshot is only its own project's (admin too)."""
        stack = stack_loader.load_stack(cnxt, stack_identity)
        row = db_snapshots.snapshot_get_by_stack(snapshot_id, stack.id, stack.name, cnxt.project_id)
        return stack, row
