"""States, build time and failure on purpose of the simulated services."""

import time

import pytest

from heat_lite.conf import CONF
from heat_lite.engine.clients import client_exception
from heat_lite.engine.clients.sim import base


def _svc(ctx):
    svc = base.SimService(ctx)
    svc.service = "nova"
    return svc


def _build(svc, name):
    return svc.create("server", name, {}, building="BUILD", ready="ACTIVE", failed="ERROR")


def test_building_object_becomes_ready_after_build_time(ctx):
    CONF.set_override("build_time", 0.2, group="simulated_cloud")
    svc = _svc(ctx)
    obj = _build(svc, "vm")
    assert obj["status"] == "BUILD"
    assert svc.show("server", obj["id"])["status"] == "BUILD"
    time.sleep(0.25)
    shown = svc.show("server", obj["id"])
    assert shown["status"] == "ACTIVE" and "fault" not in shown
    assert not any(k.startswith("_") for k in shown)


@pytest.mark.parametrize(
    "setting, name",
    [
        (("fail_objects", ["nova.server:*-master-?"]), "k8s-master-0"),
        (("fail_marker", "boom"), "vm-boom-1"),
        (("fail_marker", "sim-fail"), "vm-sim-fail"),
    ],
)
def test_failure_on_purpose(ctx, setting, name):
    CONF.set_override(*setting, group="simulated_cloud")
    svc = _svc(ctx)
    failed = svc.show("server", _build(svc, name)["id"])
    assert failed["status"] == "ERROR"
    assert failed["fault"] == {
        "message": "Simulated failure of nova.server %s (failure on purpose)." % name,
        "code": 500,
    }
    assert svc.show("server", _build(svc, "other")["id"])["status"] == "ACTIVE"


def test_objects_ready_at_once_fail_at_create(ctx):
    CONF.set_override("fail_objects", ["nova.keypair:*"], group="simulated_cloud")
    with pytest.raises(client_exception.BadRequest, match="Simulated failure of nova.keypair k"):
        _svc(ctx).create("keypair", "k", {})


def test_find_by_id_or_unique_name(ctx):
    svc = _svc(ctx)
    a = _build(svc, "a")
    assert svc.find("server", a["id"])["id"] == a["id"]
    assert svc.find("server", "a")["id"] == a["id"]
    _build(svc, "a")
    with pytest.raises(client_exception.Conflict, match="Multiple server matches found"):
        svc.find("server", "a")
    with pytest.raises(client_exception.NotFound):
        svc.find("server", "nope")
    with pytest.raises(client_exception.NotFound):
        svc.delete("server", "nope")
