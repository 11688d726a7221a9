"""CheckResource: what a worker does with one graph node, then how it tells the next ones.

The steps and their names are Heat's (heat/engine/check_resource.py):

* ``check`` processes a node: ``_do_check_resource`` acts on the resource
  (``check_resource_update`` on an update node: create, adopt or update;
  ``check_resource_cleanup`` on a cleanup node: delete), or creates its replacement
  (``_handle_resource_replacement``);
* ``_initiate_propagate_resource`` then records this node's data at the sync point of
  every node that requires it and casts ``check_resource`` for each one whose inputs are
  all in (``propagate_check_resource``); a root reports to the stack's own sync point,
  and the last root to report completes the stack (``check_stack_complete``);
* a failing resource fails the stack with ``Resource <ACTION> failed: <reason>`` and
  propagates nothing (``_handle_resource_failure``), except under CHECK, where failures
  are collected along the graph and the stack fails at the end with all of them;
* a node whose traversal was superseded while it ran is handed to the new traversal
  (``_retrigger_new_traversal`` -> ``retrigger_check_resource``).

The traversal's graph and the template's facts come from heat_lite.engine.graph_cache.

    rsrc, stack = load_resource(ctx, resource_id, is_update, input_data)
    CheckResource(engine_id, rpc_client).check(ctx, resource_id, traversal, is_update, rsrc, stack)
"""

import collections
import copy
import functools
import logging

import amqp.exceptions
import kombu.exceptions
import oslo_messaging
from sqlalchemy import exc as sa_exc

from heat_lite.common import exception
from heat_lite.db import api as db_api
from heat_lite.engine import graph_cache, liveness, sync_point, templates
from heat_lite.engine import resource as rsrc_mod
from heat_lite.engine import stack as parser
from heat_lite.rpc import api as rpc_api
from heat_lite.rpc import worker_client

LOG = logging.getLogger(__name__)


def load_resource(cnxt, resource_id, is_update, input_data):
    """(resource, stack) for a node, or None when its row or stack is gone."""
    row, stack_row = db_api.resource_get_with_stack(resource_id)
    if row is None:
        LOG.debug("Resource %s is gone", resource_id)
        return None
    stack = parser.Stack.load(cnxt, row=stack_row)
    stack.node_data = {v["name"]: v for v in input_data.values() if isinstance(v, dict)}
    rsrc_stack = stack
    if (
        not (is_update and row.action == rpc_api.INIT)
        and row.current_template_id is not None
        and row.current_template_id != stack.t.id
    ):
        rsrc_stack = copy.copy(stack)
        try:
            rsrc_stack.t = templates.load(row.current_template_id)
        except exception.EntityNotFound:
            # the traversal that finished meanwhile purged the row and its old template
            LOG.debug("Template %s of resource %s is gone", row.current_template_id, row.id)
            return None
        rsrc_stack._parameters = rsrc_stack._definitions = None
    definition = rsrc_stack.definition(row.name)
    if definition is None:
        LOG.warning("Resource %s has no definition in template %s", row.name, rsrc_stack.t.id)
        return None
    return rsrc_mod.Resource.load(row, rsrc_stack, definition), stack


def fail_unloadable(cnxt, resource_id, current_traversal, is_update, exc):
    """A node whose resource cannot be loaded for an error that is no outage (sent
    again, it would fail again): its stack fails with that error, as a failure of the
    resource's action, unless the traversal was superseded meanwhile."""
    LOG.error("Could not load resource %s: %s", resource_id, exc, exc_info=exc)
    row, stack_row = db_api.resource_get_with_stack(resource_id)
    if row is None or stack_row.current_traversal != current_traversal:
        return
    action = rpc_api.DELETE if not is_update else rpc_api.UPDATE
    if is_update and row.action == rpc_api.INIT:
        action = rpc_api.CREATE
    reason = "Resource %s failed: %s: resources.%s: %s" % (
        action,
        type(exc).__name__,
        row.name,
        exc,
    )
    parser.Stack.load(cnxt, row=stack_row).mark_failed(reason)


