"""Waking the resources that wait for a nested stack (docs/rpc-and-convergence.md §3.2).

A nested stack's parent resource polls the child's row until its action ends
(``check_*_complete``, as Heat does), backing off to ``POLL_CAP`` between polls. So that a
finished child is seen at once and not at the next poll, the engine that stores a
nested stack's final state tells every worker (a fanout cast, ``stack_state_changed``),
and each worker wakes the polls waiting for that stack. The poll stays the truth: a
lost announcement only costs the time to the next poll.

    with stack_watch.watching(child_id) as woken:   # in Resource._poll
        woken.wait(0.25)                            # returns early once the child is done
    stack_watch.announce(child_stack)               # after its final state is stored
"""

import collections
import contextlib
import logging
import threading

from heat_lite.rpc import api as rpc_api

LOG = logging.getLogger(__name__)

_lock = threading.Lock()
_waiters = collections.defaultdict(set)
_client = None


@contextlib.contextmanager
def watching(stack_id):
    """An Event set whenever ``stack_id``'s state is announced while the block runs."""
    woken = threading.Event()
    with _lock:
        _waiters[stack_id].add(woken)
    try:
        yield woken
    finally:
        with _lock:
            waiting = _waiters.get(stack_id)
            if waiting is not None:
                waiting.discard(woken)
                if not waiting:
                    del _waiters[stack_id]


def wake(stack_id):
    """Wake this process's polls waiting for ``stack_id``."""
    with _lock:
        waiting = list(_waiters.get(stack_id, ()))
    for woken in waiting:
        woken.set()


def announce(stack):
    """Tell every worker that nested stack ``stack``'s action ended (a top-level stack
    has no parent resource waiting for it; IN_PROGRESS wakes nobody)."""
    if stack.owner_id is None or stack.status == rpc_api.IN_PROGRESS:
        return
    wake(stack.id)
    global _client
    try:
        if _client is None:
            from heat_lite.rpc import worker_client

            _client = worker_client.WorkerClient()
        _client.stack_state_changed(stack.context, stack.id)
    except Exception:
        # the parent's poll sees the state anyway
        LOG.warning("Could not announce the state of stack %s", stack.id, exc_info=True)
