"""The engine's stack action RPC methods: suspend, resume, check and cancelling an update
(docs/rpc-and-convergence.md §4.2, §4.14, §4.17).

``ActionMethods`` is an endpoint of topic ``engine`` (heat_lite.engine.service). Each
starts a traversal of the stack's current template (the workers do the rest, see
check_resource.check_resource_update) or, for a cancel, rolls back / stops the running one.

    engine.stack_suspend(ctx, identity)       # SUSPEND traversal; None
    engine.stack_cancel_update(ctx, identity, cancel_with_rollback=False)
"""

import oslo_messaging

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import check_resource, hooks, stack_loader, templates, threads, worker
from heat_lite.rpc import api as rpc_api

expected = oslo_messaging.expected_exceptions(exception.HeatException)


class ActionMethods:
    """Stack action endpoint methods; ``engine_id`` is the engine's (a resource marked
    unhealthy is locked under it)."""

    target = oslo_messaging.Target(version=rpc_api.ENGINE_RPC_VERSION)

    def __init__(self, engine_id):
        self.engine_id = engine_id

    @expected
    def stack_suspend(self, cnxt, stack_identity):
        """Suspend the resources in reverse dependency order (no-op if already suspended)."""
        stack = stack_loader.load_stack(cnxt, stack_identity)
        if (stack.action, stack.status) != (rpc_api.SUSPEND, rpc_api.COMPLETE):
            stack.converge_stack(stack.t, action=rpc_api.SUSPEND)

    @expected
    def stack_resume(self, cnxt, stack_identity):
        """Resume the resources in dependency order (no-op if already resumed)."""
        stack = stack_loader.load_stack(cnxt, stack_identity)
        if (stack.action, stack.status) != (rpc_api.RESUME, rpc_api.COMPLETE):
            stack.converge_stack(stack.t, action=rpc_api.RESUME)

    @expected
    def stack_check(self, cnxt, stack_identity):
        """Check every resource against reality (CHECK traversal)."""
        stack = stack_loader.load_stack(cnxt, stack_identity)
        stack.converge_stack(stack.t, action=rpc_api.CHECK)

    @expected
    def stack_cancel_update(self, cnxt, stack_identity, cancel_with_rollback=True):
        """Roll back a running update, or stop a running create/update where it is.

        :raises: NotSupported unless the stack is UPDATE_IN_PROGRESS (or, without
                 rollback, CREATE_IN_PROGRESS)
        """
        stack = stack_loader.load_stack(cnxt, stack_identity)
        allowed = (rpc_api.UPDATE,) if cancel_with_rollback else (rpc_api.UPDATE, rpc_api.CREATE)
        if stack.status != rpc_api.IN_PROGRESS or stack.action not in allowed:
            state = "%s_%s" % (stack.action, stack.status)
            raise exception.NotSupported(feature="Cancelling update when stack is %s" % state)
        if cancel_with_rollback:
            # ROLLBACK_IN_PROGRESS is stored before the reply; the graph is built in a thread
            stack.rollback()
        else:
            threads.spawn(worker.stop_traversal, stack)

    # -- abandon and export -----------------------------------------------------------------

    @expected
    def abandon_stack(self, cnxt, stack_identity, abandon=True):
        """The stack's data (docs/heat-api.md §5.7); with ``abandon`` the stack is deleted, but its
        resources are retained (no physical delete).

        :raises: NotSupported unless CONF.enable_stack_abandon
        """
        if not CONF.enable_stack_abandon:
            raise exception.NotSupported(feature="Stack Abandon")
        stack = stack_loader.load_stack(cnxt, stack_identity)
        info = stack.prepare_abandon()
        if abandon:
            with worker.cancelling_running(stack):
                stack.converge_stack(
                    templates.empty_like(stack.t), action=rpc_api.DELETE, abandon=True
                )
        return info

    @expected
    def export_stack(self, cnxt, stack_identity):
        """abandon_stack's data, nothing deleted."""
        return self.abandon_stack(cnxt, stack_identity, abandon=False)

    # -- resources ------------------------------------------------------------------------

    @expected
    def resource_signal(self, cnxt, stack_identity, resource_name, details, sync_call=False):
        """Hand ``details`` to the resource's signal handler (in a thread unless sync_call).

        ``{"unset_hook": <hook>}`` clears a hook the resource is paused at (engine/hooks.py).

        :raises: ResourceActionNotSupported for a type without a signal handler;
                 InvalidBreakPointHook for an unset_hook naming no hook that is set
        """
        stack = stack_loader.load_stack(cnxt, stack_identity)
        rsrc = self._load_resource(cnxt, stack, _find_resource_row(stack, resource_name))
        if hooks.check_unset(rsrc, details):
            # ``openstack stack hook clear``: handled here, never by the plugin
            hooks.unset(rsrc, details)
            return
        handle_signal = getattr(rsrc, "handle_signal", None)
        if handle_signal is None:
            raise exception.ResourceActionNotSupported(action="signal")
        if sync_call:
            handle_signal(details)
        else:
            threads.spawn(handle_signal, details)

    @expected
    def resource_mark_unhealthy(
        self, cnxt, stack_identity, resource_name, mark_unhealthy, resource_status_reason=None
    ):
        """true: CHECK_FAILED (unless being deleted); false on CHECK_FAILED: CHECK_COMPLETE.

        ``resource_name`` may also be the physical resource id.

        :raises: ActionInProgress while an operation holds the resource's lock
        """
        if not isinstance(mark_unhealthy, bool):
            raise exception.Invalid(reason="mark_unhealthy is not a boolean")
        stack = stack_loader.load_stack(cnxt, stack_identity)
        row = _find_resource_row(stack, resource_name)
        reason = resource_status_reason or "state changed by resource_mark_unhealthy api"
        if mark_unhealthy and row.action != rpc_api.DELETE:
            state = (rpc_api.CHECK, rpc_api.FAILED)
        elif not mark_unhealthy and (row.action, row.status) == (rpc_api.CHECK, rpc_api.FAILED):
            state = (rpc_api.CHECK, rpc_api.COMPLETE)
        else:
            state = None
        rsrc = self._load_resource(cnxt, stack, row) if state is not None else None
        try:
            if row.engine_id is not None:
                raise exception.UpdateInProgress(resource_name=row.name)
            if rsrc is not None:
                rsrc.set_state_locked(state[0], state[1], reason, self.engine_id)
        except exception.UpdateInProgress:
            raise exception.ActionInProgress(stack_name=stack.name, action=stack.action)

    @staticmethod
    def _load_resource(cnxt, stack, row):
        loaded = check_resource.load_resource(cnxt, row.id, False, {})
        if loaded is None:
            raise exception.ResourceNotFound(resource_name=row.name, stack_name=stack.name)
        return loaded[0]


def _find_resource_row(stack, name):
    """The live row of resource ``name``, else the one whose physical id is ``name``."""
    rows = [
        r
        for r in db_api.resource_get_all_by_stack(stack.id)
        if r.replaced_by is None
        and not (r.action == rpc_api.DELETE and r.status == rpc_api.COMPLETE)
    ]
    for match in (
        [r for r in rows if r.name == name],
        [r for r in rows if r.nova_instance == name],
    ):
        if match:
            return max(match, key=lambda r: r.id)
    raise exception.ResourceNotFound(resource_name=name, stack_name=stack.name)
