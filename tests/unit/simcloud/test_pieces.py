"""simcloud's pure pieces: the catalog's URLs, microversion negotiation, failure matching,
password hashing, the URL table."""

import pytest
import webob

from simcloud.api import router
from simcloud.cloud import injection
from simcloud.common import exception
from simcloud.conf import CONF
from simcloud.identity import catalog, passwords

pytestmark = pytest.mark.unit


@pytest.fixture
def conf():
    CONF([], project="simcloud", default_config_files=[])
    injection.forget()
    yield CONF
    injection.forget()
    CONF.reset()


def test_catalog_substitutes_the_project(conf):
    conf.set_override("public_url", "http://cloud:8080/", group="api")
    conf.set_override(
        "orchestration_endpoint", "http://heat:8004/v1/$(project_id)s", group="catalog"
    )
    urls = {e["type"]: e["endpoints"][0]["url"] for e in catalog.build("p1")}
    assert urls["orchestration"] == "http://heat:8004/v1/p1"
    assert urls["network"] == "http://cloud:8080/networking"
    assert urls["volumev3"] == "http://cloud:8080/volume/v3/p1"
    unscoped = {e["type"] for e in catalog.build(None)}
    assert "orchestration" not in unscoped and "compute" in unscoped


def test_internal_endpoints_for_services_on_another_network(conf):
    """The public endpoints are the clients' URLs, the internal ones the services' (the
    compose file's containers reach simcloud as simcloud-api:8080)."""
    conf.set_override("public_url", "http://127.0.0.1:8080", group="api")
    conf.set_override("internal_url", "http://simcloud-api:8080", group="api")
    [compute] = [e for e in catalog.build("p1") if e["type"] == "compute"]
    urls = {e["interface"]: e["url"] for e in compute["endpoints"]}
    assert urls == {
        "public": "http://127.0.0.1:8080/compute/v2.1",
        "admin": "http://127.0.0.1:8080/compute/v2.1",
        "internal": "http://simcloud-api:8080/compute/v2.1",
    }
    conf.clear_override("internal_url", group="api")
    [compute] = [e for e in catalog.build("p1") if e["type"] == "compute"]
    assert {e["url"] for e in compute["endpoints"]} == {"http://127.0.0.1:8080/compute/v2.1"}


def test_endpoint_override(conf):
    conf.set_override("endpoint_overrides", {"compute": "http://nova:8774/v2.1"}, group="catalog")
    urls = {e["type"]: e["endpoints"][0]["url"] for e in catalog.build("p1")}
    assert urls["compute"] == "http://nova:8774/v2.1"


def test_microversions():
    versions = router.Microversions("compute", "2.1", "2.96", "X-OpenStack-Nova-API-Version")
    blank = webob.Request.blank
    assert versions.requested(blank("/")) == (2, 1)
    assert versions.requested(blank("/", headers={"OpenStack-API-Version": "compute 2.79"})) == (
        2,
        79,
    )
    assert versions.requested(blank("/", headers={"X-OpenStack-Nova-API-Version": "2.60"})) == (
        2,
        60,
    )
    assert versions.requested(blank("/", headers={"OpenStack-API-Version": "compute latest"})) == (
        2,
        96,
    )
    with pytest.raises(router.VersionNotAcceptable):
        versions.requested(blank("/", headers={"OpenStack-API-Version": "compute 2.200"}))
    with pytest.raises(exception.BadRequest):
        versions.requested(blank("/", headers={"OpenStack-API-Version": "compute two"}))


def test_should_fail_from_config(conf, monkeypatch):
    monkeypatch.setattr(injection.db, "settings_get", lambda: {})
    conf.set_override("fail_objects", ["nova.server:*-master-0"], group="simulation")
    assert injection.should_fail("nova.server", "k8s-master-0")
    assert not injection.should_fail("nova.server", "k8s-minion-0")
    assert not injection.should_fail("cinder.volume", "k8s-master-0")
    assert injection.should_fail("cinder.volume", "x-sim-fail-y")


def test_run_time_settings_override_config(conf, monkeypatch):
    monkeypatch.setattr(injection.db, "settings_get", lambda: {"build_time": 3.5})
    assert injection.current()["build_time"] == 3.5
    assert injection.current()["fail_marker"] == "sim-fail"


def test_passwords(conf):
    conf.set_override("password_hash_rounds", 4, group="identity")
    hashed = passwords.hash_password("s3cret")
    assert "s3cret" not in hashed
    assert passwords.check_password("s3cret", hashed)
    assert not passwords.check_password("wrong", hashed)
    assert not passwords.check_password("s3cret", "not-a-hash")


def test_url_table():
    def handler(req, obj_id):
        return 200, {"id": obj_id}

    service = router.Service(
        "x", routes=[("GET", "v1/things/{obj_id}", handler)], render_error=router.keystone_error
    )
    assert service.resolve("GET", ["v1", "things", "a"])[1] == {"obj_id": "a"}
    with pytest.raises(router.MethodNotAllowed):
        service.resolve("DELETE", ["v1", "things", "a"])
    with pytest.raises(exception.NotFound):
        service.resolve("GET", ["v1", "other"])


def test_a_read_overtaken_by_a_change_is_not_kept(conf, monkeypatch):
    """A request that read the settings while they changed (the admin endpoint, a
    test's override) must not keep what it read: the requests after the change see it
    at once, not a second later."""

    def read_while_changing():
        conf.set_override("fail_objects", ["nova.server:vm"], group="simulation")
        injection.forget()
        return {}

    monkeypatch.setattr(injection.db, "settings_get", read_while_changing)
    assert injection.current()["fail_objects"] == []  # read before the change
    monkeypatch.setattr(injection.db, "settings_get", lambda: {})
    assert injection.should_fail("nova.server", "vm")
