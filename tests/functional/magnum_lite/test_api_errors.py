"""Every 4xx of cluster/template/nodegroup input with Magnum's status and text; nothing is
stored by a request that fails."""

import pytest

from magnum_lite import objects
from magnum_lite.common import context
from tests.functional.magnum_lite import fixtures
from tests.functional.magnum_lite.conftest import headers

pytestmark = pytest.mark.functional

MEMBER = headers("p1")
ADMIN = {"OpenStack-API-Version": "container-infra latest"}


def counts():
    admin = context.get_admin_context()
    return (
        len(objects.Cluster.list(admin)),
        len(objects.ClusterTemplate.list(admin)),
        len(objects.Quota.list(admin)),
    )


@pytest.fixture
def ct(api):
    return fixtures.template("p1", name="ct")


def _error(r, status):
    assert r.status_int == status, r.body
    err = r.json["errors"][0]
    assert err["status"] == status and err["code"] == "client"
    assert err["title"] == err["detail"].split(".", 1)[0]
    return err["detail"]


CLUSTER_CASES = [
    (
        {"name": "c"},
        400,
        "Invalid input for field/attribute cluster_template_id. Value: "
        "'None'. Mandatory field missing.",
    ),
    (
        {"cluster_template_id": "ct", "name": "9bad"},
        400,
        "Invalid input for field/attribute "
        "name. Value: '9bad'. Value should match the pattern ^[a-zA-Z][a-zA-Z0-9_.-]*$",
    ),
    (
        {"cluster_template_id": "ct", "node_count": -1},
        400,
        "Invalid input for field/attribute "
        "node_count. Value: '-1'. Value should be greater or equal to 0",
    ),
    (
        {"cluster_template_id": "ct", "master_count": 0},
        400,
        "Invalid input for field/attribute "
        "master_count. Value: '0'. Value should be greater or equal to 1",
    ),
    (
        {"cluster_template_id": "ct", "master_count": 2},
        400,
        "master nodegroup size of 2 is invalid, size cannot be an even number.",
    ),
    (
        {"cluster_template_id": "ct", "master_count": 3},
        400,
        "master_count must be 1 when master_lb_enabled is False",
    ),
    ({"cluster_template_id": "nope"}, 404, "ClusterTemplate nope could not be found."),
    (
        {"cluster_template_id": "ct", "create_timeout": -1},
        400,
        "Invalid input for "
        "field/attribute create_timeout. Value: '-1'. Value should be greater or equal to 0",
    ),
    (
        {"cluster_template_id": "ct", "bogus": 1},
        400,
        "Unknown attribute for argument cluster: bogus",
    ),
]


@pytest.mark.parametrize("body,status,detail", CLUSTER_CASES)
def test_cluster_create_rejected(api, ct, body, status, detail):
    before = counts()
    r = api.post_json("/v1/clusters", body, headers=MEMBER, expect_errors=True)
    assert _error(r, status) == detail
    assert counts() == before


def test_old_microversion_rules(api, ct):
    r = api.post_json(
        "/v1/clusters",
        {"cluster_template_id": "nope"},
        headers=headers("p1", version="1.9"),
        expect_errors=True,
    )
    assert _error(r, 400) == "ClusterTemplate nope could not be found."
    r = api.post_json(
        "/v1/clusters",
        {"cluster_template_id": "ct", "node_count": 0},
        headers=headers("p1", version="1.9"),
        expect_errors=True,
    )
    assert _error(r, 400).startswith("Resizing a nodegroup to zero is not supported")


def test_unsupported_cluster_type(api, no_drivers):
    r = api.post_json(
        "/v1/clustertemplates",
        {"coe": "kubernetes", "image_id": "fedora"},
        headers=MEMBER,
        expect_errors=True,
    )
    assert _error(r, 400) == (
        "Cluster type (vm, fedora-coreos, kubernetes) is not supported by any loaded cluster "
        "driver. Loaded drivers support: none (no cluster drivers are loaded)."
    )
    assert counts() == (0, 0, 0)


def test_over_quota_is_403(api, ct):
    objects.Quota(
        context.get_admin_context(), project_id="p1", resource="Cluster", hard_limit=1
    ).create()
    fixtures.cluster(ct, "p1")
    before = counts()
    r = api.post_json(
        "/v1/clusters", {"cluster_template_id": "ct"}, headers=MEMBER, expect_errors=True
    )
    assert _error(r, 403) == (
        "Resource limit exceeded: You have reached the maximum clusters per project, 1. You "
        "may delete a cluster to make room for a new one."
    )
    assert counts() == before


