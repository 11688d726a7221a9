"""WorkerClient: casts to topic ``engine_worker`` (any worker may pick a message up).

Version history: 1.1 check_resource; 1.2 adopt data; 1.3 cancel_check_resource;
1.4 converge; 1.5 skip_propagate; 1.6 accumulated_failures; 1.7
check_resource_delete_snapshot; 1.8 node_type; 1.9 abandon; 1.10 stack_state_changed.

    WorkerClient().check_resource(ctx, 7, traversal, {'input_data': {}}, True, None)
"""

import threading

from heat_lite.common import messaging
from heat_lite.rpc import api as rpc_api


class WorkerClient:
    BASE_RPC_API_VERSION = "1.0"

    def __init__(self):
        self._client = messaging.get_rpc_client(
            topic=rpc_api.WORKER_TOPIC, version=self.BASE_RPC_API_VERSION
        )

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
        self._client.prepare(version="1.9").cast(
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
        self._client.prepare(server=engine_id, version="1.3").cast(
            ctxt, "cancel_check_resource", stack_id=stack_id
        )

    def stack_state_changed(self, ctxt, stack_id):
        """Tell every worker that stack ``stack_id``'s action ended (a fanout cast): the
        parent resource polling it wakes at once (engine/stack_watch.py)."""
        self._client.prepare(fanout=True, version="1.10").cast(
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

    if len(casts) <= 2:
        run(casts)  # not worth a thread
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
