"""Background work of the engine and workers.

Console scripts monkey-patch eventlet first thing, so these threads are green threads
there; in plain Python (unit tests) they are native threads.

    threads.spawn(stack._converge_create_or_update)
"""

import logging
import threading

LOG = logging.getLogger(__name__)


def _run(func, args, kwargs):
    try:
        func(*args, **kwargs)
    except Exception:
        LOG.exception("Unhandled error in %s", getattr(func, "__qualname__", func))


def spawn(func, *args, **kwargs):
    thread = threading.Thread(target=_run, args=(func, args, kwargs), daemon=True)
    thread.start()
    return thread