def test_hidden_template_is_403_for_members(api):
    fixtures.template("p1", name="hid", hidden=True)
    r = api.post_json(
        "/v1/clusters", {"cluster_template_id": "hid"}, headers=MEMBER, expect_errors=True
    )
    assert _error(r, 403) == "Not authorized."


def test_policy_denies_reader(api, ct):
    r = api.post_json(
        "/v1/clusters",
        {"cluster_template_id": "ct"},
        headers=headers("p1", roles="reader"),
        expect_errors=True,
    )
    assert _error(r, 403) == "Policy doesn't allow cluster:create to be performed."


def test_publish_needs_admin(api):
    r = api.post_json(
        "/v1/clustertemplates",
        {"coe": "kubernetes", "image_id": "f", "public": True},
        headers=MEMBER,
        expect_errors=True,
    )
    assert _error(r, 403) == "Not authorized to set public or hidden flag for cluster template."
    assert counts() == (0, 0, 0)


@pytest.mark.parametrize(
    "patch,detail",
    [
        (
            [{"op": "replace", "path": "/uuid", "value": "x"}],
            "'/uuid' is an internal attribute and can not be updated",
        ),
        (
            [{"op": "remove", "path": "/coe"}],
            "'/coe' is a mandatory attribute and can not be removed",
        ),
        ([{"op": "replace", "path": "/name"}], "'add' and 'replace' operations needs value"),
        (
            [{"op": "add", "path": "/bogus", "value": "x"}],
            "Adding a new attribute /bogus to the root of the resource is not allowed.",
        ),
        (
            [{"op": "add", "path": "/name", "value": "x"}],
            "The attribute /name has existed, please use 'replace' operation instead.",
        ),
        (
            [{"op": "replace", "path": "/coe", "value": "swarm"}],
            "Invalid input for field/attribute coe. Value: 'swarm'. Value should be one of: "
            "kubernetes",
        ),
    ],
)
def test_template_bad_patch(api, ct, patch, detail):
    r = api.patch_json("/v1/clustertemplates/ct", patch, headers=MEMBER, expect_errors=True)
    assert _error(r, 400) == detail
    ct.refresh()
    assert ct.name == "ct" and ct.coe == "kubernetes"


def test_template_in_use(api, ct):
    fixtures.cluster(ct, "p1")
    r = api.delete("/v1/clustertemplates/ct", headers=MEMBER, expect_errors=True)
    assert _error(r, 400) == "ClusterTemplate %s is referenced by one or multiple clusters." % (
        ct.uuid
    )
    r = api.patch_json(
        "/v1/clustertemplates/ct",
        [{"op": "replace", "path": "/flavor_id", "value": "m1.large"}],
        headers=MEMBER,
        expect_errors=True,
    )
    _error(r, 400)
    r = api.patch_json(
        "/v1/clustertemplates/ct",
        [{"op": "replace", "path": "/name", "value": "ct2"}],
        headers=MEMBER,
    )
    assert r.json["name"] == "ct2"


def test_cluster_patch_only_node_count(api, ct):
    c = fixtures.cluster(ct, "p1", name="c1")
    r = api.patch_json(
        "/v1/clusters/c1",
        [{"op": "replace", "path": "/name", "value": "x"}],
        headers=MEMBER,
        expect_errors=True,
    )
    assert _error(r, 400) == "cannot change cluster property(ies) name."
    r = api.patch_json(
        "/v1/clusters/c1",
        [{"op": "replace", "path": "/node_count", "value": 0}],
        headers=headers("p1", version="1.9"),
        expect_errors=True,
    )
    _error(r, 400)
    c.refresh()
    assert c.name == "c1"


def test_cluster_deleted_while_read(api, ct):
    """The conductor deletes a cluster's nodegroups and its row in one transaction; a read
    that got the row just before that committed finds no nodegroups. It answers as a read
    after the delete does (gone from the list, 404), never 400 on master_count 0."""
    kept = fixtures.cluster(ct, "p1", name="kept")
    going = fixtures.cluster(ct, "p1", name="going")
    for ng in going.nodegroups:  # the state such a read sees: the row, no nodegroups
        ng.destroy()
    for path in ("/v1/clusters", "/v1/clusters/detail"):
        r = api.get(path, headers=MEMBER)
        assert [(c["uuid"], c["master_count"]) for c in r.json["clusters"]] == [(kept.uuid, 1)]
    r = api.get("/v1/clusters/going", headers=MEMBER, expect_errors=True)
    assert _error(r, 404) == "Cluster %s could not be found." % going.uuid
    r = api.patch_json(
        "/v1/clusters/going",
        [{"op": "replace", "path": "/node_count", "value": 3}],
        headers=MEMBER,
        expect_errors=True,
    )
    _error(r, 404)
    assert api.get("/v1/clusters/kept", headers=MEMBER).json["node_count"] == 2


