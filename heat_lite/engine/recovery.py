"""The engine's watchdog: no traversal stays IN_PROGRESS for ever.

Convergence messages are casts; a message lost with a dead worker, a dead engine, a
broker that went away or a handler that failed leaves its node unchecked, and nothing in
the traversal itself would ever notice. Every ``convergence_watchdog_interval`` seconds
(and once when the engine starts) each engine looks at the stacks in progress:

* a stack past its timeout is marked FAILED "Timed out", running node or not;
* a traversal whose engine died before it was started (its stack_lock is held by a dead
  engine) is started again, or failed when it needs data only that engine had; the
  restart holds the lock and re-reads the stack first, so a traversal superseded since
  the pass read it (a delete begun meanwhile) is left alone;
* a traversal with a resource locked by a dead engine or worker, or one that made no
  progress for ``convergence_stall_timeout`` seconds, has the check of each of its ready
  nodes sent again: nodes whose inputs are all in but whose output is missing somewhere.
  The worker that gets a node whose lock a dead engine holds steals it (Heat's stale
  lock check, heat_lite.engine.check_resource), so the traversal completes by itself.

Re-sending is safe: a node whose resource is done just passes its data on again, and one
that a live worker is running is dropped.

    watchdog = recovery.Watchdog(engine_id)
    watchdog.start()      # a background thread; watchdog.stop()
"""

import logging
import threading

from heat_lite.common import context as context_mod
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import liveness, sync_point
from heat_lite.engine import stack as parser
from heat_lite.rpc import api as rpc_api
from heat_lite.rpc import worker_client

LOG = logging.getLogger(__name__)

# traversals that need data only their starting engine had (adopt data, saved resources)
_NOT_RESUMABLE = (rpc_api.ADOPT, rpc_api.RESTORE)


class Watchdog:
    def __init__(self, engine_id):
        self.engine_id = engine_id
        self._stop = threading.Event()
        self._thread = None

    def start(self):
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def stop(self):
        self._stop.set()

    def _run(self):
        while not self._stop.is_set():
            try:
                check_all()
            except Exception:
                LOG.exception("Convergence watchdog pass failed")
            self._stop.wait(CONF.convergence_watchdog_interval)


def check_all():
    """One pass over every stack in progress (see the module docstring)."""
    liveness.reap_stale_services()
    rows = db_api.stack_get_all_in_progress()
    if not rows:
        return
    alive = _Liveness()
    starters = {lock.stack_id: lock.engine_id for lock in db_api.stack_lock_get_all()}
    orphaned = {
        lock.stack_id
        for lock in db_api.resource_locks_of_stacks_in_progress()
        if not alive(lock.engine_id)
    }
    for row in rows:
        try:
            check_stack(row, starters.get(row.id), row.id in orphaned, alive)
        except Exception:
            LOG.exception("Could not check the traversal of stack %s", row.id)


class _Liveness:
    """is_alive with the answers of one pass remembered (a dead engine costs a timeout)."""

    def __init__(self):
        self._known = {}
        self._cnxt = context_mod.get_admin_context()

    def __call__(self, engine_id):
        if engine_id not in self._known:
            self._known[engine_id] = liveness.is_alive(self._cnxt, engine_id)
        return self._known[engine_id]


def check_stack(row, starter, orphaned, alive):
    """Time out, start again or kick the traversal of one stack in progress (a stack
    that is fine costs one query)."""
    if _timed_out(row):
        LOG.info("Stack %s timed out with no node running", row.id)
        parser.Stack.load(_context(row), row=row).mark_failed("Timed out")
        return
    if starter is not None and alive(starter):
        return  # its engine is still starting it
    if starter is None and not orphaned and not _stalled(row):
        return
    stack = parser.Stack.load(_context(row), row=row)
    current_deps = db_api.stack_deps_get(row.id) or {}
    points = None
    if current_deps.get("traversal") == row.current_traversal:
        points = db_api.sync_point_get_all_by_traversal(row.id, row.current_traversal)
    if not points:
        _restart(stack, starter)
        return
    if starter is not None:
        db_api.stack_lock_release(row.id, starter)
    resend_ready_nodes(stack, current_deps, points, alive)


def _timed_out(row):
    """Whether the stack's action ran out of time (the Stack's own rule, on the row)."""
    return parser.Stack(
        None,
        row.name,
        None,
        status=row.status,
        timeout_mins=row.timeout,
        tenant=row.tenant,
        username=row.username,
        created_time=row.created_at,
        updated_time=row.updated_at,
    ).has_timed_out()


