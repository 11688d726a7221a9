"""CheckResource: what a worker does with one graph node, then how it tells the next ones.

``check`` acts on the resource (create, or delete on a cleanup node), then propagates:
for every node that requires this one it records this node's data at that node's sync
point, and casts ``check_resource`` for it once all its inputs are in. A root reports to
the stack's own sync point; the last root to report completes the stack. A failing
resource fails the stack with ``Resource <ACTION> failed: <reason>`` and propagates
nothing, except under CHECK, where failures are collected along the graph and the stack
fails at the end with all of them.

    rsrc, stack = load_resource(ctx, resource_id, is_update, input_data)
    CheckResource(engine_id, worker_client).check(ctx, node, traversal, rsrc, stack, graph)
"""

import collections
import copy
import functools
import logging
import threading

import amqp.exceptions
import kombu.exceptions
import oslo_messaging
from sqlalchemy import exc as sa_exc

from heat_lite.common import exception, keyed_lock
from heat_lite.db import api as db_api
from heat_lite.engine import liveness, sync_point, templates
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


class Graph:
    """A traversal's graph (from ``stack.current_deps``), with its roots and dep attrs."""

    def __init__(self, current_deps):
        self.deps = parser.deps_from_json(current_deps)
        self.roots = self.deps.roots()


class TemplateFacts:
    """What propagation needs to know of a template: attributes used, outputs' resources."""

    def __init__(self, stack):
        self.dep_attrs = collections.defaultdict(set)
        self.output_resources = set()
        definitions = stack.definitions
        outputs = stack.t.outputs(stack)
        for defn in list(definitions.values()) + list(outputs.values()):
            for name in defn.required_resource_names():
                for path in defn.dep_attrs(name):
                    self.dep_attrs[name].add(path[0] if isinstance(path, tuple) else path)
        for output in outputs.values():
            self.output_resources.update(output.required_resource_names())


class _Cache:
    """A small LRU cache, safe across (green) threads. A missing value is built once:
    the threads that want it meanwhile wait for that build (a 1,000-node traversal's
    first messages all arrive at once, and its graph can take a second to load).

    ``weight(value)`` and ``max_weight``: past that total the least recently used values
    go too, but never the two most recent (a traversal and the one superseding it are
    not rebuilt in turn)."""

    def __init__(self, size, weight=None, max_weight=None):
        self._data = collections.OrderedDict()
        self._size = size
        self._weight, self._max_weight = weight, max_weight
        self._weights = {}
        self._lock = threading.Lock()
        self._building = keyed_lock.KeyedLocks()

    def _too_big(self):
        if len(self._data) > self._size:
            return True
        if self._weight is None or len(self._data) <= 2:
            return False
        return sum(self._weights.values()) > self._max_weight

    def get(self, key, build):
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
        with self._building.held(key):
            with self._lock:
                if key in self._data:
                    return self._data[key]
            value = build()
            with self._lock:
                self._data[key] = value
                if self._weight is not None:
                    self._weights[key] = self._weight(value)
                while self._too_big():
                    old, _ = self._data.popitem(last=False)
                    self._weights.pop(old, None)
            return value


# graphs weigh their nodes: finished traversals' big graphs (a 10,000-resource layered
# graph is ~30 MB) do not stay in a worker's memory for the next 64 traversals
_graphs = _Cache(64, weight=lambda graph: len(graph.deps), max_weight=30000)
_facts = _Cache(256)


class GraphNotReady(Exception):
    """The stack's stored graph is not (yet) the one of its current traversal."""


def graph_for(stack):
    def build():
        current_deps = stack.current_deps or db_api.stack_deps_get(stack.id) or {}
        if current_deps.get("traversal") != stack.current_traversal:
            raise GraphNotReady(stack.current_traversal)
        return Graph(current_deps)

    return _graphs.get(stack.current_traversal, build)


