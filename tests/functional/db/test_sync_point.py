import threading
import uuid

import pytest

from heat_lite.common import exception
from heat_lite.db import api as db_api
from heat_lite.db import postgresql, sync_points
from heat_lite.engine import sync_point

pytestmark = pytest.mark.functional


@pytest.fixture
def stack_id(db):
    tmpl_id = db_api.raw_template_create({"heat_template_version": "2015-04-30"}, {})
    sid = str(uuid.uuid4())
    db_api.stack_create(
        {
            "id": sid,
            "name": "s",
            "raw_template_id": tmpl_id,
            "disable_rollback": True,
            "current_traversal": "t1",
        }
    )
    return sid


def test_key_format_is_heats():
    assert sync_point.make_key((3, True)) == "tuple:(3, True, 'resource')"
    assert sync_point.parse_key("tuple:(3, False, 'resource')") == (3, False)
    data = {(1, True): {"name": "a"}, (2, False): 7}
    assert sync_point.deserialize_input_data(sync_point.serialize_input_data(data)) == data


def test_callback_once_all_predecessors_reported(stack_id):
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(5, True)]))
    calls = []
    preds = {(1, True), (2, True)}
    assert not sync_point.sync(
        5, "t1", True, preds, {(1, True): {"id": 1}}, lambda *a: calls.append(a)
    )
    assert calls == []
    assert sync_point.sync(5, "t1", True, preds, {(2, True): {"id": 2}}, lambda *a: calls.append(a))
    entity, data, failures, skip = calls[0]
    assert data == {(1, True): {"id": 1}, (2, True): {"id": 2}}
    assert failures == {} and skip is False
    row = db_api.sync_point_get(5, "t1", True)
    assert row.atomic_key == 2


def test_failures_and_skip_are_accumulated(stack_id):
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(5, True)]))
    calls = []
    preds = {(1, True), (2, True)}
    sync_point.sync(
        5,
        "t1",
        True,
        preds,
        {(1, True): None},
        calls.append,
        new_failures={"a": "boom"},
        is_skip=True,
    )
    sync_point.sync(5, "t1", True, preds, {(2, True): None}, lambda *a: calls.append(a))
    assert calls[0][2] == {"a": "boom"} and calls[0][3] is True


def test_missing_sync_point_raises(stack_id):
    from heat_lite.common import exception

    with pytest.raises(exception.EntityNotFound):
        sync_point.sync(9, "t1", True, {(1, True)}, {(1, True): None}, print)


def test_threads_lose_nothing(stack_id):
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", []))
    preds = {(n, True) for n in range(64)}
    done = []

    def report(n):
        sync_point.sync(stack_id, "t1", True, preds, {(n, True): None}, lambda *a: done.append(a))

    threads = [threading.Thread(target=report, args=(n,)) for n in range(64)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(done) == 1
    assert set(done[0][1]) == preds


def test_a_sender_reporting_again_completes_nothing_twice(stack_id):
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(5, True)]))
    calls = []
    preds = {(1, True), (2, True)}
    sync_point.sync(5, "t1", True, preds, {(1, True): {"id": 1}}, lambda *a: calls.append(a))
    assert sync_point.sync(5, "t1", True, preds, {(2, True): {"id": 2}}, lambda *a: calls.append(a))
    assert not sync_point.sync(
        5, "t1", True, preds, {(2, True): {"id": 2}}, lambda *a: calls.append(a)
    )
    assert len(calls) == 1
    assert db_api.sync_point_get(5, "t1", True).atomic_key == 2


def test_a_node_reporting_to_itself_runs_once_its_inputs_are_in(stack_id):
    """CheckResource.resend: the node's own key at its own sync point."""
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(5, True), (6, True)]))
    calls = []
    preds = {(1, True), (2, True)}
    sync_point.sync(5, "t1", True, preds, {(1, True): {"id": 1}}, lambda *a: calls.append(a))
    assert not sync_point.sync(5, "t1", True, preds, {(5, True): None}, calls.append)
    # the last predecessor completes it although the count passed the number before
    assert sync_point.sync(5, "t1", True, preds, {(2, True): {"id": 2}}, lambda *a: calls.append(a))
    assert set(calls[0][1]) == preds | {(5, True)}
    # a node with every input in (or none to wait for) runs at once
    assert sync_point.sync(6, "t1", True, set(), {(6, True): None}, lambda *a: calls.append(a))


def test_sync_many_completes_each_target_when_its_own_inputs_are_in(stack_id):
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(5, True), (6, True)]))
    done = []
    targets = {5: {(1, True)}, 6: {(1, True), (2, True)}}
    assert sync_point.sync_many(
        "t1", True, targets, {(1, True): {"id": 1}}, lambda *a: done.append(a)
    ) == [5]
    assert sync_point.sync_many(
        "t1", True, {6: targets[6]}, {(2, True): {"id": 2}}, lambda *a: done.append(a)
    ) == [6]
    assert [d[0] for d in done] == [5, 6]
    assert done[1][1] == {(1, True): {"id": 1}, (2, True): {"id": 2}}


def _locked_resource(stack_id):
    (rsrc_id,) = db_api.resource_create_many(
        [{"name": "r", "stack_id": stack_id, "action": "CREATE", "status": "IN_PROGRESS"}]
    )
    assert db_api.resource_update(rsrc_id, {"engine_id": "e1"}, 0)
    return rsrc_id


