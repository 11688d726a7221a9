"""The watchdog's choice of nodes to send again: ready (every input in), not propagated
(its key missing at a requirer's sync point, or at the stack's for a root), and not
held by a live engine."""

import types
import uuid

import pytest

from heat_lite.db import api as db_api
from heat_lite.engine import recovery, sync_point
from heat_lite.engine import stack as parser

pytestmark = pytest.mark.unit

TRAVERSAL = "t1"


class FakeClient:
    def __init__(self):
        self.sent = []

    def check_resource(self, cnxt, resource_id, traversal, data, is_update, adopt, **flags):
        self.sent.append((resource_id, is_update, data["input_data"], flags))


@pytest.fixture
def chain():
    """a <- b <- c (update nodes), stored; {name: resource id} and the stack."""
    db_api.configure("sqlite://")
    db_api.create_schema()
    tmpl_id = db_api.raw_template_create({"heat_template_version": "2015-04-30"}, {})
    sid = str(uuid.uuid4())
    db_api.stack_create(
        {"id": sid, "name": "s", "raw_template_id": tmpl_id, "disable_rollback": True}
    )
    rows = [{"name": n, "stack_id": sid, "action": "INIT", "status": "COMPLETE"} for n in "abc"]
    ids = dict(zip("abc", db_api.resource_create_many(rows), strict=True))
    deps = parser.Dependencies()
    deps.add((ids["a"], True))
    deps.add((ids["b"], True), (ids["a"], True))
    deps.add((ids["c"], True), (ids["b"], True))
    flags = {"traversal": {"converge": True}}
    db_api.sync_point_create_many(sync_point.rows(sid, TRAVERSAL, deps.nodes(), flags))
    stack = types.SimpleNamespace(
        id=sid, current_traversal=TRAVERSAL, context=None, t=types.SimpleNamespace(id=tmpl_id)
    )
    yield ids, stack, parser.deps_to_json(deps, TRAVERSAL)
    db_api.dispose()


def _report(node, to):
    db_api.sync_point_add_input([to], TRAVERSAL, True, sync_point.make_key(node), {})


def _resend(stack, current_deps, alive=lambda engine_id: False):
    client = FakeClient()
    points = db_api.sync_point_get_all_by_traversal(stack.id, TRAVERSAL)
    recovery.resend_ready_nodes(stack, current_deps, points, alive, client)
    return client.sent


def test_the_ready_node_that_did_not_report_is_sent_again(chain):
    ids, stack, current_deps = chain
    _report((ids["a"], True), ids["b"])  # a done; b's message was lost

    sent = _resend(stack, current_deps)

    assert [(rid, is_update) for rid, is_update, _data, _flags in sent] == [(ids["b"], True)]
    _rid, _up, input_data, flags = sent[0]
    assert input_data == {sync_point.make_key((ids["a"], True)): {}}
    assert flags["converge"] is True  # the traversal's flags come along


def test_a_leaf_is_ready_and_a_root_reports_to_the_stack(chain):
    ids, stack, current_deps = chain
    assert [s[0] for s in _resend(stack, current_deps)] == [ids["a"]]
    _report((ids["a"], True), ids["b"])
    _report((ids["b"], True), ids["c"])
    assert [s[0] for s in _resend(stack, current_deps)] == [ids["c"]]
    _report((ids["c"], True), stack.id)
    assert _resend(stack, current_deps) == []


def test_a_node_held_by_a_live_engine_is_left_alone(chain):
    ids, stack, current_deps = chain
    db_api.resource_update(ids["a"], {"engine_id": "e-live"}, 0)

    assert _resend(stack, current_deps, alive=lambda engine_id: engine_id == "e-live") == []
    assert [s[0] for s in _resend(stack, current_deps, alive=lambda e: False)] == [ids["a"]]


@pytest.fixture
def own_engine(monkeypatch):
    monkeypatch.setattr(recovery.liveness, "own_engine_id", lambda: "me")
    return "me"


def _stale_stack(stack_id, restarted, traversal=TRAVERSAL):
    """The stack as a watchdog pass read it, whose restart is recorded in ``restarted``."""
    return types.SimpleNamespace(
        id=stack_id,
        action="CREATE",
        current_traversal=traversal,
        _converge_create_or_update=lambda: restarted.append(stack_id),
    )


def test_restart_skips_a_traversal_superseded_since_the_pass_read_it(chain, own_engine):
    _ids, stack, _deps = chain
    # a delete started after the pass read the stack in CREATE_IN_PROGRESS
    db_api.stack_update(stack.id, {"action": "DELETE", "status": "IN_PROGRESS"})
    db_api.stack_update(stack.id, {"current_traversal": "the delete's"})
    restarted = []
    recovery._restart(_stale_stack(stack.id, restarted), None)
    assert restarted == []
    assert db_api.stack_lock_get_all() == []


def test_restart_resumes_a_traversal_nobody_started(chain, own_engine):
    _ids, stack, _deps = chain
    db_api.stack_update(stack.id, {"status": "IN_PROGRESS", "current_traversal": TRAVERSAL})
    restarted = []
    recovery._restart(_stale_stack(stack.id, restarted), None)
    assert restarted == [stack.id]


def test_restart_leaves_a_traversal_another_engine_is_starting(chain, own_engine):
    _ids, stack, _deps = chain
    db_api.stack_update(stack.id, {"status": "IN_PROGRESS", "current_traversal": TRAVERSAL})
    db_api.stack_lock_set(stack.id, "another engine")
    restarted = []
    recovery._restart(_stale_stack(stack.id, restarted), None)
    assert restarted == []
    assert [tuple(lock) for lock in db_api.stack_lock_get_all()] == [(stack.id, "another engine")]


def test_a_traversal_younger_than_the_stall_timeout_is_not_asked_about(monkeypatch):
    """A traversal started less than convergence_stall_timeout ago cannot have stalled:
    no progress query for it. An older one stalled only if its last progress is old."""
    import datetime

    from heat_lite.conf import CONF

    now = datetime.datetime(2026, 1, 1, 12, 0, 0)
    monkeypatch.setattr(db_api, "utcnow", lambda: now)
    asked = []

    def last_progress(stack_id, traversal_id):
        asked.append(stack_id)
        return progress[stack_id]

    monkeypatch.setattr(db_api, "stack_last_progress", last_progress)
    timeout = datetime.timedelta(seconds=CONF.convergence_stall_timeout)
    progress = {"old-busy": now - timeout / 2, "old-idle": now - timeout * 2}

    def row(stack_id, age):
        return types.SimpleNamespace(
            id=stack_id, current_traversal=TRAVERSAL, updated_at=None, created_at=now - age
        )

    assert not recovery._stalled(row("young", timeout / 2))
    assert asked == []
    assert not recovery._stalled(row("old-busy", timeout * 3))
    assert recovery._stalled(row("old-idle", timeout * 3))
    assert asked == ["old-busy", "old-idle"]
