"""magnum-lite's keystone mode against simcloud's Keystone served in this process:
auth_token in front of the API, trust_manager's trustee and trust, make_cluster_context.
"""

import types

import pytest
import requests
import webtest
from keystoneauth1 import loading as ka_loading

from magnum_lite.api import app as api_app
from magnum_lite.cluster_credentials import trust_manager
from magnum_lite.common import clients, exception, policy, rpc
from magnum_lite.common import context as magnum_context
from magnum_lite.conf import CONF
from magnum_lite.conf.keystone import CFG_GROUP, CFG_LEGACY_GROUP
from magnum_lite.db import api as db_api
from simcloud.db import identity as identity_db
from simcloud.identity import bootstrap, manager
from tests.fixtures import simcloud_inprocess

pytestmark = pytest.mark.functional

DOMAIN_ADMIN_PASSWORD = "domain-admin-secret"

MAGNUM_CONF = """
[DEFAULT]
auth_strategy = keystone

[database]
connection = {db_url}

[keystone_authtoken]
www_authenticate_uri = {auth_url}
auth_url = {auth_url}
auth_type = password
username = magnum
password = {service_password}
project_name = service
user_domain_id = default
project_domain_id = default

[keystone_auth]
auth_url = {auth_url}
auth_type = password
username = magnum
password = {service_password}
project_name = service
user_domain_id = default
project_domain_id = default

[trust]
cluster_user_trust = {cluster_user_trust}
trustee_domain_id = default
trustee_domain_admin_name = dadmin
trustee_domain_admin_password = {domain_admin_password}
"""


def _forget_plugin_opts():
    """auth plugins register their (required) options when loaded: drop them so that
    later tests parse magnum's CONF without them."""
    for group in (CFG_GROUP, CFG_LEGACY_GROUP):
        for opt in ka_loading.get_auth_plugin_conf_options("password"):
            try:
                CONF.unregister_opt(opt, group=group)
            except Exception:
                pass


@pytest.fixture
def keystone_magnum(tmp_path, request):
    marker = request.node.get_closest_marker("magnum_conf")
    options = dict(cluster_user_trust="true", domain_admin_password=DOMAIN_ADMIN_PASSWORD)
    options.update(marker.kwargs if marker else {})
    with simcloud_inprocess.serve() as cloud:
        # the trustee domain admin: a user with the admin role on the default domain
        dadmin = manager.create("user", {"name": "dadmin", "password": DOMAIN_ADMIN_PASSWORD})
        identity_db.domain_assignment_add(
            dadmin.id, "default", bootstrap.seeded_id("role", "admin")
        )
        db_url = "sqlite:///%s" % (tmp_path / "magnum.sqlite")
        path = tmp_path / "magnum.conf"
        path.write_text(
            MAGNUM_CONF.format(
                db_url=db_url,
                auth_url=cloud.auth_url,
                service_password=simcloud_inprocess.SERVICE_PASSWORD,
                **options,
            )
        )
        CONF(["--config-file", str(path)], project="magnum", default_config_files=[])
        db_api.configure(db_url)
        db_api.create_schema()
        policy.reset()
        rpc.init(CONF, url="fake://")
        try:
            yield cloud
        finally:
            rpc.cleanup()
            db_api.dispose()
            CONF.reset()
            _forget_plugin_opts()


def demo_context(cloud):
    token, project_id = cloud.token("demo")
    return magnum_context.RequestContext(
        auth_token=token,
        user_id=bootstrap.seeded_id("user", "demo"),
        project_id=project_id,
        roles=["member", "reader"],
        is_admin=False,
    )


def new_cluster(ctx):
    return types.SimpleNamespace(
        uuid="5b1c8e2a-0d3f-4c1e-9a7b-2f6d8e4c1a90",
        project_id=ctx.project_id,
        user_id=ctx.user_id,
        trustee_username=None,
        trustee_user_id=None,
        trustee_password=None,
        trust_id=None,
    )


# -- the API behind auth_token ----------------------------------------------------------


def test_api_needs_a_valid_token_but_for_the_version_documents(keystone_magnum):
    app = webtest.TestApp(api_app.setup_app())
    for headers in ({}, {"X-Auth-Token": "bogus"}):
        resp = app.get("/v1/clusters", headers=headers, status=401)
        assert resp.json["errors"][0]["status"] == 401
    assert app.get("/").json["versions"][0]["id"] == "v1"
    app.get("/v1", status=200)
    # spoofed identity headers without a token change nothing
    app.get("/v1/clusters", headers={"X-Roles": "admin", "X-User-Id": "x"}, status=401)


