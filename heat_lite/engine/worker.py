"""WorkerService: the RPC endpoint of topic ``engine_worker`` (version 1.9).

Each ``check_resource`` message names one graph node of one traversal. The worker loads
the resource row and a stack whose template functions resolve from the input data that
came with the message, drops messages of a superseded traversal, and hands the rest to
CheckResource.

    service = WorkerService(host='h', engine_id='e1')
    service.start()    # an RPC server on topic engine_worker, server=engine_id
    service.stop()     # stops taking messages; running nodes finish or are handed back

A stopping worker gives its running nodes ``graceful_shutdown_timeout`` seconds to
finish, then stops them (``<ACTION>_FAILED "Worker went down during resource
<ACTION>"``) and casts each node's message again, for another worker to take over.

Stopping a stack's running traversal lives here too, as Heat's ``_stop_traversal`` and
``_cancel_workers`` do; the engine's endpoints (delete, abandon, cancel) call it:

    with cancelling_running(stack):      # stop_traversal(stack) ... cancel_workers(stack)
        stack.converge_stack(templates.empty_like(stack.t), action='DELETE')
"""

import collections
import contextlib
import functools
import logging
import threading
import time
import uuid

import oslo_messaging

from heat_lite.common import messaging
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import check_resource, liveness, stack_watch, sync_point, threads
from heat_lite.engine import resource as rsrc_mod
from heat_lite.engine.clients.rest import session
from heat_lite.rpc import api as rpc_api
from heat_lite.rpc import worker_client

LOG = logging.getLogger(__name__)


class Task(threading.Event):
    """A running node's cancel event; ``reason`` says why it was cancelled, if not by
    the user (Resource._run_action stores it as the resource's FAILED reason). Setting
    it also sets the events ``linked`` to it (a poll waiting on another event too)."""

    reason = None

    def __init__(self):
        super().__init__()
        self.linked = set()

    def set(self):
        super().set()
        for event in list(self.linked):
            event.set()


# the arguments of check_resource that say how the traversal goes on (CheckResource.check
# passes them along with every node it makes ready)
_HOW_IT_GOES_ON = (
    "skip_propagate",
    "accumulated_failures",
    "abandon",
    "adopt_stack_data",
    "converge",
)


