"""WorkerClient: casts to topic ``engine_worker`` (any worker may pick a message up).

Version history: 1.1 check_resource; 1.2 adopt data; 1.3 cancel_check_resource;
1.4 converge; 1.5 skip_propagate; 1.6 accumulated_failures; 1.7
check_resource_delete_snapshot; 1.8 node_type; 1.9 abandon; 1.10 stack_state_changed.

    WorkerClient().check_resource(ctx, 7, traversal, {'input_data': {}}, True, None)

The casts go through oslo.messaging on the process's transport (messaging.setup). A test
may route every WorkerClient's casts to a fake instead, one that queues them to deliver
them itself (tests/unit/heat_lite/engine/convergence/simulator.py):

    with worker_client.routed_to(fake):     # fake.prepare(**options).cast(ctxt, method, **kw)
        ...
"""

import contextlib
import threading

from heat_lite.common import messaging
from heat_lite.rpc import api as rpc_api

_routed_to = None  # the RPC client every WorkerClient casts through instead, if any


@contextlib.contextmanager
def routed_to(rpc_client):
    """In the block, every WorkerClient casts through ``rpc_client`` (an object with
    oslo.messaging RPCClient's ``prepare(**options)`` and ``cast(ctxt, method, **kwargs)``)
    and needs no transport; cast_all sends in order, on the caller's thread."""
    global _routed_to
    previous, _routed_to = _routed_to, rpc_client
    try:
        yield rpc_client
    finally:
        _routed_to = previous


class WorkerClient:
    BASE_RPC_API_VERSION = "1.0"

    def __init__(self):
        self._client = None
        if _routed_to is None:
            self._client = messaging.get_rpc_client(
                topic=rpc_api.WORKER_TOPIC, version=self.BASE_RPC_API_VERSION
            )

    def _prepare(self, **options):
        return (self._client if _routed_to is None else _routed_to).prepare(**options)

    def check_resource(
        self,
        ctxt,
        resource_id,
        current_traversal,
        data,
        is_update,
        adopt_stack_data,
        converge=False,
        skip_propagate=False,
        accumulated_failures=None,
        abandon=False,
    ):
        self._prepare(version="1.9").cast(
            ctxt,
            "check_resource",
            resource_id=resource_id,
            current_traversal=current_traversal,
            data=data,
            is_update=is_update,
            adopt_stack_data=adopt_stack_data,
            converge=converge,
            skip_propagate=skip_propagate,
            accumulated_failures=accumulated_failures,
            node_type="resource",
            abandon=abandon,
        )

    def cancel_check_resource(self, ctxt, stack_id, engine_id):
        """Tell worker ``engine_id`` to stop its running tasks of stack ``stack_id``."""
        self._prepare(server=engine_id, version="1.3").cast(
            ctxt, "cancel_check_resource", stack_id=stack_id
        )

    def stack_state_changed(self, ctxt, stack_id):
        """Tell every worker that stack ``stack_id``'s action ended (a fanout cast): the
        parent resource polling it wakes at once (engine/stack_watch.py)."""
        self._prepare(fanout=True, version="1.10").cast(
            ctxt, "stack_state_changed", stack_id=stack_id
        )


# Many casts at once (the leaves of a traversal; the sync points a node completes, such
# as the whole next layer under full fan-in) go out over this many threads, so that
# RabbitMQ's publish confirms overlap instead of queueing one behind another.
CAST_THREADS = 8


def cast_all(casts):
    """Call every ``casts`` item (a prepared cast), over up to CAST_THREADS threads;
    re-raises the first failure once all have been tried."""
    failures = []

    def run(chunk):
        for cast in chunk:
            try:
                cast()
            except Exception as exc:  # re-raised below, once the others are sent
                failures.append(exc)

    if len(casts) <= 2 or _routed_to is not None:
        run(casts)  # not worth a thread (or queued in this process)
    else:
        threads = [
            threading.Thread(target=run, args=(casts[i::CAST_THREADS],))
            for i in range(min(CAST_THREADS, len(casts)))
        ]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    if failures:
        raise failures[0]
