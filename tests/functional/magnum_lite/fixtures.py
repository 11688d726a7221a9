"""Rows for the API tests, made through the objects (no conductor needed)."""

from magnum_lite import objects
from magnum_lite.common import context, utils


def ctx(project):
    return context.RequestContext(user_id="u-" + project, project_id=project, roles=["member"])


def template(project="p1", **kw):
    values = dict(
        uuid=utils.generate_uuid(),
        name="ct-" + project,
        coe="kubernetes",
        image_id="fedora-coreos-40",
        cluster_distro="fedora-coreos",
        server_type="vm",
        project_id=project,
        user_id="u-" + project,
        labels={"a": "b"},
        network_driver="flannel",
        driver="k8s_fedora_coreos_v1",
    )
    values.update(kw)
    t = objects.ClusterTemplate(ctx(project), **values)
    t.create()
    return t


def cluster(tmpl, project="p1", status="CREATE_COMPLETE", name=None, node_count=2):
    c = objects.Cluster(
        ctx(project),
        uuid=utils.generate_uuid(),
        name=name or "c-" + project,
        project_id=project,
        user_id="u-" + project,
        cluster_template_id=tmpl.uuid,
        status=status,
        labels={"a": "b"},
        stack_id=utils.generate_uuid(),
        create_timeout=60,
        health_status_reason={},
    )
    c.create()
    for role, count in (("master", 1), ("worker", node_count)):
        objects.NodeGroup(
            ctx(project),
            uuid=utils.generate_uuid(),
            name="default-" + role,
            cluster_id=c.uuid,
            project_id=project,
            role=role,
            node_count=count,
            is_default=True,
            status=status,
            labels={"a": "b"},
            node_addresses=[],
            stack_id=c.stack_id,
            min_node_count=0,
        ).create()
    return c
