"""The rules the database holds whatever runs in parallel: a live stack's name is unique in
its project, max_stacks_per_tenant, and the resource budget of a stack tree."""

import concurrent.futures
import uuid

import pytest
import sqlalchemy as sa

from heat_lite.cmd import manage
from heat_lite.common import context, exception
from heat_lite.db import api as db_api
from tests.functional.db import helpers

pytestmark = pytest.mark.functional


def _values(name, tenant="p1", owner_id=None):
    template_id = db_api.raw_template_create({"heat_template_version": "2016-10-14"}, {})
    return {
        "id": str(uuid.uuid4()),
        "name": name,
        "raw_template_id": template_id,
        "tenant": tenant,
        "owner_id": owner_id,
        "disable_rollback": True,
    }


def _in_parallel(calls):
    """Run the callables at once; each one's result or exception, in order."""
    with concurrent.futures.ThreadPoolExecutor(len(calls)) as pool:
        futures = [pool.submit(call) for call in calls]
        outcomes = []
        for future in futures:
            try:
                outcomes.append(future.result())
            except Exception as ex:
                outcomes.append(ex)
        return outcomes


def _live(tenant="p1"):
    return db_api.stack_get_all(tenant, show_nested=True)


def test_a_live_name_is_unique_in_its_project(db):
    db_api.stack_create(_values("s"))
    with pytest.raises(exception.StackExists, match=r"The Stack \(s\) already exists."):
        db_api.stack_create(_values("s"))
    db_api.stack_create(_values("s", tenant="p2"))  # another project's
    db_api.stack_soft_delete(_live()[0].id)
    db_api.stack_create(_values("s"))  # a deleted stack's name is free again
    assert len(db_api.stack_get_all("p1", show_deleted=True)) == 2


def test_parallel_creates_of_one_name_make_one_stack(db):
    values = [_values("same") for _ in range(20)]
    outcomes = _in_parallel([lambda v=v: db_api.stack_create(v) for v in values])
    errors = [o for o in outcomes if isinstance(o, Exception)]
    assert len(errors) == 19
    assert all(isinstance(e, exception.StackExists) for e in errors)
    assert [s.name for s in _live()] == ["same"]


def test_parallel_creates_respect_the_stack_limit(db):
    values = [_values("s%d" % i) for i in range(20)]
    outcomes = _in_parallel([lambda v=v: db_api.stack_create(v, max_stacks=3) for v in values])
    errors = [o for o in outcomes if isinstance(o, Exception)]
    assert len(errors) == 17
    assert {str(e) for e in errors} == {
        "Request limit exceeded: You have reached the maximum stacks per tenant, 3. "
        "Please delete some stacks."
    }
    assert len(_live()) == 3


def test_the_stack_limit_counts_live_top_level_stacks_of_the_project(db):
    top = _values("top")
    db_api.stack_create(top, max_stacks=2)
    db_api.stack_create(_values("nested", owner_id=top["id"]))
    db_api.stack_create(_values("other", tenant="p2"), max_stacks=1)
    gone = _values("gone")
    db_api.stack_create(gone, max_stacks=2)
    with pytest.raises(exception.RequestLimitExceeded):
        db_api.stack_create(_values("third"), max_stacks=2)
    db_api.stack_soft_delete(gone["id"])
    db_api.stack_create(_values("third"), max_stacks=2)


def _rows(stack_id, root_id, count):
    return [
        {"name": "r%d" % i, "stack_id": stack_id, "root_stack_id": root_id, "action": "INIT"}
        for i in range(count)
    ]


def _init_values(stack_id):
    return {
        "stack_id": stack_id,
        "root_stack_id": "root",
        "action": "INIT",
        "status": "COMPLETE",
        "status_reason": "",
        "current_template_id": None,
    }


def _init(stack_id, count, budget=None, first=0):
    """A new stack's INIT rows as the engine writes them (db_api.resource_init_many)."""
    names = ["r%d" % i for i in range(first, first + count)]
    return db_api.resource_init_many(names, _init_values(stack_id), budget=budget)