class WorkerService:
    RPC_API_VERSION = rpc_api.WORKER_RPC_VERSION
    target = oslo_messaging.Target(version=RPC_API_VERSION)

    def __init__(self, host, engine_id, rpc_client=None):
        """``rpc_client``: the WorkerClient its casts go through (default: one made by
        start(), on the process's transport)."""
        self.host = host
        self.engine_id = engine_id
        self._rpc_server = None
        self._client = rpc_client
        self._stopping = False
        self.processed = 0
        # stack id -> the cancel Events of the nodes running here (cancel_check_resource)
        self._running = collections.defaultdict(set)
        self._running_lock = threading.Lock()
        self._registration = liveness.Registration(
            host, engine_id, "heat-worker", rpc_api.WORKER_TOPIC
        )

    def start(self):
        target = oslo_messaging.Target(
            topic=rpc_api.WORKER_TOPIC, server=self.engine_id, version=self.RPC_API_VERSION
        )
        if self._client is None:
            self._client = worker_client.WorkerClient()
        self._registration.start()
        self._rpc_server = messaging.get_rpc_server(target, [self])
        self._rpc_server.start()
        LOG.info("heat-lite-worker %s listening on topic %s", self.engine_id, rpc_api.WORKER_TOPIC)
        threads.spawn(session.warm_up)  # the first stack's first cloud call, made ready

    def stop(self):
        """Stop taking messages; let running nodes finish for graceful_shutdown_timeout
        seconds, then stop and hand back the others; unregister."""
        self._stopping = True  # the nodes running here make no more continuations
        if self._rpc_server is not None:
            self._rpc_server.stop()
            if not self._wait_idle(CONF.graceful_shutdown_timeout):
                self._hand_back_running()
                self._wait_idle(10)
            self._rpc_server.wait()
            self._rpc_server = None
        self._registration.stop()

    def _wait_idle(self, timeout):
        deadline = time.monotonic() + timeout
        while True:
            with self._running_lock:
                if not self._running:
                    return True
            if time.monotonic() >= deadline:
                return False
            time.sleep(0.05)

    def _hand_back_running(self):
        with self._running_lock:
            tasks = [task for tasks in self._running.values() for task in tasks]
        LOG.info("Stopping: handing back %d running node(s)", len(tasks))
        for task in tasks:
            task.reason = rsrc_mod.went_down_reason
            task.set()

    def check_resource(
        self,
        cnxt,
        resource_id,
        current_traversal,
        data,
        is_update,
        adopt_stack_data,
        converge=False,
        skip_propagate=False,
        accumulated_failures=None,
        node_type="resource",
        abandon=False,
    ):
        """Process one graph node (docs/rpc-and-convergence.md §4.5), then, one after
        another, the first node each one makes ready: its message is not sent, this
        worker checks it next (a chain's links without a RabbitMQ round trip each). The
        other nodes a report makes ready are cast as usual.

        :param resource_id: the resource row's id
        :param current_traversal: the traversal the message belongs to
        :param data: ``{"input_data": {node key: node data}}`` from the predecessors
        :param is_update: update node (create/update) or cleanup node (delete)
        """
        node = {
            "resource_id": resource_id,
            "current_traversal": current_traversal,
            "data": data,
            "is_update": is_update,
            "adopt_stack_data": adopt_stack_data,
            "converge": converge,
            "skip_propagate": skip_propagate,
            "accumulated_failures": accumulated_failures,
            "abandon": abandon,
        }
        while node is not None:
            node = self._check_node(cnxt, node)

    def _check_node(self, cnxt, node):
        """check_resource of one node (the keyword arguments of its message); the next
        node to check here, or None."""
        resource_id, traversal, is_update = (
            node["resource_id"],
            node["current_traversal"],
            node["is_update"],
        )
        input_data = sync_point.deserialize_input_data((node["data"] or {}).get("input_data"))
        try:
            loaded = check_resource.load_resource(cnxt, resource_id, is_update, input_data)
        except Exception as exc:
            if check_resource.is_transient(exc):
                raise  # the watchdog sends the node again
            check_resource.fail_unloadable(cnxt, resource_id, traversal, is_update, exc)
            return None
        if loaded is None:
            return None
        rsrc, stack = loaded
        rsrc.converge = node["converge"]
        rsrc.cancel_event = Task()
        if stack.current_traversal != traversal:
            LOG.debug("Dropping %s of superseded traversal %s", resource_id, traversal)
            return None
        self.processed += 1
        LOG.info(
            "check_resource %s %s (%s) of stack %s by worker %s",
            "update" if is_update else "cleanup",
            rsrc.name,
            resource_id,
            stack.id,
            self.engine_id,
        )
        # stopped by a shutdown, the node is handed back: the same message again
        hand_back = functools.partial(self._client.check_resource, cnxt, **node)
        checker = check_resource.CheckResource(
            self.engine_id, self._client, continue_here=not self._stopping
        )
        how = {key: node[key] for key in _HOW_IT_GOES_ON}
        try:
            with self._tracked(stack.id, rsrc.cancel_event, hand_back):
                checker.check(cnxt, resource_id, traversal, is_update, rsrc, stack, **how)
        except BaseException:
            self._cast_continuation(cnxt, checker.continuation)
            raise
        if self._stopping:  # stopped meanwhile: another worker takes it on
            self._cast_continuation(cnxt, checker.continuation)
            return None
        # as the node's message would have brought them (JSON, as RPC carries them)
        return messaging.over_the_wire(checker.continuation)

    def _cast_continuation(self, cnxt, node):
        if node is not None:
            self._client.check_resource(cnxt, **node)

    @contextlib.contextmanager
    def _tracked(self, stack_id, task, hand_back):
        """A running node: cancellable (cancel_check_resource, stop); handed back with
        ``hand_back()`` if a stop cancelled it."""
        with self._running_lock:
            self._running[stack_id].add(task)
        try:
            yield
        finally:
            if task.reason is not None:
                hand_back()
            with self._running_lock:
                running = self._running[stack_id]
                running.discard(task)
                if not running:
                    del self._running[stack_id]

    def stack_state_changed(self, cnxt, stack_id):
        """A stack's action ended: wake the polls here that wait for it (1.10)."""
        stack_watch.wake(stack_id)

    def cancel_check_resource(self, cnxt, stack_id):
        """Stop this worker's running tasks of ``stack_id``: each ends
        ``<ACTION>_FAILED "<ACTION> aborted (user triggered cancel)"`` and hands its node to
        the stack's newest traversal (docs/rpc-and-convergence.md §4.14)."""
        with self._running_lock:
            events = list(self._running.get(stack_id, ()))
        LOG.info("Cancelling %d running task(s) of stack %s", len(events), stack_id)
        for cancel in events:
            cancel.set()


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