def test_duplicate_names_conflict(api, ct):
    fixtures.cluster(ct, "p1", name="dup")
    fixtures.cluster(ct, "p1", name="dup")
    r = api.get("/v1/clusters/dup", headers=MEMBER, expect_errors=True)
    assert r.status_int == 409
    assert r.json["errors"][0]["detail"] == (
        "Multiple clusters exist with same name. Please use the cluster uuid instead."
    )


def test_list_parameters(api, ct):
    for name in ("a", "b", "c"):
        fixtures.cluster(ct, "p1", name=name)
    r = api.get("/v1/clusters?limit=2&sort_key=name&sort_dir=desc", headers=MEMBER)
    assert [c["name"] for c in r.json["clusters"]] == ["c", "b"]
    assert r.json["next"].startswith(
        "http://localhost/v1/clusters?sort_key=name&sort_dir=desc&limit=2&marker="
    )
    r = api.get(r.json["next"].replace("http://localhost", ""), headers=MEMBER)
    assert [c["name"] for c in r.json["clusters"]] == ["a"] and "next" not in r.json
    for query, detail in (
        ("limit=0", "Limit must be positive"),
        ("sort_dir=up", "Invalid sort direction: up. Acceptable values are 'asc' or 'desc'"),
        ("sort_key=bogus", 'The sort_key value "bogus" is an invalid field for sorting'),
        ("foo=1", 'Unknown argument: "foo"'),
    ):
        r = api.get("/v1/clusters?" + query, headers=MEMBER, expect_errors=True)
        assert _error(r, 400) == detail


def test_microversions(api):
    r = api.get(
        "/v1/clusters",
        headers={"OpenStack-API-Version": "container-infra 1.15"},
        expect_errors=True,
    )
    assert r.status_int == 406
    assert r.json["errors"][0]["code"] == "magnum.microversion-unsupported"
    assert r.headers["OpenStack-API-Maximum-Version"].endswith(" 1.14")
    r = api.get("/v1/clusters", headers={"OpenStack-API-Version": "nova 1.2"}, expect_errors=True)
    assert r.status_int == 406
    r = api.get("/v1/clusters")
    assert r.headers["OpenStack-API-Version"] == "container-infrastructure-management 1.1"
    r = api.get(
        "/v1/stats", headers={"OpenStack-API-Version": "container-infra 1.3"}, expect_errors=True
    )
    assert r.status_int == 406
    r = api.get(
        "/v1/clusters/x/nodegroups",
        headers={"OpenStack-API-Version": "container-infra 1.8"},
        expect_errors=True,
    )
    assert r.status_int == 406


def test_nodegroup_errors(api, ct):
    c = fixtures.cluster(ct, "p1", name="c1")
    url = "/v1/clusters/c1/nodegroups"
    r = api.post_json(url, {"name": "m", "role": "master"}, headers=MEMBER, expect_errors=True)
    assert _error(r, 400) == "Creating master nodegroups is currently not supported."
    r = api.post_json(
        url, {"name": "n", "node_count": 5, "max_node_count": 3}, headers=MEMBER, expect_errors=True
    )
    assert r.status_int == 409
    r = api.post_json(url, {"name": "default-worker"}, headers=MEMBER, expect_errors=True)
    assert r.status_int == 409
    r = api.delete(url + "/default-worker", headers=MEMBER, expect_errors=True)
    assert _error(r, 400) == "Deleting a default nodegroup is not supported."
    r = api.get(url + "/detail", headers=MEMBER, expect_errors=True)
    assert _error(r, 404) == "Nodegroup detail could not be found."
    r = api.post_json(
        "/v1/clusters/c1/actions/resize",
        {"node_count": 2, "nodegroup": "default-master"},
        headers=MEMBER,
        expect_errors=True,
    )
    assert _error(r, 400) == "Resizing a master nodegroup is not supported."
    assert len(c.nodegroups) == 2
