"""Another project's clusters, templates and nodegroups answer 404 on every route (the
route table below is checked against the controllers, so a new route must join it)."""

import inspect
import json

import pytest

from magnum_lite.api.controllers import v1
from magnum_lite.api.controllers.v1 import cluster_actions, nodegroup
from tests.functional.magnum_lite import fixtures
from tests.functional.magnum_lite.conftest import headers

pytestmark = pytest.mark.functional

PATCH = [{"op": "replace", "path": "/node_count", "value": 3}]
NG_PATCH = [{"op": "replace", "path": "/max_node_count", "value": 5}]

# (controller class, method, HTTP method, path, body)
ROUTES = [
    (v1.cluster.ClustersController, "get_one", "GET", "/v1/clusters/{c}", None),
    (v1.cluster.ClustersController, "get_one", "GET", "/v1/clusters/{cname}", None),
    (v1.cluster.ClustersController, "patch", "PATCH", "/v1/clusters/{c}", PATCH),
    (v1.cluster.ClustersController, "delete", "DELETE", "/v1/clusters/{c}", None),
    (
        cluster_actions.ActionsController,
        "resize",
        "POST",
        "/v1/clusters/{c}/actions/resize",
        {"node_count": 3},
    ),
    (
        cluster_actions.ActionsController,
        "upgrade",
        "POST",
        "/v1/clusters/{c}/actions/upgrade",
        {"cluster_template": "{t}", "max_batch_size": 1},
    ),
    (nodegroup.NodeGroupController, "get_all", "GET", "/v1/clusters/{c}/nodegroups", None),
    (nodegroup.NodeGroupController, "get_one", "GET", "/v1/clusters/{c}/nodegroups/{ng}", None),
    (nodegroup.NodeGroupController, "post", "POST", "/v1/clusters/{c}/nodegroups", {"name": "ng9"}),
    (nodegroup.NodeGroupController, "patch", "PATCH", "/v1/clusters/{c}/nodegroups/{ng}", NG_PATCH),
    (nodegroup.NodeGroupController, "delete", "DELETE", "/v1/clusters/{c}/nodegroups/{ng}", None),
    (
        v1.cluster_template.ClusterTemplatesController,
        "get_one",
        "GET",
        "/v1/clustertemplates/{t}",
        None,
    ),
    (
        v1.cluster_template.ClusterTemplatesController,
        "patch",
        "PATCH",
        "/v1/clustertemplates/{t}",
        [{"op": "replace", "path": "/name", "value": "x"}],
    ),
    (
        v1.cluster_template.ClusterTemplatesController,
        "delete",
        "DELETE",
        "/v1/clustertemplates/{t}",
        None,
    ),
    (v1.certificate.CertificateController, "get_one", "GET", "/v1/certificates/{c}", None),
    (v1.certificate.CertificateController, "patch", "PATCH", "/v1/certificates/{c}", None),
    (v1.credentials.CredentialsController, "patch", "PATCH", "/v1/credentials/{c}", None),
]
# routes that do not name one resource of another project
UNSCOPED = {
    (v1.cluster.ClustersController, "get_all"),
    (v1.cluster.ClustersController, "detail"),
    (v1.cluster.ClustersController, "post"),
    (v1.cluster_template.ClusterTemplatesController, "get_all"),
    (v1.cluster_template.ClusterTemplatesController, "detail"),
    (v1.cluster_template.ClusterTemplatesController, "post"),
    (v1.certificate.CertificateController, "post"),
    (v1.quota.QuotaController, "get_all"),
    (v1.quota.QuotaController, "get_one"),
    (v1.quota.QuotaController, "post"),
    (v1.quota.QuotaController, "patch"),
    (v1.quota.QuotaController, "delete"),
    (v1.magnum_services.MagnumServiceController, "get_all"),
    (v1.stats.StatsController, "get_all"),
}
CONTROLLERS = [
    v1.cluster.ClustersController,
    cluster_actions.ActionsController,
    nodegroup.NodeGroupController,
    v1.cluster_template.ClusterTemplatesController,
    v1.certificate.CertificateController,
    v1.credentials.CredentialsController,
    v1.quota.QuotaController,
    v1.magnum_services.MagnumServiceController,
    v1.stats.StatsController,
]
HANDLERS = {"get_all", "get_one", "post", "patch", "delete", "detail", "resize", "upgrade"}


def test_route_table_covers_every_handler():
    exposed = {
        (cls, name)
        for cls in CONTROLLERS
        for name, _ in inspect.getmembers(cls, inspect.isfunction)
        if name in HANDLERS
    }
    walked = {(cls, name) for cls, name, *_ in ROUTES}
    assert exposed == walked | UNSCOPED


@pytest.mark.parametrize("route", ROUTES, ids=lambda r: "%s %s" % (r[2], r[3]))
def test_other_projects_resources_are_not_found(api, route):
    tmpl = fixtures.template("p2")
    c = fixtures.cluster(tmpl, "p2")
    ng = c.default_ng_worker
    values = {"c": c.uuid, "cname": c.name, "t": tmpl.uuid, "ng": ng.uuid}
    _, _, method, path, body = route
    if isinstance(body, dict):
        body = {k: v.format(**values) if isinstance(v, str) else v for k, v in body.items()}
    r = api.request(
        path.format(**values),
        method=method,
        headers=headers("p1", roles="member,reader"),
        body=json.dumps(body).encode() if body is not None else b"",
        content_type="application/json",
        expect_errors=True,
    )
    assert r.status_int == 404, r.body
    assert r.json["errors"][0]["code"] == "client"
    # nothing of p2's changed
    c.refresh()
    assert c.status == "CREATE_COMPLETE" and c.default_ng_worker.node_count == 2
    tmpl.refresh()
    assert tmpl.name == "ct-p2"


def test_lists_show_own_project_only(api):
    fixtures.cluster(fixtures.template("p2"), "p2")
    mine = fixtures.cluster(fixtures.template("p1"), "p1")
    for path in ("/v1/clusters", "/v1/clusters/detail"):
        r = api.get(path, headers=headers("p1"))
        assert [c["uuid"] for c in r.json["clusters"]] == [mine.uuid]
    r = api.get("/v1/clustertemplates", headers=headers("p1"))
    assert [t["name"] for t in r.json["clustertemplates"]] == ["ct-p1"]
    r = api.get("/v1/stats", headers=headers("p1"))
    assert r.json == {"clusters": 1, "nodes": 3}
    r = api.get("/v1/stats?project_id=p2", headers=headers("p1"), expect_errors=True)
    assert r.status_int == 403


def test_certificate_post_for_other_projects_cluster_is_400(api):
    c = fixtures.cluster(fixtures.template("p2"), "p2")
    r = api.post_json(
        "/v1/certificates",
        {"cluster_uuid": c.uuid, "csr": "x"},
        headers=headers("p1"),
        expect_errors=True,
    )
    assert r.status_int == 400
    assert r.json["errors"][0]["detail"] == "Cluster %s could not be found." % c.uuid


def test_admin_sees_every_project(api):
    c = fixtures.cluster(fixtures.template("p2"), "p2")
    r = api.get(
        "/v1/clusters/%s" % c.uuid, headers={"OpenStack-API-Version": "container-infra latest"}
    )
    assert r.json["project_id"] == "p2"
