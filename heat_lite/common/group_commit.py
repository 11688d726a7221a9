"""Group commit: callers with the same key share one round trip to the database.

    reports = GroupCommit(send, max_items=100, tag=lambda item: item.sender)
    result = reports.submit(key, item)   # send(key, [item, ...]) -> [result, ...]

One batch per key is in flight at a time. Callers that come meanwhile queue; when the
batch ends, the first of them sends everything queued (up to ``max_items``, at most one
item per ``tag``) as the next batch, and each caller gets its own item's result (raised
if it is an exception), or the exception ``send`` raised for the whole batch. A key's
items go one round trip at a time, as a lock per key would send them, but a round trip
carries all that queued behind it. ``alone(exc)``: a batch that failed with ``exc`` is
sent again one item at a time, so that only the item at fault gets the error; any other
error (a lost connection) is every caller's, and each caller's retry submits its own item
again (heat_lite.db.retry: ResourceWrite.run, a sync point report's send).

Safe across threads and eventlet's green threads (threading's primitives, which the
services' monkey-patching makes green).
"""

import threading


class _Waiter:
    __slots__ = ("item", "event", "result", "error", "done", "leads")

    def __init__(self, item):
        self.item = item
        self.event = threading.Event()
        self.result = self.error = None
        self.done = self.leads = False


class GroupCommit:
    def __init__(self, send, max_items=100, tag=None, alone=None):
        self._send = send
        self._alone = alone or (lambda exc: False)
        self._max_items = max_items
        self._tag = tag or id
        self._guard = threading.Lock()
        self._queues = {}  # key -> waiters queued behind its batch in flight

    def submit(self, key, item):
        waiter = _Waiter(item)
        with self._guard:
            queue = self._queues.get(key)
            if queue is None:
                self._queues[key] = []
                waiter.leads = True
            else:
                queue.append(waiter)
        if not waiter.leads:
            try:
                waiter.event.wait()
            except BaseException:
                self._abandon(key, waiter)
                raise
        if not waiter.done:
            self._lead(key, waiter)
        if waiter.error is not None:
            raise waiter.error
        return waiter.result

    def _lead(self, key, leader):
        batch = [leader]
        try:
            with self._guard:
                batch += self._take(self._queues[key], {self._tag(leader.item)})
            for waiter, result in zip(batch, self._results(key, batch), strict=True):
                if isinstance(result, BaseException):
                    waiter.error = result
                else:
                    waiter.result = result
        except BaseException as exc:  # the leader's thread is being killed
            for waiter in batch[1:]:
                waiter.error = RuntimeError("report abandoned: %r" % exc)
            raise
        finally:
            for waiter in batch:
                waiter.done = True
                if waiter is not leader:
                    waiter.event.set()
            self._hand_over(key)

    def _results(self, key, batch):
        try:
            return self._send(key, [waiter.item for waiter in batch])
        except Exception as exc:
            if len(batch) == 1 or not self._alone(exc):
                return [exc] * len(batch)
        results = []
        for waiter in batch:
            try:
                (result,) = self._send(key, [waiter.item])
            except Exception as exc:
                result = exc
            results.append(result)
        return results

    def _take(self, queue, tags):
        """Remove from ``queue`` and return the next batch's followers."""
        taken, kept = [], []
        for waiter in queue:
            tag = self._tag(waiter.item)
            if len(taken) + 1 < self._max_items and tag not in tags:
                tags.add(tag)
                taken.append(waiter)
            else:
                kept.append(waiter)
        queue[:] = kept
        return taken

    def _hand_over(self, key):
        """The batch of ``key`` ended: the first one queued leads the next, if any."""
        with self._guard:
            queue = self._queues[key]
            if not queue:
                del self._queues[key]
                return
            successor = queue.pop(0)
            successor.leads = True
        successor.event.set()

    def _abandon(self, key, waiter):
        """A queued caller stops waiting (its thread is being killed): it leaves the
        queue, or, promoted meanwhile, hands the lead on."""
        with self._guard:
            queue = self._queues.get(key)
            if queue is not None and waiter in queue:
                queue.remove(waiter)
                return
        if waiter.leads and not waiter.done:
            self._hand_over(key)

    def __len__(self):
        """How many keys have a batch in flight now."""
        with self._guard:
            return len(self._queues)
