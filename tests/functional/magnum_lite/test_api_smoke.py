import pytest

from tests.functional.magnum_lite.conftest import LATEST

pytestmark = pytest.mark.functional


def test_root(api):
    r = api.get("/")
    assert r.json["versions"][0]["links"][0]["href"] == "http://localhost/v1/"
    assert "OpenStack-API-Version" not in r.headers


def test_v1_document(api):
    r = api.get("/v1", headers=LATEST)
    assert r.headers["OpenStack-API-Version"] == "container-infrastructure-management 1.14"
    assert r.json["clusters"][0]["href"] == "http://localhost/v1/clusters/"
    assert r.json["nodegroups"][1]["href"] == "http://localhost/clusters/{cluster_id}/nodegroups"