def facts_for(stack):
    return _facts.get((db_api.generation(), stack.t.id), lambda: TemplateFacts(stack))


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

    def check(self, cnxt, resource_id, current_traversal, is_update, rsrc, stack, **kwargs):
        """Act on the node and propagate (_check); a COMPLETE write still deferred when
        that ends (a path that made no report) is sent then. A deferred write that no
        longer matches (the lock was taken over meanwhile) drops the node."""
        # (what the node does, as it was before it acted)
        self._action = node_action(rsrc, stack, is_update, kwargs.get("adopt_stack_data"))
        try:
            try:
                self._check(cnxt, resource_id, current_traversal, is_update, rsrc, stack, **kwargs)
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
            self._fail_stack(cnxt, failure, stack, current_traversal, (resource_id, is_update))

    def _check(
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
        self._abandon, self._adopt_stack_data = abandon, adopt_stack_data
        self._converge = converge
        if stack.has_timed_out():
            stack.mark_failed("Timed out")
            return
        failures = dict(accumulated_failures or {})
        if not skip_propagate:
            # the resource's COMPLETE write goes with its first sync point report
            rsrc.defer_completion = True
            try:
                self._act_or_fail(rsrc, stack, is_update)
            except exception.UpdateReplace:
                self._replace(cnxt, rsrc, stack, current_traversal)
                return
            except exception.ResourceFailure as failure:
                if stack.action != rpc_api.CHECK:
                    self._fail_stack(
                        cnxt, failure, stack, current_traversal, (resource_id, is_update)
                    )
                    return
                # CHECK goes on: the failure is collected for the stack's reason and the
                # nodes after this one are skipped (docs/rpc-and-convergence.md §4.12)
                failures[rsrc.name] = str(failure)
                skip_propagate = True
            except exception.UpdateInProgress:
                if self._stale_resource_needs_retry(cnxt, rsrc, stack):
                    self.resend(cnxt, (resource_id, is_update), stack)
                    return
                LOG.info(
                    "Resource %s is locked by another traversal; dropping %s",
                    rsrc.name,
                    current_traversal,
                )
                return
            except exception.CancelOperation:
                # the stack is being deleted or abandoned (a running task or a wait at a
                # hook was cancelled): hand the node to that traversal
                self.retrigger(cnxt, current_traversal, (resource_id, is_update), stack)
                return
        self._propagate(
            cnxt, resource_id, current_traversal, is_update, rsrc, stack, failures, skip_propagate
        )

    def _fail_stack(self, cnxt, failure, stack, current_traversal, key):
        """The stack fails with the resource's failure (``Resource <ACTION> failed:
        <reason>``), unless a newer traversal superseded it: that one takes the node."""
        reason = "Resource %s failed: %s" % (failure.action, failure)
        if not stack.mark_failed(reason):
            self.retrigger(cnxt, current_traversal, key, stack)

    def _act_or_fail(self, rsrc, stack, is_update):
        """_act; an unexpected error (not a failure the action recorded itself) ends the
        resource ``<ACTION>_FAILED`` with it too, and is raised as a ResourceFailure."""
        try:
            self._act(rsrc, stack, is_update)
        except _HANDLED:
            raise
        except Exception as exc:
            if is_transient(exc):
                raise
            LOG.exception("Unexpected error in %s of resource %s", self._action, rsrc.name)
            raise rsrc.store_failure(self._action, exc, self.engine_id) from exc

    def _act(self, rsrc, stack, is_update):
        timeout = stack.time_remaining()
        if stack.action in _ACTIONS_ON_EXISTING:
            # SUSPEND acts on cleanup nodes (reverse order); RESUME, CHECK on update nodes
            on_update, method = _ACTIONS_ON_EXISTING[stack.action]
            if on_update == is_update:
                getattr(rsrc, method)(self.engine_id, timeout)
            return
        if is_update:
            requires = {data["id"] for data in stack.node_data.values()}
            if rsrc.action == rpc_api.INIT and self._adopt_stack_data is not None:
                resource_data = (self._adopt_stack_data.get("resources") or {}).get(rsrc.name)
                rsrc.adopt_convergence(stack.t.id, requires, self.engine_id, timeout, resource_data)
            elif rsrc.action == rpc_api.INIT:
                rsrc.create_convergence(stack.t.id, requires, self.engine_id, timeout)
            else:
                rsrc.update_convergence(
                    stack.t.id, requires, self.engine_id, timeout, stack.definition(rsrc.name)
                )
        else:
            rsrc.delete_convergence(stack.t.id, self.engine_id, timeout, abandon=self._abandon)

    def _replace(self, cnxt, rsrc, stack, current_traversal):
        """Create the replacement
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

    def _propagate(
        self, cnxt, resource_id, current_traversal, is_update, rsrc, stack, failures, skip
    ):
        """Send this node's data to every node that requires it (docs/rpc-and-convergence.md §4.10).

        Requirers that get the same data (all update nodes get the resource's node data)
        are synced in one database round trip. ``failures`` ({name: reason}, CHECK only)
        and ``skip`` travel with the data to the requirers and on to the stack.
        """
        key = (resource_id, is_update)
        try:
            graph = graph_for(stack)
        except GraphNotReady:
            rsrc.flush_state()
            self.retrigger(cnxt, current_traversal, key, stack)
            return
        deps = graph.deps
        if key not in deps and rsrc.replaces is not None:
            key = (rsrc.replaces, is_update)
        facts = facts_for(stack) if is_update else None
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
                self._sync_and_check(
                    cnxt,
                    current_traversal,
                    req_is_update,
                    targets,
                    {key: payload},
                    failures,
                    skip,
                    write=rsrc.take_pending_write(),
                )
            if key in graph.roots:
                sync_point.sync(
                    stack.id,
                    current_traversal,
                    True,
                    graph.roots,
                    {key: None},
                    lambda _id, _input, all_failures, _skip: _complete(stack, all_failures),
                    new_failures=failures,
                    is_skip=skip,
                    write=rsrc.take_pending_write(),
                )
        except exception.EntityNotFound:
            rsrc.flush_state()
            self.retrigger(cnxt, current_traversal, key, stack)

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

    def retrigger(self, cnxt, old_traversal, key, stack):
        """The traversal was superseded while this node ran: hand it to the new one."""
        row = db_api.stack_get(stack.id, show_deleted=True)
        if row is None or row.current_traversal in (old_traversal, "", None):
            return
        self.resend(cnxt, key, parser.Stack.load(cnxt, row=row))

    def resend(self, cnxt, key, latest):
        """Check the node again in ``latest``'s traversal.

        The node's place in that graph (update node if there is one, else cleanup)
        records itself at its own sync point; if all its requirements have reported
        there already (so its message came while it was busy elsewhere and was dropped),
        it is cast again; otherwise it is triggered normally when the last one reports.
        """
        try:
            deps = graph_for(latest).deps
        except GraphNotReady:
            return  # its own leaves will reach this node
        node = (key[0], True) if (key[0], True) in deps else (key[0], False)
        if node not in deps:
            return
        LOG.info("Re-triggering %s in traversal %s", node, latest.current_traversal)
        try:
            self._sync_and_check(
                cnxt,
                latest.current_traversal,
                node[1],
                {node[0]: deps.requires(node)},
                {node: None},
            )
        except exception.EntityNotFound:
            pass

    def _sync_and_check(
        self, cnxt, traversal, is_update, targets, new_data, failures=None, skip=False, write=None
    ):
        casts = []

        def trigger(entity_id, input_data, failures, skip):
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
                traversal, is_update, targets, new_data, trigger, failures, skip, write=write
            )
        finally:
            if self._continue_here and self.continuation is None and casts:
                self.continuation = casts.pop(0)
            worker_client.cast_all(
                [functools.partial(self._rpc_client.check_resource, cnxt, **c) for c in casts]
            )


# what _check handles itself: the ways a node's action ends but for an unexpected error
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
