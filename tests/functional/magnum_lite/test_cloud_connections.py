"""In keystone mode every request acts with its own token; the sockets magnum-lite-api's
real process holds to the cloud stay as few as its pool's, however many tokens came
(issue 29: a keystoneauth session, and so a requests session, per request held a socket
each at the cloud until the garbage collector happened to find it).

A real simcloud-api and a real magnum-lite-api (keystone mode, auth_token against
simcloud) on PostgreSQL; each cluster template create carries a new token and makes the
API look its image and flavor up in the cloud's Glance and Nova (a flavor that is
missing: asked every time).
"""

import time
import types

import psutil
import pytest
import requests

from magnum_lite.common import keystone
from tests.fixtures import magnum_services, services
from tests.fixtures.services import READY_TIMEOUT
from tests.fixtures.simcloud_services import PASSWORDS, SimcloudProcess

TOKENS = 3 * keystone.POOL_MAXSIZE


class MagnumApiOnly(magnum_services.MagnumProcesses):
    """magnum-lite-api alone (a template create needs no conductor)."""

    def services(self):
        yield next(iter(super().services()))

    def wait_ready(self, timeout=READY_TIMEOUT):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            proc = self.procs["magnum-api"]
            if proc.poll() is not None:
                raise RuntimeError("magnum-api exited early:\n" + self.log("magnum-api"))
            try:
                if requests.get(self.endpoint, timeout=2).status_code == 200:
                    return
            except requests.RequestException:
                pass
            time.sleep(0.2)
        raise RuntimeError("magnum-api did not become ready:\n" + self.log("magnum-api"))


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    cloud_db, cloud_url = services.create_database()
    cloud = SimcloudProcess(tmp_path_factory.mktemp("simcloud"), cloud_url)
    try:
        cloud.start()
        with services.isolated_backends() as (db_url, transport_url):
            heat = types.SimpleNamespace(
                endpoint="http://127.0.0.1:9/v1/admin",  # never called: no cluster is made
                cloud=cloud,
                cloud_identity=lambda: {
                    "username": "magnum",
                    "password": "password",
                    "project_name": "service",
                },
            )
            magnum = MagnumApiOnly(
                tmp_path_factory.mktemp("magnum"), db_url, transport_url, heat, trust={}
            )
            try:
                magnum.start()
                yield cloud, magnum
            finally:
                magnum.stop()
    finally:
        cloud.stop()
        services.drop_database(cloud_db)


def _new_token(cloud):
    """A token of user demo in project demo, issued now (each call a different one)."""
    user = {"name": "demo", "domain": {"id": "default"}, "password": PASSWORDS["demo"]}
    auth = {
        "identity": {"methods": ["password"], "password": {"user": user}},
        "scope": {"project": {"name": "demo", "domain": {"id": "default"}}},
    }
    resp = requests.post(cloud.auth_url + "/v3/auth/tokens", json={"auth": auth}, timeout=30)
    resp.raise_for_status()
    return resp.headers["X-Subject-Token"]


def _sockets_to(pid, port):
    """The TCP sockets process ``pid`` holds (has a descriptor of) to ``port``."""
    return [
        c
        for c in psutil.Process(pid).net_connections(kind="tcp")
        if c.raddr and c.raddr.port == port and c.status != psutil.CONN_LISTEN
    ]


def test_sockets_to_the_cloud_stay_bounded_across_tokens(deployment):
    cloud, magnum = deployment
    tokens = set()
    for i in range(TOKENS):
        token = _new_token(cloud)
        tokens.add(token)
        resp = requests.post(
            magnum.endpoint + "/clustertemplates",
            json={
                "name": "t%d" % i,
                "coe": "kubernetes",
                "image_id": "fedora-coreos-40",
                "external_network_id": "public",
                "flavor_id": "absent-flavor-%d" % i,
            },
            headers={"X-Auth-Token": token, "OpenStack-API-Version": "container-infra latest"},
            timeout=60,
        )
        # the API asked the cloud's Glance and Nova, with this token, and was told there is
        # no such flavor
        assert resp.status_code == 400, resp.text
        assert "Unable to find flavor absent-flavor-%d" % i in resp.text
    assert len(tokens) == TOKENS
    held = len(_sockets_to(magnum.procs["magnum-api"].pid, cloud.port))
    assert 1 <= held <= keystone.POOL_MAXSIZE, held
