"""The snapshot queries (heat_lite.db.snapshots): Heat's tenant and stack checks."""

import pytest

from heat_lite.common import exception
from heat_lite.db import api as db_api
from heat_lite.db import snapshots

pytestmark = pytest.mark.functional


@pytest.fixture(autouse=True)
def database(db):
    template_id = db_api.raw_template_create({"heat_template_version": "2016-10-14"}, {})
    for stack_id in ("s1", "s2"):
        db_api.stack_create(
            {
                "id": stack_id,
                "name": stack_id,
                "raw_template_id": template_id,
                "tenant": "p1",
                "disable_rollback": True,
            }
        )
    yield


def _create(stack_id="s1", tenant="p1", **values):
    values = dict({"status": "IN_PROGRESS"}, **values)
    return snapshots.snapshot_create(dict(values, stack_id=stack_id, tenant=tenant))


def test_create_get_update_delete():
    snap = _create(name="n1", data={"resources": {}})
    assert (snap.name, snap.status, snap.data, snap.status_reason) == (
        "n1",
        "IN_PROGRESS",
        {"resources": {}},
        None,
    )
    assert snap.created_at is not None and len(snap.id) == 36
    assert snapshots.snapshot_update(snap.id, {"status": "COMPLETE", "data": {"x": 1}})
    again = snapshots.snapshot_get(snap.id, "p1")
    assert (again.status, again.data) == ("COMPLETE", {"x": 1})
    assert again.updated_at is not None
    # a compare-and-swap on the status
    assert not snapshots.snapshot_update(snap.id, {"status": "FAILED"}, "IN_PROGRESS")
    assert snapshots.snapshot_get(snap.id).status == "COMPLETE"
    snapshots.snapshot_delete(snap.id)
    assert not snapshots.snapshot_update(snap.id, {"status": "FAILED"})
    with pytest.raises(exception.NotFound):
        snapshots.snapshot_get(snap.id)


def test_another_projects_snapshot_is_not_found():
    snap = _create(tenant="p2")
    assert snapshots.snapshot_get(snap.id).id == snap.id  # no tenant: any project
    with pytest.raises(exception.NotFound) as err:
        snapshots.snapshot_get(snap.id, "p1")
    assert str(err.value) == "Snapshot with id %s not found" % snap.id


def test_by_stack_all_count_and_delete_all():
    first, second = _create(), _create()
    other = _create("s2")
    assert snapshots.snapshot_get_by_stack(first.id, "s1", "s1", "p1").id == first.id
    with pytest.raises(exception.SnapshotNotFound) as err:
        snapshots.snapshot_get_by_stack(other.id, "s1", "s1", "p1")
    assert str(err.value) == "The Snapshot (%s) for Stack (s1) could not be found." % other.id
    assert [s.id for s in snapshots.snapshot_get_all("s1")] == [first.id, second.id]
    assert snapshots.snapshot_count_all_by_stack("s1") == 2
    snapshots.snapshot_delete_all_by_stack("s1")
    assert snapshots.snapshot_get_all("s1") == []
    assert snapshots.snapshot_count_all_by_stack("s2") == 1
