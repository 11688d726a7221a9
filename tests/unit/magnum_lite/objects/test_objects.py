import pytest

from magnum_lite import objects
from magnum_lite.common import utils
from magnum_lite.objects import base

pytestmark = pytest.mark.unit


def _cluster(ctx):
    ct = objects.ClusterTemplate(
        ctx,
        uuid=utils.generate_uuid(),
        name="ct",
        coe="kubernetes",
        image_id="fedora",
        project_id="p1",
        labels={"k": 1},
    )
    ct.create()
    cluster = objects.Cluster(
        ctx,
        uuid=utils.generate_uuid(),
        name="c1",
        project_id="p1",
        user_id="u1",
        cluster_template_id=ct.uuid,
        labels={},
    )
    cluster.create()
    for role, count, addrs in (("master", 1, ["10.0.0.1"]), ("worker", 2, ["10.0.0.2", "x"])):
        objects.NodeGroup(
            ctx,
            uuid=utils.generate_uuid(),
            name="default-%s" % role,
            cluster_id=cluster.uuid,
            project_id="p1",
            role=role,
            is_default=True,
            node_count=count,
            node_addresses=addrs,
        ).create()
    return cluster


def test_template_labels_coerced_to_strings(magnum_db, ctx):
    cluster = _cluster(ctx)
    assert cluster.cluster_template.labels == {"k": "1"}


def test_cluster_nodegroup_properties(magnum_db, ctx):
    cluster = objects.Cluster.get_by_name(ctx, _cluster(ctx).name)
    assert cluster.node_count == 2 and cluster.master_count == 1
    assert cluster.master_addresses == ["10.0.0.1"]
    assert cluster.node_addresses == ["10.0.0.2", "x"]
    assert cluster.default_ng_master.name == "default-master"
    assert cluster.default_ng_worker.node_count == 2


def test_save_writes_only_changes(magnum_db, ctx):
    cluster = _cluster(ctx)
    cluster.status = "CREATE_COMPLETE"
    cluster.save()
    assert cluster.obj_what_changed() == set()
    fresh = objects.Cluster.get(ctx, cluster.uuid)
    assert fresh.status == "CREATE_COMPLETE" and fresh.updated_at is not None


def test_cluster_survives_serialization(magnum_db, ctx):
    cluster = _cluster(ctx)
    cluster.cluster_template  # noqa: B018 - loaded, so it travels too
    serializer = base.MagnumObjectSerializer()
    primitive = serializer.serialize_entity(ctx, cluster)
    again = serializer.deserialize_entity(ctx, primitive)
    assert again.uuid == cluster.uuid and again.cluster_template.name == "ct"


def test_destroy(magnum_db, ctx, admin_ctx):
    cluster = _cluster(ctx)
    cluster.destroy()
    assert objects.Cluster.list(admin_ctx) == []
