"""heat_lite.db.api on SQLite (foreign keys on) and PostgreSQL: the statements that differ
between the two (sync points, event pruning) and the stack deletion's foreign keys."""

import pytest
import sqlalchemy as sa

from heat_lite.common import context
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import event as event_mod
from tests.functional.db import helpers

pytestmark = pytest.mark.functional


def _creds():
    return db_api.user_creds_create(
        context.RequestContext(user_id="u1", project_id="p1", username="demo")
    )


def _event(stack_id, n):
    return {
        "stack_id": stack_id,
        "resource_name": "r%d" % n,
        "resource_action": "CREATE",
        "resource_status": "COMPLETE",
        "resource_status_reason": "state changed",
        "resource_type": "OS::Heat::None",
    }


def _event_names(stack_id):
    events = db_api.event_get_all_by_stacks([stack_id], sort_keys=["created_at"])
    return [e.resource_name for e in events]


def test_sync_point_add_input_counts_each_sender_once(db):
    helpers.make_stack("s1")
    db_api.sync_point_create_many(
        [{"entity_id": "7", "traversal_id": "t1", "is_update": True, "stack_id": "s1"}]
    )
    assert db_api.sync_point_add_input(["7"], "t1", True, "a", {"x": 1}) == {"7": 1}
    assert db_api.sync_point_add_input(["7"], "t1", True, "b", 2) == {"7": 2}
    # the same sender again: nothing changes, and the caller is told so
    assert db_api.sync_point_add_input(["7"], "t1", True, "a", {"x": 9}) == {"7": None}
    # an unknown entity or another traversal's sync point is left alone
    assert db_api.sync_point_add_input(["8"], "t1", True, "c", 3) == {}
    assert db_api.sync_point_add_input(["7"], "t2", True, "c", 3) == {}
    row = db_api.sync_point_get("7", "t1", True)
    assert row.atomic_key == 2
    assert row.input_data == {"input_data": {"a": {"x": 1}, "b": 2}}
    inputs = db_api.sync_point_inputs(["7", "8"], "t1", True)
    assert inputs == {"7": ({"a": {"x": 1}, "b": 2}, None)}


def test_sync_point_add_input_reports_to_several_at_once(db):
    helpers.make_stack("s1")
    db_api.sync_point_create_many(
        [
            {"entity_id": e, "traversal_id": "t1", "is_update": False, "stack_id": "s1"}
            for e in ("1", "2")
        ]
    )
    db_api.sync_point_add_input(["1"], "t1", False, "x", 0)
    assert db_api.sync_point_add_input(["2", "1"], "t1", False, "y", 1) == {"1": 2, "2": 1}
    assert db_api.sync_point_inputs(["1", "2"], "t1", False) == {
        "1": ({"x": 0, "y": 1}, None),
        "2": ({"y": 1}, None),
    }


def test_sync_point_inputs_merge_failures_and_skip(db):
    helpers.make_stack("s1")
    db_api.sync_point_create_many(
        [
            {
                "entity_id": "s1",
                "traversal_id": "t1",
                "is_update": True,
                "stack_id": "s1",
                "extra_data": {"traversal": {"converge": True}},
            }
        ]
    )
    db_api.sync_point_add_input(["s1"], "t1", True, "a", None, {"resource_failures": {"a": "x"}})
    db_api.sync_point_add_input(["s1"], "t1", True, "b", None, {"skip_propagate": True})
    db_api.sync_point_add_input(["s1"], "t1", True, "c", None, {"resource_failures": {"c": "y"}})
    failures = {"a": "x", "c": "y"}
    assert db_api.sync_point_inputs(["s1"], "t1", True)["s1"][1] == {
        "resource_failures": failures,
        "skip_propagate": True,
    }
    [point] = db_api.sync_point_get_all_by_traversal("s1", "t1")
    assert point.extra_data == {
        "traversal": {"converge": True},
        "resource_failures": failures,
        "skip_propagate": True,
    }
    assert set(point.input_data["input_data"]) == {"a", "b", "c"}


def test_deleting_sync_points_deletes_their_inputs(db):
    helpers.make_stack("s1")
    db_api.sync_point_create_many(
        [{"entity_id": "7", "traversal_id": "t1", "is_update": True, "stack_id": "s1"}]
    )
    db_api.sync_point_add_input(["7"], "t1", True, "a", 1)
    assert db_api.sync_point_delete_all_by_stack_and_traversal("s1", "t1") == 1
    assert helpers.count_rows(db_api.T_INPUT) == 0


def test_event_purge_oldest_deletes_the_lowest_ids(db):
    helpers.make_stack("s1")
    helpers.make_stack("s2")
    for n in range(5):
        db_api.event_create(_event("s1", n))
    db_api.event_create(_event("s2", 9))
    db_api.event_purge_oldest("s1", 2)
    assert _event_names("s1") == ["r2", "r3", "r4"]
    assert _event_names("s2") == ["r9"]
    assert db_api.event_count_all_by_stack("s1") == 3


@pytest.fixture
def event_limits():
    def set_limits(max_events, batch):
        CONF.set_override("max_events_per_stack", max_events)
        CONF.set_override("event_purge_batch_size", batch)

    yield set_limits
    CONF.clear_override("max_events_per_stack")
    CONF.clear_override("event_purge_batch_size")