def test_api_context_comes_from_the_token(keystone_magnum):
    app = webtest.TestApp(api_app.setup_app())
    token, project_id = keystone_magnum.token("demo")
    headers = {"X-Auth-Token": token, "OpenStack-API-Version": "container-infra latest"}
    assert app.get("/v1/clusters", headers=headers).json["clusters"] == []
    # stats of another project are for admins only (is_admin from policy: demo is not)
    app.get("/v1/stats?project_id=other", headers=headers, status=403)


# -- trust_manager ------------------------------------------------------------------------


def test_trustee_and_trust_are_made_passed_and_deleted(keystone_magnum):
    ctx = demo_context(keystone_magnum)
    cluster = new_cluster(ctx)
    trust_manager.create_trustee_and_trust(clients.OpenStackClients(ctx), cluster)

    trustee = identity_db.get("user", cluster.trustee_user_id)
    assert trustee.name == cluster.trustee_username == "%s_%s" % (cluster.uuid, ctx.project_id)
    trust = identity_db.trust_get(cluster.trust_id)
    assert (trust.trustor_user_id, trust.trustee_user_id) == (ctx.user_id, trustee.id)
    assert trust.project_id == ctx.project_id and trust.impersonation
    assert {r.name for r in identity_db.roles_by_ids(trust.role_ids)} == {"member", "reader"}
    params = trust_manager.get_trust_params(cluster)
    assert params == {
        "trustee_domain_id": "default",
        "trustee_user_id": trustee.id,
        "trustee_username": trustee.name,
        "trustee_password": cluster.trustee_password,
        "trust_id": trust.id,
    }

    # outside a request the conductor acts as the trustee through the trust, which
    # impersonates the cluster's user in the cluster's project
    session = clients.OpenStackClients(
        magnum_context.make_cluster_context(cluster)
    ).keystone_session()
    assert session.get_user_id() == ctx.user_id
    assert session.get_project_id() == ctx.project_id

    # the periodic sync's admin context is not the trustor: the trust goes through the
    # trustee, the trustee through the domain admin
    admin = magnum_context.get_admin_context()
    trust_id, trustee_id = cluster.trust_id, cluster.trustee_user_id
    trust_manager.delete_trustee_and_trust(clients.OpenStackClients(admin), admin, cluster)
    assert identity_db.trust_get(trust_id) is None
    assert identity_db.get("user", trustee_id) is None
    assert (cluster.trust_id, cluster.trustee_user_id, cluster.trustee_password) == (None,) * 3
    # nothing left: a second delete has nothing to do
    trust_manager.delete_trustee_and_trust(clients.OpenStackClients(admin), admin, cluster)


def test_trustor_deletes_its_own_trust(keystone_magnum):
    ctx = demo_context(keystone_magnum)
    cluster = new_cluster(ctx)
    osc = clients.OpenStackClients(ctx)
    trust_manager.create_trustee_and_trust(osc, cluster)
    trust_id = cluster.trust_id
    trust_manager.delete_trustee_and_trust(osc, ctx, cluster)
    assert identity_db.trust_get(trust_id) is None


@pytest.mark.magnum_conf(cluster_user_trust="false")
def test_trust_id_reaches_the_templates_only_with_cluster_user_trust(keystone_magnum):
    ctx = demo_context(keystone_magnum)
    cluster = new_cluster(ctx)
    trust_manager.create_trustee_and_trust(clients.OpenStackClients(ctx), cluster)
    params = trust_manager.get_trust_params(cluster)
    assert cluster.trust_id and params["trust_id"] == ""
    assert params["trustee_user_id"] == cluster.trustee_user_id


@pytest.mark.magnum_conf(domain_admin_password="wrong")
def test_trustee_failure_is_magnums_error(keystone_magnum, expect_log_errors):
    expect_log_errors("Failed to create trustee")
    ctx = demo_context(keystone_magnum)
    cluster = new_cluster(ctx)
    with pytest.raises(exception.TrusteeOrTrustToClusterFailed):
        trust_manager.create_trustee_and_trust(clients.OpenStackClients(ctx), cluster)
    assert cluster.trust_id is None


def test_heat_endpoint_comes_from_the_catalog(keystone_magnum):
    ctx = demo_context(keystone_magnum)
    osc = clients.OpenStackClients(ctx)
    assert osc.heat_url() == "http://127.0.0.1:8004/v1/" + ctx.project_id
    assert osc.heat().http_client.session is osc.keystone_session()
    # a token that Keystone refuses fails the client, not with a 500 of ours
    bad = magnum_context.RequestContext(auth_token="bogus", project_id="p", user_id="u")
    with pytest.raises(Exception) as err:
        clients.OpenStackClients(bad).heat_url()
    assert "401" in str(err.value) or "Unauthorized" in type(err.value).__name__
    assert requests.get(keystone_magnum.auth_url + "/v3", timeout=5).status_code == 200
