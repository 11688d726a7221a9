"""The engine's stack action RPC methods: suspend, resume, check and cancelling an update
(docs/rpc-and-convergence.md §4.2, §4.14, §4.17).

EngineService inherits ``ActionMethods``, so these are endpoints of topic ``engine``. Each
starts a traversal of the stack's current template (the workers do the rest, see
check_resource._act) or, for a cancel, rolls back / stops the running one.

    engine.stack_suspend(ctx, identity)       # SUSPEND traversal; None
    engine.stack_cancel_update(ctx, identity, cancel_with_rollback=False)
"""

import contextlib
import copy
import uuid

import oslo_messaging

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import hooks, sync_point, templates, threads
from heat_lite.engine import stack as parser
from heat_lite.rpc import api as rpc_api

expected = oslo_messaging.expected_exceptions(exception.HeatException)


class ActionMethods:
    """Stack action endpoint methods, mixed into EngineService (uses its ``_load_stack``)."""

    @expected
    def stack_suspend(self, cnxt, stack_identity):
        """Suspend the resources in reverse dependency order (no-op if already suspended)."""
        stack = self._load_stack(cnxt, stack_identity)
        if (stack.action, stack.status) != (rpc_api.SUSPEND, rpc_api.COMPLETE):
            stack.converge_stack(stack.t, action=rpc_api.SUSPEND)

    @expected
    def stack_resume(self, cnxt, stack_identity):
        """Resume the resources in dependency order (no-op if already resumed)."""
        stack = self._load_stack(cnxt, stack_identity)
        if (stack.action, stack.status) != (rpc_api.RESUME, rpc_api.COMPLETE):
            stack.converge_stack(stack.t, action=rpc_api.RESUME)

    @expected
    def stack_check(self, cnxt, stack_identity):
        """Check every resource against reality (CHECK traversal)."""
        stack = self._load_stack(cnxt, stack_identity)
        stack.converge_stack(stack.t, action=rpc_api.CHECK)

    @expected
    def stack_cancel_update(self, cnxt, stack_identity, cancel_with_rollback=True):
        """Roll back a running update, or stop a running create/update where it is.

        :raises: NotSupported unless the stack is UPDATE_IN_PROGRESS (or, without
                 rollback, CREATE_IN_PROGRESS)
        """
        stack = self._load_stack(cnxt, stack_identity)
        allowed = (rpc_api.UPDATE,) if cancel_with_rollback else (rpc_api.UPDATE, rpc_api.CREATE)
        if stack.status != rpc_api.IN_PROGRESS or stack.action not in allowed:
            state = "%s_%s" % (stack.action, stack.status)
            raise exception.NotSupported(feature="Cancelling update when stack is %s" % state)
        if cancel_with_rollback:
            threads.spawn(stack.rollback)
        else:
            threads.spawn(stop_traversal, stack)

    # -- abandon and export -----------------------------------------------------------------

    @expected
    def abandon_stack(self, cnxt, stack_identity, abandon=True):
        """The stack's data (docs/heat-api.md §5.7); with ``abandon`` the stack is deleted, but its
        resources are retained (no physical delete).

        :raises: NotSupported unless CONF.enable_stack_abandon
        """
        if not CONF.enable_stack_abandon:
            raise exception.NotSupported(feature="Stack Abandon")
        stack = self._load_stack(cnxt, stack_identity)
        info = abandon_data(stack)
        if abandon:
            with cancelling_running(stack):
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
        stack = self._load_stack(cnxt, stack_identity)
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
        stack = self._load_stack(cnxt, stack_identity)
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
        from heat_lite.engine import worker

        loaded = worker.load_resource(cnxt, row.id, False, {})
        if loaded is None:
            raise exception.ResourceNotFound(resource_name=row.name, stack_name=stack.name)
        return loaded[0]


def abandon_data(stack):
    """Heat's ``Stack.prepare_abandon()``: the stack and its defined resources."""
    rows = {}
    for row in db_api.resource_get_all_by_stack(stack.id):
        if row.replaced_by is None and not (
            row.action == rpc_api.DELETE and row.status == rpc_api.COMPLETE
        ):
            if row.name not in rows or row.id > rows[row.name].id:
                rows[row.name] = row
    resources = {}
    for name in stack.t.resource_names():
        row = rows.get(name)
        child = _child_stack_row(stack, row)
        if child is not None:
            # a nested stack resource is abandoned as its whole child stack (as Heat's
            # StackResource.prepare_abandon)
            resources[name] = abandon_data(parser.Stack.load(stack.context, row=child))
            continue
        resources[name] = {
            "name": name,
            "resource_id": row.nova_instance if row is not None else None,
            "type": stack.t.resource_type(name),
            "action": row.action if row is not None else rpc_api.INIT,
            "status": row.status if row is not None else rpc_api.COMPLETE,
            "metadata": (row.rsrc_metadata if row is not None else None) or {},
            "resource_data": db_api.resource_data_get_all(row.id) if row is not None else {},
        }
    return {
        "name": stack.name,
        "id": stack.id,
        "action": stack.action,
        "environment": copy.deepcopy(stack.env),
        "files": dict(stack.t.files or {}),
        "status": stack.status,
        "template": copy.deepcopy(stack.t.t),
        "resources": resources,
        "project_id": stack.tenant,
        "stack_user_project_id": stack.stack_user_project_id,
        "tags": stack.tags or [],
    }


def _child_stack_row(stack, row):
    """The child stack of resource ``row`` when it is a nested stack resource, else None."""
    if row is None or not row.nova_instance:
        return None
    try:
        uuid.UUID(row.nova_instance)
    except ValueError:
        return None
    child = db_api.stack_get(row.nova_instance)
    return child if child is not None and child.owner_id == stack.id else None


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


@contextlib.contextmanager
def cancelling_running(stack):
    """Around starting a DELETE traversal: a running traversal is stopped first
    (``<ACTION>_FAILED "Stack <ACTION> cancelled"``), and once the new one is stored the
    workers still running its resources' tasks are told to abort them; each aborted node
    then joins the new traversal (docs/rpc-and-convergence.md §4.14)."""
    running = stack.status == rpc_api.IN_PROGRESS
    if running:
        stop_traversal(stack)
    yield
    if running:
        cancel_workers(stack)


def cancel_workers(stack):
    """Cast ``cancel_check_resource`` to every worker holding a lock on the stack."""
    from heat_lite.rpc import worker_client

    engines = {r.engine_id for r in db_api.resource_get_all_by_stack(stack.id) if r.engine_id}
    client = worker_client.WorkerClient()
    for engine_id in sorted(engines):
        client.cancel_check_resource(stack.context, stack.id, engine_id)


def stop_traversal(stack):
    """Supersede the running traversal: ``<ACTION>_FAILED "Stack <ACTION> cancelled"``.

    Workers still running nodes of the old traversal find it superseded and stop.
    """
    old_traversal = stack.current_traversal
    stack.current_traversal = str(uuid.uuid4())
    if not db_api.stack_update(
        stack.id, {"current_traversal": stack.current_traversal}, exp_trvsl=old_traversal
    ):
        return False
    stack.state_set(stack.action, rpc_api.FAILED, "Stack %s cancelled" % stack.action)
    sync_point.delete_all(stack.id, old_traversal)
    return True