class CheckResource:
    def __init__(self, engine_id, rpc_client, continue_here=False):
        self.engine_id = engine_id
        self._rpc_client = rpc_client
        # how the traversal goes on, passed along with every cast (set by check)
        self._abandon, self._adopt_stack_data, self._converge = False, None, False
        # ``continue_here``: the first node this one's reports make ready is not cast
        # but kept in ``continuation`` (the cast's keyword arguments) for the worker to
        # check next itself: a chain's next link without a RabbitMQ round trip
        self._continue_here = continue_here
        self.continuation = None

    def check(
        self,
        cnxt,
        resource_id,
        current_traversal,
        is_update,
        rsrc,
        stack,
        skip_propagate=False,
        accumulated_failures=None,
        abandon=False,
        adopt_stack_data=None,
        converge=False,
    ):
        """Process a node of the graph: act on its resource (_do_check_resource), then
        start the nodes that require it (_initiate_propagate_resource).

        A COMPLETE write still deferred when that ends (a path that made no report) is
        sent then; one that no longer matches (the lock was taken over meanwhile) drops
        the node. An outage is raised for the watchdog; any other unexpected error fails
        the resource and the stack (_handle_resource_failure).
        """
        self._abandon, self._adopt_stack_data = abandon, adopt_stack_data
        self._converge = converge
        # (what the node does, as it was before it acted)
        self._action = node_action(rsrc, stack, is_update, adopt_stack_data)
        key = (resource_id, is_update)
        try:
            try:
                if stack.has_timed_out():
                    self._handle_stack_timeout(stack)
                    return
                failures = dict(accumulated_failures or {})
                if not skip_propagate:
                    check_done, skip_propagate = self._do_check_resource(
                        cnxt, current_traversal, key, rsrc, stack, failures
                    )
                    if not check_done:
                        return
                self._initiate_propagate_resource(
                    cnxt,
                    resource_id,
                    current_traversal,
                    is_update,
                    rsrc,
                    stack,
                    failures,
                    skip_propagate,
                )
            finally:
                rsrc.flush_state()
        except exception.UpdateInProgress:
            LOG.info("Resource %s changed under us; dropping %s", rsrc.name, current_traversal)
        except Exception as exc:
            if is_transient(exc):
                raise  # the watchdog sends the node again once the outage is over
            # any other error fails the node for good: sent again, it would fail again
            LOG.exception("Unexpected error checking resource %s", rsrc.name)
            failure = rsrc.store_failure(self._action, exc, self.engine_id)
            self._handle_resource_failure(cnxt, failure, stack, current_traversal, key)

    def _handle_stack_timeout(self, stack):
        stack.mark_failed("Timed out")

    def _do_check_resource(self, cnxt, current_traversal, key, rsrc, stack, failures):
        """Act on the node's resource: (whether to propagate, whether the nodes after it
        skip their action). A CHECK failure is added to ``failures`` ({name: reason})
        and propagates with skip: the traversal still reaches the stack's sync point,
        which fails the stack with all of them (docs/rpc-and-convergence.md §4.12)."""
        # the resource's COMPLETE write goes with its first sync point report
        rsrc.defer_completion = True
        try:
            self._act_or_fail(rsrc, stack, key[1])
        except exception.UpdateReplace:
            self._handle_resource_replacement(cnxt, rsrc, stack, current_traversal)
            return False, False
        except exception.ResourceFailure as failure:
            if stack.action != rpc_api.CHECK:
                self._handle_resource_failure(cnxt, failure, stack, current_traversal, key)
                return False, False
            failures[rsrc.name] = str(failure)
            return True, True
        except exception.UpdateInProgress:
            if self._stale_resource_needs_retry(cnxt, rsrc, stack):
                self.retrigger_check_resource(cnxt, key, stack)
                return False, False
            LOG.info(
                "Resource %s is locked by another traversal; dropping %s",
                rsrc.name,
                current_traversal,
            )
            return False, False
        except exception.CancelOperation:
            # the stack is being deleted or abandoned (a running task or a wait at a
            # hook was cancelled): hand the node to that traversal
            self._retrigger_new_traversal(cnxt, current_traversal, key, stack)
            return False, False
        return True, False

    def _handle_resource_failure(self, cnxt, failure, stack, current_traversal, key):
        """The stack fails with the resource's failure (``Resource <ACTION> failed:
        <reason>``), unless a newer traversal superseded it: that one takes the node."""
        reason = "Resource %s failed: %s" % (failure.action, failure)
        if not stack.mark_failed(reason):
            self._retrigger_new_traversal(cnxt, current_traversal, key, stack)

    def _act_or_fail(self, rsrc, stack, is_update):
        """check_resource_update or check_resource_cleanup; an unexpected error (not a
        failure the action recorded itself) ends the resource ``<ACTION>_FAILED`` with
        it too, and is raised as a ResourceFailure."""
        try:
            if is_update:
                requires = {data["id"] for data in stack.node_data.values()}
                check_resource_update(
                    rsrc, stack.t.id, requires, self.engine_id, stack, self._adopt_stack_data
                )
            else:
                check_resource_cleanup(rsrc, stack.t.id, self.engine_id, stack, self._abandon)
        except _HANDLED:
            raise
        except Exception as exc:
            if is_transient(exc):
                raise
            LOG.exception("Unexpected error in %s of resource %s", self._action, rsrc.name)
            raise rsrc.store_failure(self._action, exc, self.engine_id) from exc

    def _handle_resource_replacement(self, cnxt, rsrc, stack, current_traversal):
        """Create the replacement and trigger a check on it
        (docs/rpc-and-convergence.md §4.7); it reports under the old node's key."""
        requires = {data["id"] for data in stack.node_data.values()}
        try:
            new_id = rsrc.make_replacement(stack.t.id, requires)
        except exception.UpdateInProgress:
            LOG.info("Resource %s changed under us; not replacing it now", rsrc.name)
            return
        input_data = {(data["id"], True): data for data in stack.node_data.values()}
        self._rpc_client.check_resource(
            cnxt,
            new_id,
            current_traversal,
            {"input_data": sync_point.serialize_input_data(input_data)},
            True,
            None,
        )

    def _initiate_propagate_resource(
        self, cnxt, resource_id, current_traversal, is_update, rsrc, stack, failures, skip
    ):
        """Send this node's data to every node that requires it, then report to the
        stack if it is a root (docs/rpc-and-convergence.md §4.10).

        Requirers that get the same data (all update nodes get the resource's node data)
        are synced in one database round trip. ``failures`` ({name: reason}, CHECK only)
        and ``skip`` travel with the data to the requirers and on to the stack.
        """
        key = (resource_id, is_update)
        try:
            graph = graph_cache.graph_for(stack)
        except graph_cache.GraphNotReady:
            rsrc.flush_state()
            self._retrigger_new_traversal(cnxt, current_traversal, key, stack)
            return
        deps = graph.deps
        if key not in deps and rsrc.replaces is not None:
            key = (rsrc.replaces, is_update)
        facts = graph_cache.facts_for(stack) if is_update else None
        node_data = None
        groups = collections.defaultdict(dict)
        for req in deps.required_by(key):
            if req[1]:
                if node_data is None:
                    node_data = rsrc.node_data(facts.dep_attrs.get(rsrc.name, ()))
                data = None
            elif req[0] != key[0]:
                data = rsrc.replaced_by if rsrc.replaced_by is not None else resource_id
            else:
                data = None
            groups[(req[1], data)][req[0]] = deps.requires(req)
        try:
            # the outputs' cache is written before any requirer can complete the stack
            # (the cleanup node, synced next, may be the root that completes it)
            if is_update and rsrc.name in facts.output_resources:
                if node_data is None:
                    node_data = rsrc.node_data(facts.dep_attrs.get(rsrc.name, ()))
                rsrc.store_node_data(node_data)
            # cleanup nodes first, as Heat does
            for (req_is_update, data), targets in sorted(groups.items(), key=_group_order):
                payload = node_data if req_is_update else data
                self.propagate_check_resource(
                    cnxt,
                    current_traversal,
                    req_is_update,
                    targets,
                    {key: payload},
                    failures,
                    skip,
                    write=rsrc.take_pending_write(),
                )
            # (a root has no requirers: its deferred write is still pending here; any
            # other node's went with its first report above)
            check_stack_complete(
                stack,
                current_traversal,
                key,
                graph.roots,
                failures,
                skip,
                write=rsrc.take_pending_write(),
            )
        except exception.EntityNotFound:
            rsrc.flush_state()
            self._retrigger_new_traversal(cnxt, current_traversal, key, stack)

    def _stale_resource_needs_retry(self, cnxt, rsrc, stack):
        """Why the resource's lock could not be taken (Heat's check of a stale lock).

        Its holder is dead (no service row, no answer to ``listening``): the lock is
        stolen, the resource marked ``<ACTION>_FAILED "Worker went down during resource
        <ACTION>"``, and the node must be checked again. Nobody holds it but the row
        changed since it was read: check again too. Otherwise someone alive works on it.
        """
        row, stack_row = db_api.resource_get_with_stack(rsrc.id)
        if row is None or stack_row.current_traversal != stack.current_traversal:
            return False
        if row.engine_id is None:
            return row.atomic_key != rsrc.atomic_key
        if row.engine_id == self.engine_id or liveness.is_alive(cnxt, row.engine_id):
            return False
        LOG.info("Engine %s holding resource %s is gone: taking over", row.engine_id, rsrc.name)
        return rsrc.steal_lock(row)

    def _retrigger_new_traversal(self, cnxt, current_traversal, key, stack):
        """The traversal was superseded while this node ran: hand it to the new one."""
        row = db_api.stack_get(stack.id, show_deleted=True)
        if row is None or row.current_traversal in (current_traversal, "", None):
            return
        self.retrigger_check_resource(cnxt, key, parser.Stack.load(cnxt, row=row))

    def retrigger_check_resource(self, cnxt, key, stack):
        """Check the node again in ``stack``'s (current) traversal.

        The node's place in that graph (update node if there is one, else cleanup)
        records itself at its own sync point; if all its requirements have reported
        there already (so its message came while it was busy elsewhere and was dropped),
        it is cast again; otherwise it is triggered normally when the last one reports.
        """
        try:
            deps = graph_cache.graph_for(stack).deps
        except graph_cache.GraphNotReady:
            return  # its own leaves will reach this node
        node = (key[0], True) if (key[0], True) in deps else (key[0], False)
        if node not in deps:
            return
        LOG.info("Re-triggering %s in traversal %s", node, stack.current_traversal)
        try:
            self.propagate_check_resource(
                cnxt,
                stack.current_traversal,
                node[1],
                {node[0]: deps.requires(node)},
                {node: None},
            )
        except exception.EntityNotFound:
            pass

    def propagate_check_resource(
        self, cnxt, traversal, is_update, targets, new_data, failures=None, skip=False, write=None
    ):
        """Record ``new_data`` ({sender: data}) at the sync point of each of ``targets``
        ({entity id: its predecessors}) and trigger the check of every one whose
        dependencies are all satisfied now: cast, but for the first one when this
        CheckResource continues here (``continuation``). ``write``: the sender's
        deferred state write, sent with the report."""
        casts = []

        def do_check(entity_id, input_data, failures, skip):
            casts.append(
                {
                    "resource_id": int(entity_id),
                    "current_traversal": traversal,
                    "data": {"input_data": sync_point.serialize_input_data(input_data)},
                    "is_update": is_update,
                    "adopt_stack_data": self._adopt_stack_data,
                    "converge": self._converge,
                    "skip_propagate": skip,
                    "accumulated_failures": failures or None,
                    "abandon": self._abandon,
                }
            )

        try:
            sync_point.sync_many(
                traversal, is_update, targets, new_data, do_check, failures, skip, write=write
            )
        finally:
            if self._continue_here and self.continuation is None and casts:
                self.continuation = casts.pop(0)
            worker_client.cast_all(
                [functools.partial(self._rpc_client.check_resource, cnxt, **c) for c in casts]
            )