def test_a_new_stacks_rows_come_back_in_the_order_named(db):
    helpers.make_stack("root")
    names = ["web", "db", "net", "port"]
    ids = db_api.resource_init_many(names, _init_values("root"))
    assert ids == sorted(ids)  # inserted in that order, as Heat inserts dependents first
    rows = {r.id: r for r in db_api.resource_get_all_by_stack("root")}
    assert [rows[i].name for i in ids] == names
    row = rows[ids[0]]
    assert (row.action, row.status, row.status_reason) == ("INIT", "COMPLETE", "")
    assert (row.atomic_key, row.requires, row.needed_by) == (0, [], [])
    assert row.root_stack_id == "root" and row.created_at is not None
    assert len({rows[i].uuid for i in ids}) == 4
    assert db_api.resource_init_many([], _init_values("root")) == []


def test_parallel_nested_stacks_share_the_resource_budget(db):
    helpers.make_stack("root")
    db_api.resource_create_many(_rows("root", "root", 2))
    children = ["a", "b"]
    for child in children:
        helpers.make_stack(child, name="root-" + child, owner_id="root")
    outcomes = _in_parallel(
        [lambda c=c: _init(c, 600, budget=("root", 1000, c, 600)) for c in children]
    )
    errors = [o for o in outcomes if isinstance(o, Exception)]
    assert [str(e) for e in errors] == [
        "Request limit exceeded: Maximum resources per stack exceeded."
    ]
    assert db_api.resource_count_by_root("root") == 602


def test_migration_keeps_stacks_that_already_share_a_name(db_url, tmp_path):
    """0003 on a database the old race left two live 'dup' stacks in: both are kept."""
    if db_url.startswith("sqlite"):
        url = "sqlite:///%s" % (tmp_path / "old.sqlite")
        dropped = None
    else:
        from tests.fixtures import services

        dropped, url = services.create_database()
    try:
        manage.db_sync(url, revision="0002")
        engine = sa.create_engine(url)
        with engine.begin() as conn:
            conn.execute(sa.text("INSERT INTO raw_template (id, template) VALUES (1, '{}')"))
            for stack_id, created in (("b" * 36, "2026-01-02"), ("a" * 36, "2026-01-01")):
                conn.execute(
                    sa.text(
                        "INSERT INTO stack (id, name, tenant, raw_template_id, "
                        "disable_rollback, created_at) VALUES (:id, 'dup', 'p1', 1, true, :c)"
                    ),
                    {"id": stack_id, "c": created},
                )
        manage.db_sync(url)
        with engine.connect() as conn:
            names = conn.execute(sa.text("SELECT id, name FROM stack ORDER BY id")).all()
        engine.dispose()
        assert [tuple(r) for r in names] == [("a" * 36, "dup"), ("b" * 36, "dup-bbbbbbbb")]
    finally:
        if dropped is not None:
            services.drop_database(dropped)


def test_an_updated_nested_stack_is_not_counted_twice(db):
    helpers.make_stack("root")
    helpers.make_stack("a", name="root-a", owner_id="root")
    _init("a", 600, budget=("root", 1000, "a", 600))
    # the update defines 610: its own 600 rows are not counted again
    _init("a", 10, budget=("root", 1000, "a", 610), first=600)
    helpers.make_stack("b", name="root-b", owner_id="root")
    with pytest.raises(exception.RequestLimitExceeded):
        _init("b", 391, budget=("root", 1000, "b", 391))
    assert db_api.resource_count_by_root("root") == 610  # the refused insert left nothing
    _init("b", 390, budget=("root", 1000, "b", 390))
    assert db_api.resource_count_by_root("root") == 1000


def _count(table):
    with db_api.autocommit() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(table)).scalar()


def test_a_started_create_stores_its_rows_together_and_a_refused_one_none(db):
    """What a create starting its traversal stores (its template with files, new
    credentials, first event, lock) is one transaction: a refused create leaves none of it."""
    ctx = context.RequestContext(user_id="u1", project_id="p1", username="demo")
    template = ({"heat_template_version": "2016-10-14"}, {}, {"child.yaml": "{}"})

    def create(name, max_stacks=None):
        values = {"id": str(uuid.uuid4()), "name": name, "tenant": "p1", "disable_rollback": True}
        event = {"stack_id": values["id"], "resource_name": name, "resource_status": "X"}
        stored = db_api.stack_create(
            values,
            max_stacks=max_stacks,
            template=template,
            creds_of=ctx,
            event=event,
            engine_id="e1",
        )
        return values["id"], stored

    stack_id, (template_id, creds_id) = create("s")
    row = db_api.stack_get(stack_id)
    assert (row.raw_template_id, row.user_creds_id) == (template_id, creds_id)
    assert db_api.raw_template_get(template_id).files_data == {"child.yaml": "{}"}
    assert [e.resource_name for e in db_api.event_get_all_by_stacks([stack_id])] == ["s"]
    assert [(r.stack_id, r.engine_id) for r in db_api.stack_lock_get_all()] == [(stack_id, "e1")]
    tables = (db_api.T_RAW, db_api.T_FILES, db_api.T_CREDS, db_api.T_EVENT, db_api.T_STACK)
    before = [_count(t) for t in tables]
    with pytest.raises(exception.StackExists):
        create("s")
    with pytest.raises(exception.RequestLimitExceeded):
        create("another", max_stacks=1)
    assert [_count(t) for t in tables] == before
    assert len(db_api.stack_lock_get_all()) == 1