def test_max_events_per_stack_prunes_the_oldest_batch(db, event_limits):
    # a batch of 2 makes the 2-in-batch chance of counting a certainty
    event_limits(4, 2)
    helpers.make_stack("s1")
    for n in range(3):
        db_api.event_create(_event("s1", n))
    event_mod.maybe_purge("s1")
    assert _event_names("s1") == ["r0", "r1", "r2"]  # under the limit: kept
    db_api.event_create(_event("s1", 3))
    event_mod.maybe_purge("s1")
    assert _event_names("s1") == ["r2", "r3"]


def test_max_events_per_stack_zero_keeps_everything(db, event_limits):
    event_limits(0, 1)
    helpers.make_stack("s1")
    for n in range(3):
        db_api.event_create(_event("s1", n))
    event_mod.maybe_purge("s1")
    assert db_api.event_count_all_by_stack("s1") == 3


def test_deleting_a_root_lets_go_of_credentials_its_nested_stacks_share(db):
    creds = _creds()
    helpers.make_stack("root", user_creds_id=creds)
    helpers.make_stack("child", owner_id="root", user_creds_id=creds)
    helpers.make_stack("grandchild", owner_id="child", user_creds_id=creds)
    db_api.stack_soft_delete("grandchild")
    db_api.stack_soft_delete("child")
    db_api.stack_soft_delete("root", user_creds_id=creds)
    assert helpers.count_rows(db_api.T_CREDS) == 0
    for stack_id in ("root", "child", "grandchild"):
        row = db_api.stack_get(stack_id, show_deleted=True)
        assert row.deleted_at is not None and row.user_creds_id is None
        assert db_api.stack_get(stack_id) is None


def test_foreign_keys_are_enforced(db):
    """SQLite too (PRAGMA foreign_keys): a stack cannot refer to a missing template."""
    with pytest.raises(sa.exc.IntegrityError):
        db_api.stack_create(
            {"id": "s1", "name": "s1", "raw_template_id": 4242, "disable_rollback": True}
        )


def test_resource_cas_writes_match_the_key_and_the_lock_holder(db):
    """Each shape of CAS write is built once and run with parameters: writes of one shape
    keep their own values, and one whose key or expected holder is stale writes nothing
    (not its event either)."""
    helpers.make_stack("s1")
    first, second = db_api.resource_create_many(
        [{"name": n, "stack_id": "s1", "action": "INIT", "status": "COMPLETE"} for n in ("a", "b")]
    )
    for rsrc_id, holder in ((first, "e1"), (second, "e2")):
        values = {"action": "CREATE", "status": "IN_PROGRESS", "engine_id": holder}
        assert db_api.resource_update_and_event(rsrc_id, values, 0, None, _event("s1", rsrc_id))
    done = {"status": "COMPLETE", "engine_id": None}
    assert not db_api.resource_update_and_event(first, done, 1, "e2", _event("s1", 9))
    assert not db_api.resource_update_and_event(first, done, 0, "e1", _event("s1", 9))
    assert db_api.resource_update_and_event(first, done, 1, "e1", _event("s1", first))
    rows = {r.id: r for r in db_api.resource_get_all_by_stack("s1")}
    assert (rows[first].status, rows[first].engine_id, rows[first].atomic_key) == (
        "COMPLETE",
        None,
        2,
    )
    assert (rows[second].status, rows[second].engine_id, rows[second].atomic_key) == (
        "IN_PROGRESS",
        "e2",
        1,
    )
    assert sorted(_event_names("s1")) == sorted(["r%d" % first] * 2 + ["r%d" % second])
    rsrc, stack = db_api.resource_get_with_stack(second)
    assert (rsrc.name, rsrc.engine_id, stack.id, stack.name) == ("b", "e2", "s1", "s1")


def test_stack_lock_set_takes_the_lock_or_a_holders_row(db):
    helpers.make_stack("s1")
    db_api.stack_lock_set("s1", "e1")  # nobody held it: inserted
    assert not db_api.stack_lock_take("s1", "e2")
    db_api.stack_lock_set("s1", "e2")  # e1 held it: taken over
    assert [(r.stack_id, r.engine_id) for r in db_api.stack_lock_get_all()] == [("s1", "e2")]
    with pytest.raises(sa.exc.IntegrityError):  # no such stack: not a holder's row
        db_api.stack_lock_set("gone", "e1")


def test_resources_version_changes_with_every_write_to_the_list(db):
    """resources_version: the rows' writes, their creation and deletion, a replacement
    and the nested stacks' creation and deletion each give a version not seen before
    (the stack's state was not seen before either); another stack's changes do not
    touch it."""
    helpers.make_stack("s1")
    helpers.make_stack("other")
    seen = [db_api.resources_version("s1")]

    def changed():
        version = db_api.resources_version("s1")
        assert version not in seen
        seen.append(version)

    first, second = db_api.resource_create_many(
        [{"name": n, "stack_id": "s1", "action": "INIT", "status": "COMPLETE"} for n in ("a", "b")]
    )
    changed()
    assert db_api.resource_update(first, {"status": "FAILED"}, 0)
    changed()
    assert not db_api.resource_update(first, {"status": "COMPLETE"}, 0)  # a stale key
    assert db_api.resources_version("s1") == seen[-1]
    db_api.resource_create_many([{"name": "c", "stack_id": "other", "action": "INIT"}])
    assert db_api.resources_version("s1") == seen[-1]
    new_id = db_api.resource_make_replacement(second, 0, None, [], _event("s1", second))
    assert new_id
    changed()
    helpers.make_stack("child", owner_id="s1")
    changed()
    helpers.make_stack("child2", owner_id="s1")
    changed()
    db_api.stack_soft_delete("child")
    changed()
    db_api.resource_delete(first)
    changed()
