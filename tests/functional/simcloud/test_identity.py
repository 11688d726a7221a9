"""Identity (Keystone v3 subset) in process: tokens, validation, revocation, catalog,
projects/users/roles, trusts and trust-scoped tokens."""

import datetime

import pytest

from simcloud.db import api as db_api
from simcloud.db import identity as identity_db
from simcloud.identity import tokens

pytestmark = pytest.mark.functional


def test_version_documents(simcloud):
    resp = simcloud.app.get("/identity", status=300)
    assert resp.json["versions"]["values"][0]["id"].startswith("v3")
    assert simcloud.app.get("/identity/v3").json["version"]["status"] == "stable"


def test_password_token_carries_catalog_and_roles(simcloud):
    resp = simcloud.app.post_json(
        "/identity/v3/auth/tokens", simcloud.auth_body("admin", project="admin"), status=201
    )
    token = resp.json["token"]
    assert resp.headers["X-Subject-Token"]
    assert token["project"]["name"] == "admin"
    assert {"admin", "member", "reader"} <= {r["name"] for r in token["roles"]}
    urls = {e["type"]: e["endpoints"][0]["url"] for e in token["catalog"]}
    assert urls["compute"] == "http://simcloud.test/compute/v2.1"
    assert urls["orchestration"] == "http://127.0.0.1:8004/v1/" + token["project"]["id"]
    assert urls["container-infra"] == "http://127.0.0.1:9511/v1"
    assert urls["volumev3"].endswith("/volume/v3/" + token["project"]["id"])


def test_wrong_password_is_401_with_keystone_body(simcloud):
    resp = simcloud.app.post_json(
        "/identity/v3/auth/tokens",
        simcloud.auth_body("admin", password="nope", project="admin"),
        status=401,
    )
    assert resp.json["error"]["code"] == 401
    assert resp.json["error"]["title"] == "Unauthorized"
    assert "nope" not in resp.text


def test_malformed_auth_is_400(simcloud):
    resp = simcloud.app.post("/identity/v3/auth/tokens", "{not json", status=400)
    assert resp.json["error"]["code"] == 400
    simcloud.app.post_json("/identity/v3/auth/tokens", {"auth": {}}, status=400)


def test_validate_and_revoke(simcloud):
    demo = simcloud.token("demo")
    headers = {"X-Auth-Token": simcloud.token("admin"), "X-Subject-Token": demo}
    resp = simcloud.app.get("/identity/v3/auth/tokens", headers=headers, status=200)
    assert resp.json["token"]["user"]["name"] == "demo"
    assert resp.headers["X-Subject-Token"] == demo
    simcloud.app.delete("/identity/v3/auth/tokens", headers=headers, status=204)
    simcloud.app.get("/identity/v3/auth/tokens", headers=headers, status=404)
    resp = simcloud.app.get("/compute/v2.1/servers", headers={"X-Auth-Token": demo}, status=401)
    assert resp.json["error"]["code"] == 401


def test_expired_token_is_401(simcloud):
    token = simcloud.token("demo")
    simcloud.app.get("/compute/v2.1/servers", headers={"X-Auth-Token": token}, status=200)
    tokens.forget_cached()
    with db_api.transaction() as conn:
        conn.execute(
            identity_db.T_TOKEN.update().values(
                expires_at=db_api.utcnow() - datetime.timedelta(seconds=1)
            )
        )
    simcloud.app.get("/compute/v2.1/servers", headers={"X-Auth-Token": token}, status=401)


def test_no_token_is_401(simcloud):
    resp = simcloud.app.get("/networking/v2.0/networks", status=401)
    assert "WWW-Authenticate" in resp.headers


def test_passwords_are_stored_hashed(simcloud):
    row = identity_db.get_all("user", name="admin")[0]
    assert row.password_hash.startswith("$2") and "password" not in row.password_hash


def test_projects_users_roles_and_assignments(simcloud):
    project = simcloud.post("/identity/v3/projects", {"project": {"name": "p1"}}, status=201)
    project_id = project.json["project"]["id"]
    user = simcloud.post(
        "/identity/v3/users",
        {"user": {"name": "u1", "password": "pw1", "default_project_id": project_id}},
        status=201,
    ).json["user"]
    role = simcloud.get("/identity/v3/roles?name=member", status=200).json["roles"][0]
    path = "/identity/v3/projects/%s/users/%s/roles/%s" % (project_id, user["id"], role["id"])
    simcloud.put(path, {}, status=204)
    assigned = simcloud.get(
        "/identity/v3/role_assignments?user.id=%s&include_names" % user["id"], status=200
    ).json["role_assignments"]
    assert assigned[0]["role"]["name"] == "member"
    token = simcloud.app.post_json(
        "/identity/v3/auth/tokens", simcloud.auth_body("u1", "pw1", project="p1"), status=201
    ).json["token"]
    assert token["project"]["id"] == project_id
    simcloud.post("/identity/v3/projects", {"project": {"name": "p1"}}, status=409)
    # only an admin manages identity
    simcloud.post("/identity/v3/projects", {"project": {"name": "p2"}}, user="demo", status=403)
    simcloud.delete(path, status=204)
    simcloud.delete("/identity/v3/users/" + user["id"], status=204)
    simcloud.get("/identity/v3/users/" + user["id"], status=404)