def check_stack_complete(
    stack, current_traversal, sender_key, roots, failures=None, skip=False, write=None
):
    """Mark the stack complete if this report is the last one it waits for.

    A root (``sender_key`` in ``roots``) reports to the stack's own sync point; when every
    root is in, the stack is done: complete, or (CHECK) failed with every resource that
    failed its check. Complete means every desired resource is in service, not that the
    superfluous ones are cleaned up (their cleanup nodes are roots too, when they are).
    """
    if sender_key not in roots:
        return

    def check_complete(_stack_id, _data, rsrc_failures, _skip):
        _complete(stack, rsrc_failures)

    sync_point.sync(
        stack.id,
        current_traversal,
        True,
        roots,
        {sender_key: None},
        check_complete,
        new_failures=failures,
        is_skip=skip,
        write=write,
    )


def check_resource_update(rsrc, template_id, requires, engine_id, stack, adopt_stack_data=None):
    """Create (adopt) or update the resource, or do the stack's action on an update node
    (RESUME, CHECK, SNAPSHOT; nothing under SUSPEND)."""
    timeout = stack.time_remaining()
    if stack.action in _ACTIONS_ON_EXISTING:
        on_update, method = _ACTIONS_ON_EXISTING[stack.action]
        if on_update:
            getattr(rsrc, method)(engine_id, timeout)
    elif rsrc.action == rpc_api.INIT and adopt_stack_data is not None:
        resource_data = (adopt_stack_data.get("resources") or {}).get(rsrc.name)
        rsrc.adopt_convergence(template_id, requires, engine_id, timeout, resource_data)
    elif rsrc.action == rpc_api.INIT:
        rsrc.create_convergence(template_id, requires, engine_id, timeout)
    else:
        rsrc.update_convergence(
            template_id, requires, engine_id, timeout, stack.definition(rsrc.name)
        )