@pytest.mark.parametrize("files", [{"child.yaml": "{}"}, None])
def test_a_nested_stacks_start_stores_its_rows_together_and_a_refused_one_none(db, files):
    """A nested stack's create (a new template, the parent's credentials, no stack
    limit) stores the same rows, on PostgreSQL in one round trip; a refused one (its
    name taken) leaves none of them."""
    parent = _values("parent")
    db_api.stack_create(parent)
    template = ({"heat_template_version": "2016-10-14"}, {"parameters": {"p": 1}}, files)

    def create(name):
        values = {
            "id": str(uuid.uuid4()),
            "name": name,
            "tenant": "p1",
            "owner_id": parent["id"],
            "nested_depth": 1,
            "disable_rollback": True,
            "action": "CREATE",
            "status": "IN_PROGRESS",
            "updated_at": None,
        }
        event = {"stack_id": values["id"], "resource_name": name, "resource_status": "X"}
        stored = db_api.stack_create(values, template=template, event=event, engine_id="e1")
        return values["id"], stored

    stack_id, (template_id, creds_id) = create("parent-child")
    assert creds_id is None
    row = db_api.stack_get(stack_id)
    assert (row.raw_template_id, row.owner_id, row.status) == (
        template_id,
        parent["id"],
        "IN_PROGRESS",
    )
    assert (row.backup, row.convergence) == (False, True)  # the columns' defaults
    stored = db_api.raw_template_get(template_id)
    assert (stored.template, stored.environment, stored.files_data) == template
    events = db_api.event_get_all_by_stacks([stack_id])
    assert [(e.resource_name, e.resource_status) for e in events] == [("parent-child", "X")]
    assert [(r.stack_id, r.engine_id) for r in db_api.stack_lock_get_all()] == [(stack_id, "e1")]
    tables = (db_api.T_RAW, db_api.T_FILES, db_api.T_EVENT, db_api.T_STACK)
    before = [_count(t) for t in tables]
    with pytest.raises(exception.StackExists):
        create("parent-child")
    assert [_count(t) for t in tables] == before
    assert len(db_api.stack_lock_get_all()) == 1


def test_a_traversal_start_writes_its_event_lock_and_sync_points_with_the_state(db):
    values = dict(_values("s"), current_traversal="t1")
    db_api.stack_create(values)
    stack_id = values["id"]
    event = {"stack_id": stack_id, "resource_name": "s", "resource_status": "IN_PROGRESS"}
    points = [
        {"entity_id": stack_id, "traversal_id": "t2", "is_update": True, "stack_id": stack_id}
    ]

    def start(expected, engine_id):
        return db_api.stack_update(
            stack_id,
            {"current_traversal": "t2"},
            exp_trvsl=expected,
            event=event,
            engine_id=engine_id,
            sync_points=points,
        )

    # another traversal started meanwhile: the event and the lock are written, no sync point
    assert not start("t0", "e1")
    assert db_api.sync_point_get_all_by_traversal(stack_id, "t2") == []
    assert len(db_api.event_get_all_by_stacks([stack_id])) == 1
    assert [r.engine_id for r in db_api.stack_lock_get_all()] == ["e1"]
    assert start("t1", "e2")
    assert db_api.stack_get(stack_id).current_traversal == "t2"
    assert len(db_api.sync_point_get_all_by_traversal(stack_id, "t2")) == 1
    assert len(db_api.event_get_all_by_stacks([stack_id])) == 2
    assert [r.engine_id for r in db_api.stack_lock_get_all()] == ["e2"]