def _stalled(row):
    """No progress for convergence_stall_timeout. A traversal started less than that ago
    cannot have stalled: it is not asked about (a pass over a busy engine's hundreds of
    young stacks asked one query each)."""
    now = db_api.utcnow()
    started = row.updated_at or row.created_at
    if (now - started).total_seconds() <= CONF.convergence_stall_timeout:
        return False
    last = db_api.stack_last_progress(row.id, row.current_traversal)
    last = max(last, started) if last is not None else started
    return (now - last).total_seconds() > CONF.convergence_stall_timeout


def _restart(stack, starter):
    """The traversal was never started (its engine died first): start it now."""
    engine_id = liveness.own_engine_id()
    if starter is not None:
        if not db_api.stack_lock_steal(stack.id, starter, engine_id):
            return
    elif not db_api.stack_lock_take(stack.id, engine_id):
        return  # an engine is starting a new traversal of it right now
    current = db_api.stack_get(stack.id)
    if current is None or (current.current_traversal, current.status) != (
        stack.current_traversal,
        rpc_api.IN_PROGRESS,
    ):
        # a new traversal (a delete) started since this pass read the stack: restarting
        # the old one would store rows for resources the new one already removed
        db_api.stack_lock_release(stack.id, engine_id)
        return
    LOG.info("Engine went down starting %s of stack %s: resuming", stack.action, stack.id)
    if stack.action in _NOT_RESUMABLE:
        db_api.stack_lock_release(stack.id, engine_id)
        stack.mark_failed("Engine went down during stack %s" % stack.action)
        return
    stack._converge_create_or_update()


def resend_ready_nodes(stack, current_deps, points, alive, client=None):
    """Cast check_resource again for every node whose inputs are all in but whose data
    did not reach all of its requirers (the stack's sync point, for a root), unless a
    live engine holds its resource (it is running). Returns how many were sent."""
    deps = parser.deps_from_json(current_deps)
    by_key = {(p.entity_id, p.is_update): p for p in points}
    stack_point = by_key.get((stack.id, True))
    if stack_point is None:
        return
    flags = (stack_point.extra_data or {}).get("traversal") or {}
    rows = {r.id: r for r in db_api.resource_get_all_by_stack(stack.id)}
    client = client or worker_client.WorkerClient()
    sent = 0
    for node in deps:
        point = by_key.get((str(node[0]), node[1]))
        received = _inputs(point)
        if point is None or not all(
            sync_point.make_key(p) in received for p in deps.requires(node)
        ):
            continue
        requirers = [by_key.get((str(r[0]), r[1])) for r in deps.required_by(node)]
        if all(sync_point.make_key(node) in _inputs(p) for p in requirers or [stack_point]):
            continue
        row = rows.get(node[0])
        if row is not None and row.engine_id and alive(row.engine_id):
            continue  # running
        extra = point.extra_data or {}
        client.check_resource(
            stack.context,
            _target(node, row, rows, stack),
            stack.current_traversal,
            {"input_data": received},
            node[1],
            flags.get("adopt_stack_data"),
            converge=flags.get("converge", False),
            skip_propagate=extra.get("skip_propagate", False),
            accumulated_failures=extra.get("resource_failures") or None,
            abandon=flags.get("abandon", False),
        )
        sent += 1
    if sent:
        LOG.info(
            "Re-sent %d node(s) of traversal %s of stack %s",
            sent,
            stack.current_traversal,
            stack.id,
        )
    return sent


def _inputs(point):
    return ((point.input_data or {}).get("input_data") or {}) if point is not None else {}


def _target(node, row, rows, stack):
    """The resource to check for ``node``: its replacement, if this traversal made one."""
    if node[1] and row is not None and row.replaced_by in rows:
        if rows[row.replaced_by].current_template_id == stack.t.id:
            return row.replaced_by
    return node[0]


def _context(row):
    """The context the traversal was started with (kept at the stack's sync point), or
    one for the stack's project."""
    point = db_api.sync_point_get(row.id, row.current_traversal, True)
    flags = ((point.extra_data or {}).get("traversal") or {}) if point is not None else {}
    if flags.get("context"):
        return context_mod.RequestContext.from_dict(flags["context"])
    return context_mod.RequestContext(
        user_id=row.username, project_id=row.tenant, username=row.username, overwrite=False
    )
