"""A deterministic convergence simulator: the real engine and worker, one step at a time.

The engine's endpoint (StackMethods: create, update, delete), the worker
(WorkerService.check_resource), CheckResource and the sync points run as they are, on a
SQLite file, in the test's thread. What would leave a step, the casts to the workers and
the engine's background work, is queued instead:

* every WorkerClient casts through the simulator's fake RPC client
  (worker_client.routed_to): a queued ``Cast`` is delivered to the worker with its context
  and arguments as RPC carries them (JSON);
* ``threads.spawn`` (the engine starting a traversal, purging a stack) queues a ``Spawn``
  that runs when delivered.

The test chooses the order the queue is delivered in (first in first out, last in first
out, a seeded random order, or items it picks), drops a message (lost with a worker), and
reads what happened: the resources' actions in the order their events were stored, the
sync points of a traversal, the stack's state.

    sim = Simulator(tmp_path, monkeypatch)
    ident = sim.create("s", template)
    sim.run(order=7)                 # random, seed 7; or "fifo", "lifo", a function
    assert sim.state(ident) == "CREATE_COMPLETE"
    sim.close()
"""

import datetime
import random

from heat_lite.common import context, messaging
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import recovery, service, sync_point, threads, worker
from heat_lite.rpc import worker_client

WORKER_ID = "worker-1"


class Cast:
    """A queued cast: ``method(ctxt, **kwargs)`` on the worker(s)."""

    def __init__(self, ctxt, method, kwargs, options):
        self.ctxt = ctxt.to_dict()
        self.method = method
        self.kwargs = messaging.over_the_wire(kwargs)
        self.options = options
        self.checked = None  # (set when delivered)

    def node(self):
        """(resource id, is_update) of a check_resource, else None."""
        if self.method != "check_resource":
            return None
        return self.kwargs["resource_id"], self.kwargs["is_update"]

    def __repr__(self):
        node = self.node()
        return "Cast(%s %s)" % (self.method, node if node else "")


class Spawn:
    """Queued background work of the engine: ``func(*args, **kwargs)``."""

    def __init__(self, func, args, kwargs):
        self.func, self.args, self.kwargs = func, args, kwargs

    def __repr__(self):
        return "Spawn(%s)" % getattr(self.func, "__qualname__", self.func)


class FakeRPCClient:
    """What oslo.messaging's RPCClient offers WorkerClient: prepare(...).cast(...)."""

    def __init__(self, sim, options=None):
        self._sim, self._options = sim, options or {}

    def prepare(self, **options):
        return FakeRPCClient(self._sim, dict(self._options, **options))

    def cast(self, ctxt, method, **kwargs):
        self._sim.queue(Cast(ctxt, method, kwargs, self._options))


