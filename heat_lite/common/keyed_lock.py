"""A lock per key, made while someone holds or waits for it and forgotten after.

    locks = KeyedLocks()
    with locks.held(key):     # callers with the same key go one at a time
        ...

(check_resource's caches build each missing value once this way; a traversal's reports
to the database go as group commits instead: heat_lite/common/group_commit.py.)

Safe across threads and eventlet's green threads (the lock is threading's, which the
services' monkey-patching makes green).
"""

import contextlib
import threading


class KeyedLocks:
    def __init__(self):
        self._guard = threading.Lock()
        self._locks = {}  # key -> [lock, number of holders and waiters]

    @contextlib.contextmanager
    def held(self, key):
        with self._guard:
            entry = self._locks.setdefault(key, [threading.Lock(), 0])
            entry[1] += 1
        try:
            with entry[0]:
                yield
        finally:
            with self._guard:
                entry[1] -= 1
                if not entry[1]:
                    del self._locks[key]

    def __len__(self):
        """How many keys are held or waited for now."""
        with self._guard:
            return len(self._locks)
