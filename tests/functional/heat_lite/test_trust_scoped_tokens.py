"""A trust-scoped token acts on heat-lite as its trustor (Magnum's trustee deletes a
cluster's stack so when its conductor's delete was lost): the client plugins use the
token as it is, from its validated body, as Heat's context does. The identity service
refuses to rescope a trust-scoped token, so rescoping it (as heat-lite did with every
token) failed each resource action with 403 "Cannot rescope a trust-scoped token".

Real heat-lite-api, engine and one worker in keystone mode on PostgreSQL and RabbitMQ,
against a real simcloud-api.
"""

import time

import pytest
import requests

from tests.fixtures import services
from tests.fixtures.simcloud_services import PASSWORDS

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {"net": {"type": "OS::Neutron::Net"}},
}


@pytest.fixture(scope="module")
def heat(tmp_path_factory):
    with services.isolated_backends() as (db_url, transport_url):
        procs = services.KeystoneHeatProcesses(
            tmp_path_factory.mktemp("heat"), db_url, transport_url, workers=1
        )
        try:
            procs.start()
            yield procs
        finally:
            procs.stop()


def _token(cloud, username, password, scope):
    body = {
        "auth": {
            "identity": {
                "methods": ["password"],
                "password": {
                    "user": {"name": username, "domain": {"id": "default"}, "password": password}
                },
            },
            "scope": scope,
        }
    }
    resp = requests.post(cloud.auth_url + "/v3/auth/tokens", json=body, timeout=30)
    assert resp.status_code == 201, resp.text
    return resp.headers["X-Subject-Token"], resp.json()["token"]


def _trustee_token(heat):
    """demo's trust to heat-lite's service user, and a token scoped to it."""
    demo_token, demo = _token(
        heat.cloud,
        "demo",
        PASSWORDS["demo"],
        {"project": {"name": "demo", "domain": {"id": "default"}}},
    )
    service = heat.cloud_identity()
    service_token, service_user = _token(
        heat.cloud,
        service["username"],
        service["password"],
        {"project": {"name": service["project_name"], "domain": {"id": "default"}}},
    )
    trust = {
        "trustor_user_id": demo["user"]["id"],
        "trustee_user_id": service_user["user"]["id"],
        "project_id": demo["project"]["id"],
        "impersonation": True,
        "roles": [{"name": "member"}],
    }
    resp = requests.post(
        heat.cloud.auth_url + "/v3/OS-TRUST/trusts",
        json={"trust": trust},
        headers={"X-Auth-Token": demo_token},
        timeout=30,
    )
    assert resp.status_code == 201, resp.text
    trust_id = resp.json()["trust"]["id"]
    token, body = _token(
        heat.cloud,
        service["username"],
        service["password"],
        {"OS-TRUST:trust": {"id": trust_id}},
    )
    assert body["OS-TRUST:trust"]["id"] == trust_id
    return token, demo["project"]["id"]


def _wait(url, token, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        resp = requests.get(url, headers={"X-Auth-Token": token}, timeout=30)
        if resp.status_code == 404:
            return "DELETE_COMPLETE", None
        stack = resp.json()["stack"]
        if not stack["stack_status"].endswith("IN_PROGRESS"):
            return stack["stack_status"], stack["stack_status_reason"]
        assert time.monotonic() < deadline, stack["stack_status"]
        time.sleep(0.1)


def test_a_trust_scoped_token_creates_and_deletes_as_its_trustor(heat):
    token, project_id = _trustee_token(heat)
    stacks = "http://127.0.0.1:%d/v1/%s/stacks" % (heat.api_port, project_id)
    resp = requests.post(
        stacks,
        json={"stack_name": "by-trustee", "template": TEMPLATE},
        headers={"X-Auth-Token": token},
        timeout=30,
    )
    assert resp.status_code == 201, resp.text
    url = "%s/by-trustee/%s" % (stacks, resp.json()["stack"]["id"])
    assert _wait(url, token) == ("CREATE_COMPLETE", "Stack CREATE completed successfully")
    assert heat.cloud.objects("demo") == {"neutron.net": 1}  # the trustor's project's
    resp = requests.delete(url, headers={"X-Auth-Token": token}, timeout=30)
    assert resp.status_code == 204, resp.text
    assert _wait(url, token)[0] == "DELETE_COMPLETE"
    assert heat.cloud.objects("demo") == {}