class Simulator:
    def __init__(self, tmp_path, monkeypatch):
        url = "sqlite:///%s" % (tmp_path / "heat.sqlite")
        CONF([], project="heat", default_config_files=[])
        CONF.set_override("connection", url, group="database")
        db_api.configure(url)
        db_api.create_schema()
        self.pending = []
        self.delivered = []
        self.on_next_cast = None  # called once with the next Cast, as it is queued
        self._monkeypatch = monkeypatch
        monkeypatch.setattr(threads, "spawn", self._spawn)
        self._routing = worker_client.routed_to(FakeRPCClient(self))
        self._routing.__enter__()
        self.worker = worker.WorkerService("sim-host", WORKER_ID, worker_client.WorkerClient())
        self.engine = service.StackMethods()
        self.ctx = context.RequestContext(
            user_id="u1", project_id="p1", username="demo", roles=["member"]
        )

    def close(self):
        self._routing.__exit__(None, None, None)
        db_api.dispose()
        CONF.reset()
        CONF.clear_override("connection", group="database")

    def _spawn(self, func, *args, **kwargs):
        self.pending.append(Spawn(func, args, kwargs))

    def queue(self, cast):
        """Queue a cast; ``on_next_cast`` (another engine's move, made at that instant,
        in the middle of the step that casts) runs once, then."""
        self.pending.append(cast)
        hook, self.on_next_cast = self.on_next_cast, None
        if hook is not None:
            hook(cast)

    # -- the engine's entry points ---------------------------------------------------------

    def create(self, name, template, disable_rollback=True):
        args = {"disable_rollback": disable_rollback}
        return self.engine.create_stack(self.ctx, name, template, {}, {}, args)

    def update(self, ident, template):
        return self.engine.update_stack(self.ctx, ident, template, {}, {}, {})

    def delete(self, ident):
        self.engine.delete_stack(self.ctx, ident)

    def watchdog_pass(self, later=0):
        """One pass of the engine's watchdog (recovery.check_all), its clock ``later``
        seconds ahead (a traversal stalls after convergence_stall_timeout)."""
        now = db_api.utcnow
        with self._monkeypatch.context() as patch:
            patch.setattr(db_api, "utcnow", lambda: now() + datetime.timedelta(seconds=later))
            recovery.check_all()

    # -- delivering the queue --------------------------------------------------------------

    def step(self, index=0):
        """Deliver the ``index``-th pending item; returns it. A Cast's ``checked`` is
        then how many nodes the worker checked for it (0: dropped, more than 1: it went
        on with the nodes it made ready itself)."""
        item = self.pending.pop(index)
        self.delivered.append(item)
        if isinstance(item, Spawn):
            item.func(*item.args, **item.kwargs)
            return item
        before = self.worker.processed
        handler = getattr(self.worker, item.method)
        handler(context.RequestContext.from_dict(item.ctxt), **item.kwargs)
        item.checked = self.worker.processed - before
        return item

    def run(self, order="fifo", limit=500):
        """Deliver until nothing is pending: ``order`` is "fifo", "lifo", an int (the
        seed of a random order) or a function of the pending list that gives the index
        to deliver next."""
        choose = _chooser(order)
        for _ in range(limit):
            if not self.pending:
                return
            self.step(choose(self.pending))
        raise AssertionError("still pending after %d steps: %s" % (limit, self.pending))

    def take(self, name, is_update=True):
        """Remove the pending check_resource of resource ``name`` (its message is lost)."""
        for index, item in enumerate(self.pending):
            node = isinstance(item, Cast) and item.node()
            if node and node[1] == is_update and self.resource_name(node[0]) == name:
                return self.pending.pop(index)
        raise AssertionError("no pending check of %s in %s" % (name, self.pending))

    # -- what happened ---------------------------------------------------------------------

    def stack_row(self, ident):
        return db_api.stack_get(ident["stack_id"], show_deleted=True)

    def state(self, ident):
        row = self.stack_row(ident)
        return "%s_%s" % (row.action, row.status)

    def resource_name(self, resource_id):
        row, _stack = db_api.resource_get_with_stack(resource_id)
        return row.name if row is not None else None

    def events(self, ident):
        """(name, action, status) of the stack's resources, in the order stored."""
        rows = db_api.event_get_all_by_stacks([ident["stack_id"]])
        return [
            (e.resource_name, e.resource_action, e.resource_status)
            for e in sorted(rows, key=lambda e: e.id)
            if e.resource_type != "OS::Heat::Stack"
        ]

    def resources(self, ident):
        """(name, action, status) of the stack's resource rows, sorted."""
        rows = db_api.resource_get_all_by_stack(ident["stack_id"])
        return sorted((r.name, r.action, r.status) for r in rows)

    def completed(self, ident, action):
        """The names of the resources in the order their ``action`` completed."""
        return [
            name
            for name, act, status in self.events(ident)
            if (act, status) == (action, "COMPLETE")
        ]

    def sync_points(self, ident):
        """{(resource name or "stack", is_update): sorted senders' names} of the current
        traversal's sync points."""
        row = self.stack_row(ident)
        points = db_api.sync_point_get_all_by_traversal(row.id, row.current_traversal)
        result = {}
        for point in points:
            target = (
                "stack" if point.entity_id == row.id else self.resource_name(int(point.entity_id))
            )
            senders = (point.input_data or {}).get("input_data") or {}
            names = sorted(self.resource_name(sync_point.parse_key(k)[0]) for k in senders)
            result[(target, point.is_update)] = names
        return result


def _chooser(order):
    if order == "fifo":
        return lambda pending: 0
    if order == "lifo":
        return lambda pending: len(pending) - 1
    if isinstance(order, int):
        rng = random.Random(order)
        return lambda pending: rng.randrange(len(pending))
    return order
