"""purge_deleted (heat-lite-manage purge_deleted) on SQLite (foreign keys on) and
PostgreSQL: what goes, what stays, and the argument errors heat-manage gives."""

import datetime

import pytest
import sqlalchemy as sa

from heat_lite.common import context, exception
from heat_lite.db import api as db_api
from heat_lite.db import models, purge, session
from heat_lite.db import snapshots as db_snapshots
from tests.functional.db import helpers

pytestmark = pytest.mark.functional


def _tree(root, tenant="p1", deleted_ago=None):
    """A root stack and a nested one sharing its credentials, with everything a stack
    can own: tags, a template with files, resources with data and properties, events,
    a snapshot, sync points. ``deleted_ago``: soft-deleted that long ago."""
    ctx = context.RequestContext(user_id="u1", project_id=tenant, username="demo")
    creds = db_api.user_creds_create(ctx)
    child = root + "-child"
    template = db_api.raw_template_create({"resources": {}}, {}, files={"f.yaml": "x"})
    db_api.stack_create(
        {
            "id": root,
            "name": root,
            "raw_template_id": template,
            "tenant": tenant,
            "user_creds_id": creds,
            "disable_rollback": True,
        },
        tags=["t1"],
    )
    helpers.make_stack(child, tenant=tenant, owner_id=root, user_creds_id=creds)
    for stack_id in (root, child):
        (rsrc,) = db_api.resource_create_many(
            [{"name": "r", "stack_id": stack_id, "root_stack_id": root, "action": "INIT"}]
        )
        db_api.resource_data_set(rsrc, "k", "v")
        db_api.resource_attr_data_set(rsrc, {"a": 1})
        event = {"stack_id": stack_id, "resource_name": "r", "resource_status": "COMPLETE"}
        db_api.resource_update_and_event(
            rsrc, {"status": "COMPLETE"}, 0, None, event, props_data={"p": 1}
        )
        db_api.sync_point_create_many(
            [{"entity_id": stack_id, "traversal_id": "t", "is_update": True, "stack_id": stack_id}]
        )
    db_snapshots.snapshot_create({"stack_id": root, "name": "snap", "tenant": tenant})
    if deleted_ago is not None:
        for stack_id in (child, root):
            db_api.stack_update(stack_id, {"deleted_at": db_api.utcnow() - deleted_ago})


def _tables():
    """{table: row count} of every table of heat's database that has rows."""
    counts = {t.name: helpers.count_rows(t) for t in models.Base.metadata.sorted_tables}
    return {name: n for name, n in counts.items() if n}


def _stack_ids():
    return sorted(r.id for r in session.select_all(sa.select(db_api.T_STACK.c.id)))


def test_old_deleted_stacks_go_with_everything_they_own(db):
    _tree("live")
    before = _tables()
    _tree("old", deleted_ago=datetime.timedelta(hours=3))
    _tree("recent", deleted_ago=datetime.timedelta(minutes=30))
    purged = purge.purge_deleted(2, granularity="hours", batch_size=1)
    assert sorted(purged) == ["old", "old-child"]
    assert _stack_ids() == ["live", "live-child", "recent", "recent-child"]
    purge.purge_deleted(0, granularity="seconds")
    # only the live tree is left, exactly as it was
    assert _stack_ids() == ["live", "live-child"]
    assert _tables() == before
    assert db_api.stack_get("live").user_creds_id is not None


def test_project_id_limits_the_purge(db):
    _tree("mine", tenant="p1", deleted_ago=datetime.timedelta(days=2))
    _tree("theirs", tenant="p2", deleted_ago=datetime.timedelta(days=2))
    assert sorted(purge.purge_deleted(1, project_id="p2")) == ["theirs", "theirs-child"]
    assert _stack_ids() == ["mine", "mine-child"]


def test_the_default_age_is_days(db):
    _tree("old", deleted_ago=datetime.timedelta(days=2))
    assert purge.purge_deleted(3) == []
    assert sorted(purge.purge_deleted(1)) == ["old", "old-child"]
    assert _tables() == {}


def test_a_template_still_used_elsewhere_stays(db):
    _tree("old", deleted_ago=datetime.timedelta(days=2))
    shared = db_api.stack_get("old", show_deleted=True).raw_template_id
    db_api.stack_create(
        {"id": "live", "name": "live", "raw_template_id": shared, "disable_rollback": True}
    )
    purge.purge_deleted(1)
    assert db_api.raw_template_get(shared).files_data == {"f.yaml": "x"}


@pytest.mark.parametrize(
    "args, message",
    [
        (("x",), "age should be an integer"),
        (("-1",), "age should be a positive integer"),
        (("1", "weeks"), "granularity should be days, hours, minutes, or seconds"),
        (("1", "days", None, "-2"), "batch_size should be a positive integer"),
    ],
)
def test_bad_arguments(db, args, message):
    with pytest.raises(exception.Error, match=message):
        purge.purge_deleted(*args)
