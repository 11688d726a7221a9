"""Work off the eventlet hub, with a bounded amount of CPU time if asked.

    value = cpu_budget.call(statement.evaluate, data, context, seconds=1.0, what='yaql')
    tmpl = cpu_budget.call(template_format.parse, text)        # off the hub, unbounded

The services run on eventlet: a green thread that computes for long holds every other
request of every project (and the service's own heartbeats and RPC replies) for as long.
``call`` runs ``func`` in a native thread of eventlet's pool when the process is
monkey-patched, so the hub keeps serving while it computes (the GIL is handed over
every few milliseconds), and with ``seconds`` stops it once it has used that much CPU
time: ``RequestLimitExceeded``. In a process that is not monkey-patched (unit tests) it
runs in the calling thread, bounded the same way.

The bound is enforced by a trace function of the evaluating thread that looks at the
thread's CPU clock every ``CHECK_EVERY`` Python calls. Once over, it arms a profile
function that raises ``_OverBudget`` at the thread's next call or return (a
BaseException, so that no ``except Exception`` inside the evaluated code swallows it).
The tracer itself never raises: the interpreter removes a trace or profile function that
raises, and a stop that is swallowed anyway (a ``__del__`` or a weakref callback run by
the garbage collector in the middle of the evaluation swallows every exception, and so
does an ``except BaseException``) would otherwise leave the evaluation unbounded. The
tracer stays and arms the stop again ``CHECK_EVERY`` calls later, until one gets out.
Code that runs long without a Python call (one huge C-level operation) is not
interrupted: the evaluated library must bound those itself (yaql's memory quota and
iterator limit do).
"""

import sys
import time

from eventlet import patcher, tpool

from heat_lite.common import exception

CHECK_EVERY = 1000


class _OverBudget(BaseException):
    """Raised inside the evaluation by the trace function."""


class _Exceeded(Exception):
    """The evaluation was stopped (an ordinary exception, to cross eventlet's tpool)."""


def _run_bounded(func, args, seconds):
    if seconds is None:
        return func(*args)
    deadline = time.thread_time() + seconds
    calls = 0
    running = True

    def stop(frame, event, arg):
        if running:
            raise _OverBudget()  # and the interpreter removes this profile function

    def tracer(frame, event, arg):
        nonlocal calls
        calls += 1
        if calls % CHECK_EVERY == 0 and time.thread_time() > deadline:
            sys.setprofile(stop)
        return None  # no line events: only calls are counted

    previous_trace, previous_profile = sys.gettrace(), sys.getprofile()
    try:
        sys.settrace(tracer)
        try:
            return func(*args)
        finally:
            running = False  # a stop still armed lets the two calls below through
            sys.settrace(previous_trace)
            sys.setprofile(previous_profile)
    except _OverBudget:
        raise _Exceeded()


def call(func, *args, seconds=None, what=None):
    """``func(*args)`` off the hub, with at most ``seconds`` of CPU time when given
    (``what`` names it in the error)."""
    try:
        if patcher.is_monkey_patched("thread"):
            return tpool.execute(_run_bounded, func, args, seconds)
        return _run_bounded(func, args, seconds)
    except _Exceeded:
        raise exception.RequestLimitExceeded(
            message="%s took more than %s seconds of CPU time to evaluate." % (what, seconds)
        )
