"""Transient database errors retried with backoff, as oslo.db's ``wrap_db_retry`` does;
heat-lite, magnum-lite and simcloud each have this decorator (the programs share no code).

    @retry.retry_on_db_error
    def cluster_get_by_uuid(context, uuid):
        ...

A lost or refused connection, too many clients, a deadlock or a serialization failure is
retried ``[database] db_max_retries`` times, ``db_retry_interval`` seconds apart at first,
doubled each time up to ``db_max_retry_interval`` (with jitter). A call made inside
another retried call is not retried on its own: the outer one repeats it whole.
"""

import functools
import logging
import random
import threading
import time

from sqlalchemy import exc as sa_exc

LOG = logging.getLogger(__name__)

_TRANSIENT_PGCODES = {
    "40001",  # serialization_failure
    "40P01",  # deadlock_detected
    "53300",  # too_many_connections
    "57P01",  # admin_shutdown (the backend was terminated)
    "57P02",  # crash_shutdown
    "57P03",  # cannot_connect_now (starting up)
}
_TRANSIENT_MESSAGES = (
    "too many clients",
    "remaining connection slots",
    "server closed the connection",
    "terminating connection",
    "could not connect",
    "connection refused",
    "connection already closed",
    "database is locked",
    "deadlock detected",
    "could not serialize",
)
_STATE = threading.local()


def is_transient_db_error(exc):
    """Whether ``exc`` is a database error that a retry may get past."""
    if isinstance(exc, sa_exc.DisconnectionError):
        return True
    if not isinstance(exc, sa_exc.DBAPIError):
        return False
    if exc.connection_invalidated:
        return True
    code = getattr(exc.orig, "pgcode", None)
    if code is not None:
        return code in _TRANSIENT_PGCODES or code.startswith("08")
    if not isinstance(exc, (sa_exc.OperationalError, sa_exc.InterfaceError)):
        return False
    text = str(exc.orig).lower()
    return any(message in text for message in _TRANSIENT_MESSAGES)


def retry_on_db_error(func):
    """``func``, retried on a transient database error (see the module's docstring)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if getattr(_STATE, "active", False):
            return func(*args, **kwargs)
        _STATE.active = True
        try:
            return _call(func, args, kwargs)
        finally:
            _STATE.active = False

    return wrapper


def _call(func, args, kwargs):
    from magnum_lite.conf import CONF

    opts = CONF.database
    interval = opts.db_retry_interval
    for attempt in range(opts.db_max_retries + 1):
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            if attempt == opts.db_max_retries or not is_transient_db_error(exc):
                raise
            LOG.warning(
                "Transient database error in %s (%s); retry %d in %.2f s",
                func.__name__,
                str(exc.orig if hasattr(exc, "orig") else exc).strip().splitlines()[0][:200],
                attempt + 1,
                interval,
            )
        time.sleep(interval * random.uniform(0.5, 1.0))
        interval = min(interval * 2, opts.db_max_retry_interval)
