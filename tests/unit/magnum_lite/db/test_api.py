import pytest

from magnum_lite.common import context, exception, utils
from magnum_lite.db import api as db_api

pytestmark = pytest.mark.unit


def _template(project="p1", **kw):
    values = dict(
        uuid=utils.generate_uuid(),
        name="ct",
        project_id=project,
        user_id="u1",
        coe="kubernetes",
        image_id="fedora",
        labels={"a": "b"},
    )
    values.update(kw)
    return db_api.cluster_template_create(values)


def _cluster(template, project="p1", **kw):
    values = dict(
        uuid=utils.generate_uuid(),
        name="c1",
        project_id=project,
        user_id="u1",
        cluster_template_id=template["uuid"],
        status="CREATE_IN_PROGRESS",
    )
    values.update(kw)
    return db_api.cluster_create(values)


def test_json_columns_round_trip(magnum_db, ctx):
    row = _template()
    assert db_api.cluster_template_get_by_uuid(ctx, row["uuid"])["labels"] == {"a": "b"}


def test_other_project_cannot_see_cluster(magnum_db, ctx):
    ct = _template()
    c = _cluster(ct, project="p2")
    with pytest.raises(exception.ClusterNotFound):
        db_api.cluster_get_by_uuid(ctx, c["uuid"])
    assert db_api.cluster_get_by_uuid(context.get_admin_context(), c["uuid"])["id"] == c["id"]


def test_duplicate_cluster_names_conflict(magnum_db, ctx):
    ct = _template()
    _cluster(ct)
    _cluster(ct)
    with pytest.raises(exception.Conflict) as err:
        db_api.cluster_get_by_name(ctx, "c1")
    assert "Multiple clusters exist with same name" in str(err.value)


def test_public_template_visible_hidden_not(magnum_db, ctx):
    pub = _template(project="p2", name="pub", public=True)
    hid = _template(project="p2", name="hid", public=True, hidden=True)
    names = {r["name"] for r in db_api.cluster_template_get_all(ctx)}
    assert names == {"pub"}
    assert db_api.cluster_template_get_by_uuid(ctx, pub["uuid"])
    with pytest.raises(exception.ClusterTemplateNotFound):
        db_api.cluster_template_get_by_uuid(ctx, hid["uuid"])


def test_referenced_template_cannot_be_destroyed(magnum_db):
    ct = _template()
    _cluster(ct)
    with pytest.raises(exception.ClusterTemplateReferenced):
        db_api.cluster_template_destroy(ct["id"])


def test_foreign_keys_enforced_on_sqlite(magnum_db):
    with pytest.raises(exception.ClusterNotFound):
        db_api.nodegroup_create(
            dict(
                uuid=utils.generate_uuid(),
                name="ng",
                cluster_id="nope",
                project_id="p1",
                role="worker",
                node_count=1,
            )
        )


def test_nodegroup_names_unique_per_cluster(magnum_db):
    c = _cluster(_template())
    values = dict(name="ng", cluster_id=c["uuid"], project_id="p1", role="worker", node_count=1)
    db_api.nodegroup_create(dict(values, uuid=utils.generate_uuid()))
    with pytest.raises(exception.NodeGroupAlreadyExists):
        db_api.nodegroup_create(dict(values, uuid=utils.generate_uuid()))


def test_cluster_destroy_takes_nodegroups(magnum_db, admin_ctx):
    c = _cluster(_template())
    db_api.nodegroup_create(
        dict(
            uuid=utils.generate_uuid(),
            name="ng",
            cluster_id=c["uuid"],
            project_id="p1",
            role="worker",
            node_count=3,
        )
    )
    assert db_api.cluster_get_stats(admin_ctx) == (1, 3)
    db_api.cluster_destroy(c["id"])
    assert db_api.nodegroup_get_all(admin_ctx, c["uuid"]) == []


def test_pagination_and_sort(magnum_db, admin_ctx):
    ct = _template()
    rows = [_cluster(ct, name=n) for n in ("b", "a", "c")]
    page = db_api.cluster_get_all(admin_ctx, limit=2, sort_key="name", sort_dir="desc")
    assert [r["name"] for r in page] == ["c", "b"]
    rest = db_api.cluster_get_all(admin_ctx, marker=rows[0]["id"], sort_key="name", sort_dir="desc")
    assert [r["name"] for r in rest] == ["a"]
    with pytest.raises(exception.InvalidParameterValue) as err:
        db_api.cluster_get_all(admin_ctx, sort_key="bogus")
    assert str(err.value) == 'The sort_key value "bogus" is an invalid field for sorting'


def test_quota_unique_and_not_found(magnum_db):
    db_api.quota_create(dict(project_id="p1", resource="Cluster", hard_limit=3))
    with pytest.raises(exception.QuotaAlreadyExists):
        db_api.quota_create(dict(project_id="p1", resource="Cluster", hard_limit=3))
    with pytest.raises(exception.QuotaNotFound):
        db_api.quota_destroy("p2", "Cluster")