def check_resource_cleanup(rsrc, template_id, engine_id, stack, abandon=False):
    """Delete the resource if appropriate, or do the stack's action on a cleanup node
    (SUSPEND, in reverse dependency order; nothing under RESUME, CHECK, SNAPSHOT)."""
    timeout = stack.time_remaining()
    if stack.action in _ACTIONS_ON_EXISTING:
        on_update, method = _ACTIONS_ON_EXISTING[stack.action]
        if not on_update:
            getattr(rsrc, method)(engine_id, timeout)
    else:
        rsrc.delete_convergence(template_id, engine_id, timeout, abandon=abandon)


# what _do_check_resource handles itself: the ways a node's action ends but for an unexpected error
_HANDLED = (
    exception.UpdateReplace,
    exception.ResourceFailure,
    exception.UpdateInProgress,
    exception.CancelOperation,
)


# what a broker that went away raises (a cast's publish is not always wrapped in
# oslo.messaging's own errors: a deleted vhost gives amqp's NotAllowed)
_BROKER_ERRORS = (
    oslo_messaging.MessagingException,
    kombu.exceptions.KombuError,
    amqp.exceptions.AMQPError,
    ConnectionError,
)


# what a database that is away or overloaded raises past the db api's own retries (a
# pool checkout that timed out, a connection lost mid-transaction); an SQL error of
# another kind (a constraint, a bad statement) would fail the same way every time
_DATABASE_OUTAGES = (
    sa_exc.OperationalError,
    sa_exc.InterfaceError,
    sa_exc.DisconnectionError,
    sa_exc.TimeoutError,
    sa_exc.PendingRollbackError,
)


