"""magnum-lite in keystone mode, end to end with the real CLI through a clouds.yaml
(``openstack --os-cloud simcloud coe ...``, every endpoint from simcloud's catalog):
magnum-lite-api behind keystonemiddleware, heat-lite in keystone mode, simcloud's
Keystone, on PostgreSQL and RabbitMQ.

A cluster gets a trustee user (made by the trustee domain admin) and a trust from its
user; the stack gets them as parameters; the periodic sync polls Heat as the trustee
through the trust (with its admin context once the trust was deleted outside magnum, as
Magnum); deleting the cluster deletes both.
"""

import json

import pytest
import requests
import sqlalchemy as sa
from heatclient import client as heat_client

from tests.fixtures import magnum_services
from tests.integration import helpers

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    with magnum_services.keystone_deployment(tmp_path_factory) as deployed:
        yield deployed


def stored_parameters(heat, stack_id):
    """The parameters heat-lite stored for a stack (hidden ones unmasked)."""
    engine = sa.create_engine(heat.database_url)
    try:
        with engine.connect() as conn:
            env = conn.execute(
                sa.text(
                    "SELECT r.environment FROM stack s JOIN raw_template r"
                    " ON r.id = s.raw_template_id WHERE s.id = :id"
                ),
                {"id": stack_id},
            ).scalar_one()
    finally:
        engine.dispose()
    return (json.loads(env) if isinstance(env, str) else env)["parameters"]


user_session = magnum_services.user_session


def identity_get(cloud, path):
    """(status, body) of a GET on simcloud's Keystone as admin."""
    resp = user_session(cloud, "admin").get(
        cloud.auth_url + "/v3/" + path, raise_exc=False, authenticated=True
    )
    return resp.status_code, (resp.json() if resp.content else None)


def create_cluster(demo, template, name):
    """A template and a cluster of 1 node of it, as demo; the cluster once CREATE_COMPLETE."""
    demo(
        "coe", "cluster", "template", "create",
        "--coe", "kubernetes",
        "--image", "fedora-coreos-40",
        "--external-network", "public",
        "--flavor", "m1.small",
        "--master-flavor", "m1.medium",
        template,
    )  # fmt: skip
    demo("coe", "cluster", "create", "--cluster-template", template, "--node-count", "1", name)
    cluster = helpers.wait_cluster_status(demo, name, ["CREATE_COMPLETE", "CREATE_FAILED"])
    assert cluster["status"] == "CREATE_COMPLETE", cluster["status_reason"]
    return cluster


def test_request_without_or_with_a_bad_token_is_401(deployment):
    heat, magnum, demo = deployment
    for headers in ({}, {"X-Auth-Token": "not-a-token"}):
        resp = requests.get(magnum.endpoint + "/clusters", headers=headers, timeout=10)
        assert resp.status_code == 401, resp.text
        assert resp.json()["errors"][0]["status"] == 401
    # the version documents stay public, as in Magnum
    assert requests.get(magnum.endpoint, timeout=10).status_code == 200


def test_cluster_gets_trustee_and_trust_and_loses_them_on_delete(deployment):
    heat, magnum, demo = deployment
    cluster = create_cluster(demo, "ks-ct", "kc1")

    # the stack (cluster_id from microversion 1.13), seen by its owner through the catalog
    session = user_session(heat.cloud, "demo")
    hc = heat_client.Client("1", session=session, service_type="orchestration")
    params = hc.stacks.get(cluster["cluster_id"]).parameters
    # Heat shows hidden parameters (trust_id, trustee_password) as ******; their values
    # are in the stack's stored environment
    assert params["trust_id"] == params["trustee_password"] == "******"
    stored = stored_parameters(heat, cluster["cluster_id"])
    for key in ("trust_id", "trustee_user_id", "trustee_username", "trustee_password"):
        assert stored[key], key
    assert params["trustee_domain_id"] == "default"
    assert params["trustee_username"].startswith(cluster["uuid"])
    trust_id, trustee_id = stored["trust_id"], params["trustee_user_id"]

    status, body = identity_get(heat.cloud, "OS-TRUST/trusts/" + trust_id)
    assert status == 200, body
    trust = body["trust"]
    assert trust["trustor_user_id"] == session.get_user_id()
    assert trust["trustee_user_id"] == trustee_id
    assert trust["project_id"] == session.get_project_id()
    assert trust["impersonation"] is True
    assert {r["name"] for r in trust["roles"]} == {"member", "reader"}
    assert identity_get(heat.cloud, "users/" + trustee_id)[0] == 200

    demo("coe", "cluster", "delete", "kc1")
    helpers.wait_cluster_gone(demo, "kc1")
    assert identity_get(heat.cloud, "OS-TRUST/trusts/" + trust_id)[0] == 404
    assert identity_get(heat.cloud, "users/" + trustee_id)[0] == 404


def test_status_synced_with_admin_context_once_the_trust_is_gone(deployment):
    """A trust deleted outside Magnum: the trustee can no longer log in (Keystone's
    "Could not find trust"), so the sync acts with its admin context, as Magnum's
    ClusterUpdateJob: the cluster still leaves UPDATE_IN_PROGRESS, and its delete ends."""
    heat, magnum, demo = deployment
    cluster = create_cluster(demo, "ks-ct-gone", "kc2")
    trust_id = stored_parameters(heat, cluster["cluster_id"])["trust_id"]
    resp = user_session(heat.cloud, "admin").delete(
        heat.cloud.auth_url + "/v3/OS-TRUST/trusts/" + trust_id, raise_exc=False
    )
    assert resp.status_code == 204, resp.text

    demo("coe", "cluster", "resize", "kc2", "2")
    cluster = helpers.wait_cluster_status(
        demo,
        "kc2",
        ["UPDATE_COMPLETE", "UPDATE_FAILED"],
        until=lambda c: len(c["node_addresses"]) == 2,
    )
    assert cluster["status"] == "UPDATE_COMPLETE", cluster["status_reason"]
    assert cluster["node_count"] == 2
    assert len(cluster["node_addresses"]) == 2

    demo("coe", "cluster", "delete", "kc2")
    helpers.wait_cluster_gone(demo, "kc2")