def _complete_write(rsrc_id, stack_id, atomic_key):
    """The COMPLETE write a worker defers until its first sync point report."""
    event = {
        "stack_id": stack_id,
        "resource_action": "CREATE",
        "resource_status": "COMPLETE",
        "resource_name": "r",
        "physical_resource_id": "",
        "resource_status_reason": "state changed",
        "resource_type": "OS::Heat::None",
    }
    values = {"action": "CREATE", "status": "COMPLETE", "engine_id": None}
    return db_api.ResourceWrite(rsrc_id, values, atomic_key, "e1", event, None)


def test_a_state_write_goes_with_the_report(stack_id):
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(5, True)]))
    rsrc_id = _locked_resource(stack_id)
    write = _complete_write(rsrc_id, stack_id, 1)
    counts = db_api.sync_point_add_input([5], "t1", True, "r", {"id": rsrc_id}, write=write)
    assert counts == {"5": 1}
    row = db_api.resource_get_with_stack(rsrc_id)[0]
    assert (row.status, row.engine_id, row.atomic_key) == ("COMPLETE", None, 2)
    assert db_api.event_count_all_by_stack(stack_id) == 1


def test_a_state_write_that_does_not_match_reports_nothing(stack_id):
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(5, True)]))
    rsrc_id = _locked_resource(stack_id)
    # the lock was taken over meanwhile: the row is not at the key the write expects
    write = _complete_write(rsrc_id, stack_id, 0)
    with pytest.raises(exception.UpdateInProgress):
        db_api.sync_point_add_input([5], "t1", True, "r", {"id": rsrc_id}, write=write)
    assert db_api.sync_point_get(5, "t1", True).atomic_key == 0
    assert db_api.sync_point_inputs([5], "t1", True) == {}
    row = db_api.resource_get_with_stack(rsrc_id)[0]
    assert (row.status, row.engine_id) == ("IN_PROGRESS", "e1")
    assert db_api.event_count_all_by_stack(stack_id) == 0


def test_a_state_write_is_stored_though_its_sync_points_are_gone(stack_id):
    rsrc_id = _locked_resource(stack_id)
    write = _complete_write(rsrc_id, stack_id, 1)
    assert db_api.sync_point_add_input([5], "t1", True, "r", {}, write=write) == {}
    assert db_api.resource_get_with_stack(rsrc_id)[0].status == "COMPLETE"


def _report(entity_ids, sender, write=None):
    return sync_points.Report(entity_ids, "t1", True, sender, {"id": 0}, None, write)


def test_one_batch_of_reports_counts_each_sender_once_and_in_turn(db, stack_id):
    """Reports that queued behind one another go as one statement (PostgreSQL): each new
    input is told a different count, the last the number of inputs; a sender that had
    reported, a sync point that does not exist and a write that did not match each get
    their own answer."""
    if db.startswith("sqlite"):
        pytest.skip("SQLite sends each report alone, in a serialised transaction")
    db_api.sync_point_create_many(sync_point.rows(stack_id, "t1", [(5, True), (6, True)]))
    assert db_api.sync_point_add_input([5], "t1", True, "early", {}) == {"5": 1}
    matching = _locked_resource(stack_id)
    write = _complete_write(matching, stack_id, 1)
    stale = _complete_write(_locked_resource(stack_id), stack_id, 0)  # lock taken over
    reports = [
        _report(["5", "6"], "a"),
        _report(["5"], "early"),  # again: nothing changes there
        _report(["5", "404"], "b", write=write),
        _report(["6"], "c", write=stale),
        _report(["6"], "d"),
    ]
    results = postgresql._send_reports(("t1", True), reports)
    assert results[0] == {"5": 2, "6": 1}
    assert results[1] == {"5": None}
    assert results[2] == {"5": 3}  # "404": no such sync point, no key
    assert results[3] is None
    assert results[4] == {"6": 2}
    assert db_api.sync_point_get(5, "t1", True).atomic_key == 3
    assert db_api.sync_point_get(6, "t1", True).atomic_key == 2
    assert set(db_api.sync_point_inputs([5], "t1", True)["5"][0]) == {"early", "a", "b"}
    assert set(db_api.sync_point_inputs([6], "t1", True)["6"][0]) == {"a", "d"}
    assert db_api.resource_get_with_stack(matching)[0].status == "COMPLETE"
    # a report retried after its answer was lost finds the counts it made (db.retry)
    retried = [sync_points.reported_counts(report) for report in reports]
    assert retried == [{"5": 2, "6": 1}, None, {"5": 3}, None, {"6": 2}]


def test_writes_made_together_each_know_whether_they_matched(db, stack_id):
    if db.startswith("sqlite"):
        pytest.skip("SQLite sends each write alone")
    first, second = _locked_resource(stack_id), _locked_resource(stack_id)
    writes = [_complete_write(first, stack_id, 1), _complete_write(second, stack_id, 7)]
    assert postgresql._send_writes(None, writes) == [True, False]
    assert db_api.resource_get_with_stack(first)[0].status == "COMPLETE"
    assert db_api.resource_get_with_stack(second)[0].status == "IN_PROGRESS"
    assert db_api.event_count_all_by_stack(stack_id) == 1
