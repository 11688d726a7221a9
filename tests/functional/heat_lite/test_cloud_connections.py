"""In keystone mode every request acts with its own token; the sockets heat-lite's real
processes hold to the cloud stay as few as its pool's, however many tokens came
(issue 29: a requests session per token left ~90 clusters' worth of sockets open at
simcloud-api, whose 1,024 green threads then answered nothing).

Real heat-lite-api and heat-lite-engine processes (one worker) on PostgreSQL and
RabbitMQ, against a real simcloud-api; each stack create carries a new token and makes
the engine ask the cloud for a network (a miss, asked every time).
"""

import psutil
import pytest
import requests

from heat_lite.engine.clients.rest import session
from tests.fixtures import services
from tests.fixtures.simcloud_services import PASSWORDS

TOKENS = 3 * session.POOL_MAXSIZE


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


def _new_token(cloud):
    """A token of user demo in project demo, issued now (each call a different one)."""
    auth = {
        "identity": {
            "methods": ["password"],
            "password": {
                "user": {"name": "demo", "domain": {"id": "default"}, "password": PASSWORDS["demo"]}
            },
        },
        "scope": {"project": {"name": "demo", "domain": {"id": "default"}}},
    }
    resp = requests.post(cloud.auth_url + "/v3/auth/tokens", json={"auth": auth}, timeout=30)
    resp.raise_for_status()
    return resp.headers["X-Subject-Token"], resp.json()["token"]["project"]["id"]


def _sockets_to(pid, port):
    """The TCP sockets process ``pid`` holds (has a descriptor of) to ``port``."""
    return [
        c
        for c in psutil.Process(pid).net_connections(kind="tcp")
        if c.raddr and c.raddr.port == port and c.status != psutil.CONN_LISTEN
    ]


def test_sockets_to_the_cloud_stay_bounded_across_tokens(heat):
    port = heat.cloud.port
    seen = set()
    for i in range(TOKENS):
        token, project_id = _new_token(heat.cloud)
        seen.add(token)
        template = {
            "heat_template_version": "queens",
            "parameters": {
                "net": {
                    "type": "string",
                    "constraints": [{"custom_constraint": "neutron.network"}],
                }
            },
            "resources": {},
        }
        resp = requests.post(
            "http://127.0.0.1:%d/v1/%s/stacks" % (heat.api_port, project_id),
            json={
                "stack_name": "s%d" % i,
                "template": template,
                "parameters": {"net": "absent-net-%d" % i},
            },
            headers={"X-Auth-Token": token},
            timeout=60,
        )
        # the engine asked the cloud, with this token, and was told there is no such net
        assert resp.status_code == 400, resp.text
        assert "absent-net-%d" % i in resp.text
    assert len(seen) == TOKENS
    held = {name: len(_sockets_to(proc.pid, port)) for name, proc in heat.procs.items()}
    assert held["engine"] >= 1, held  # it did talk to the cloud
    assert all(count <= session.POOL_MAXSIZE for count in held.values()), held
