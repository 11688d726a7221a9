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
# the attempt of the retried call running in this thread (0: the first), None outside
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


def retrying():
    """Whether this attempt repeats a call whose earlier attempt ended in a transient
    error: that attempt's writes may have been committed, so a write looks whether it is
    stored already before it takes a changed row for someone else's."""
    return bool(getattr(_STATE, "attempt", None))


def retry_on_db_error(func):
    """``func``, retried on a transient database error (see the module's docstring)."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        if getattr(_STATE, "attempt", None) is not None:
            return func(*args, **kwargs)
        _STATE.attempt = 0
        try:
            return func(*args, **kwargs)
        except Exception as exc:
            if not is_transient_db_error(exc):
                raise
            return _retry(func, args, kwargs, exc)
        finally:
            _STATE.attempt = None

    return wrapper


def _retry(func, args, kwargs, exc):
    """The attempts after a first transient error ``exc`` (the configuration is read only
    now: the first attempt of every call costs nothing more than the call)."""
    from magnum_lite.conf import CONF

    opts = CONF.database
    interval = opts.db_retry_interval
    for attempt in range(1, opts.db_max_retries + 1):
        LOG.warning(
            "Transient database error in %s (%s); retry %d in %.2f s",
            func.__qualname__,
            _short(exc),
            attempt,
            interval,
        )
        time.sleep(interval * random.uniform(0.5, 1.0))
        interval = min(interval * 2, opts.db_max_retry_interval)
        _STATE.attempt = attempt
        try:
            return func(*args, **kwargs)
        except Exception as again:
            if not is_transient_db_error(again):
                raise
            exc = again
    raise exc


def _short(exc):
    lines = str(getattr(exc, "orig", exc)).strip().splitlines()
    return lines[0][:200] if lines else type(exc).__name__