def test_trust_scoped_token(simcloud):
    demo = simcloud.app.post_json(
        "/identity/v3/auth/tokens", simcloud.auth_body("demo", project="demo")
    ).json["token"]
    heat_user = identity_db.get_all("user", name="heat")[0]
    trust = simcloud.post(
        "/identity/v3/OS-TRUST/trusts",
        {
            "trust": {
                "trustor_user_id": demo["user"]["id"],
                "trustee_user_id": heat_user.id,
                "project_id": demo["project"]["id"],
                "impersonation": True,
                "roles": [{"name": "member"}],
            }
        },
        user="demo",
        status=201,
    ).json["trust"]
    assert simcloud.get("/identity/v3/OS-TRUST/trusts/" + trust["id"], user="demo").json
    body = simcloud.auth_body("heat")
    body["auth"]["scope"] = {"OS-TRUST:trust": {"id": trust["id"]}}
    resp = simcloud.app.post_json("/identity/v3/auth/tokens", body, status=201)
    token = resp.json["token"]
    assert token["user"]["id"] == demo["user"]["id"]
    assert token["project"]["id"] == demo["project"]["id"]
    assert [r["name"] for r in token["roles"]] == ["member"]
    assert token["OS-TRUST:trust"]["id"] == trust["id"]
    # the trust goes: so do its tokens
    simcloud.delete("/identity/v3/OS-TRUST/trusts/" + trust["id"], user="demo", status=204)
    simcloud.app.get(
        "/compute/v2.1/servers",
        headers={"X-Auth-Token": resp.headers["X-Subject-Token"]},
        status=401,
    )
    # a login into a deleted trust: Keystone's TrustNotFound
    resp = simcloud.app.post_json("/identity/v3/auth/tokens", body, status=404)
    assert resp.json["error"]["message"] == "Could not find trust: %s." % trust["id"]


def test_domain_admin_manages_users_with_a_domain_scoped_token(simcloud):
    """As Magnum's trustee domain admin: a role on the domain, a domain-scoped token, and
    with it users created and deleted in that domain."""
    user = simcloud.post(
        "/identity/v3/users", {"user": {"name": "dadmin", "password": "pw"}}, status=201
    ).json["user"]
    admin_role = simcloud.get("/identity/v3/roles?name=admin").json["roles"][0]
    body = simcloud.auth_body("dadmin", "pw")
    body["auth"]["scope"] = {"domain": {"id": "default"}}
    simcloud.app.post_json("/identity/v3/auth/tokens", body, status=401)  # no domain role yet
    grant = "/identity/v3/domains/default/users/%s/roles/%s" % (user["id"], admin_role["id"])
    simcloud.put(grant, {}, status=204)
    simcloud.request("HEAD", grant, status=204)
    listed = simcloud.get("/identity/v3/domains/default/users/%s/roles" % user["id"])
    assert [r["name"] for r in listed.json["roles"]] == ["admin"]
    simcloud.put(grant.replace("/default/", "/nodomain/"), {}, status=404)

    resp = simcloud.app.post_json("/identity/v3/auth/tokens", body, status=201)
    token = resp.json["token"]
    assert token["domain"]["id"] == "default" and "project" not in token
    assert [r["name"] for r in token["roles"]] == ["admin"]
    assert "identity" in {e["type"] for e in token["catalog"]}
    headers = {"X-Auth-Token": resp.headers["X-Subject-Token"]}
    trustee = simcloud.app.post_json(
        "/identity/v3/users",
        {"user": {"name": "trustee1", "password": "x", "domain_id": "default"}},
        headers=headers,
        status=201,
    ).json["user"]
    simcloud.app.delete("/identity/v3/users/" + trustee["id"], headers=headers, status=204)
    body["auth"]["scope"] = {"domain": {"id": "other"}}
    simcloud.app.post_json("/identity/v3/auth/tokens", body, status=401)
    simcloud.delete(grant, status=204)
    simcloud.delete(grant, status=404)


def test_services_endpoints_regions(simcloud):
    services = simcloud.get("/identity/v3/services", status=200).json["services"]
    assert {"identity", "orchestration", "container-infra"} <= {s["type"] for s in services}
    endpoints = simcloud.get("/identity/v3/endpoints", status=200).json["endpoints"]
    assert {e["interface"] for e in endpoints} == {"public", "internal", "admin"}
    assert simcloud.get("/identity/v3/regions").json["regions"][0]["id"] == "RegionOne"


def test_a_deleted_users_trusts_go_with_it(simcloud):
    """As Keystone's: a trustee deleted (a cluster's, whose create never recorded its
    trust) takes its trusts along; so does a deleted trustor."""
    demo = simcloud.app.post_json(
        "/identity/v3/auth/tokens", simcloud.auth_body("demo", project="demo")
    ).json["token"]
    trustee = simcloud.post(
        "/identity/v3/users", {"user": {"name": "trustee1", "password": "pw"}}, status=201
    ).json["user"]
    trust = simcloud.post(
        "/identity/v3/OS-TRUST/trusts",
        {
            "trust": {
                "trustor_user_id": demo["user"]["id"],
                "trustee_user_id": trustee["id"],
                "project_id": demo["project"]["id"],
                "impersonation": True,
                "roles": [{"name": "member"}],
            }
        },
        user="demo",
        status=201,
    ).json["trust"]
    simcloud.delete("/identity/v3/users/" + trustee["id"], status=204)
    simcloud.get("/identity/v3/OS-TRUST/trusts/" + trust["id"], status=404)
    assert identity_db.trust_get_all() == []