def is_transient(exc):
    """An outage that sending the node again gets past (the database or the broker went
    away): left to the watchdog, not a failure of the resource."""
    return db_api.is_transient_db_error(exc) or isinstance(exc, _BROKER_ERRORS + _DATABASE_OUTAGES)


def node_action(rsrc, stack, is_update, adopt_stack_data=None):
    """The resource action a node does (before it acts): CREATE (ADOPT), UPDATE or
    DELETE, or the stack's SUSPEND, RESUME, CHECK, SNAPSHOT."""
    if stack.action in _ACTIONS_ON_EXISTING:
        return stack.action
    if not is_update:
        return rpc_api.DELETE
    if rsrc.action == rpc_api.INIT:
        return rpc_api.ADOPT if adopt_stack_data is not None else rpc_api.CREATE
    return rpc_api.UPDATE


# stack action -> (acts on update nodes?, Resource method) (docs/rpc-and-convergence.md §4.6)
_ACTIONS_ON_EXISTING = {
    rpc_api.SUSPEND: (False, "suspend_convergence"),
    rpc_api.RESUME: (True, "resume_convergence"),
    rpc_api.CHECK: (True, "check_convergence"),
    rpc_api.SNAPSHOT: (True, "snapshot_convergence"),
}
CHECK_NOT_SUPPORTED = "%s not supported for " % rpc_api.CHECK


def _complete(stack, failures=None):
    """The last root reported: the stack is done (CHECK fails with every resource that
    failed its check, and notes the resources it could not check)."""
    if stack.action == rpc_api.CHECK and failures:
        stack.mark_failed(
            "Resource %s failed: %s"
            % (rpc_api.CHECK, "; ".join("%s: %s" % item for item in sorted(failures.items())))
        )
    elif stack.action == rpc_api.CHECK and any(
        row.action == rpc_api.CHECK and (row.status_reason or "").startswith(CHECK_NOT_SUPPORTED)
        for row in db_api.resource_get_all_by_stack(stack.id)
    ):
        stack.mark_complete(". '%s' not fully supported (see resources)" % rpc_api.CHECK)
    else:
        stack.mark_complete()


def _group_order(item):
    (is_update, data), _targets = item
    return is_update, str(data)
