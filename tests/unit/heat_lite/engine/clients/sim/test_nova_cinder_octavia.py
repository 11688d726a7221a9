"""Simulated Nova, Cinder, Octavia and Glance."""

import time

import pytest

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.engine import clients
from heat_lite.engine.clients import client_exception


@pytest.fixture
def cloud(ctx):
    plugins = {name: clients.client_plugin(ctx, name) for name in clients._PLUGINS}
    net = plugins["neutron"].create_net("private")
    plugins["subnet"] = plugins["neutron"].create_subnet(net["id"], "10.0.0.0/24")
    return plugins


def test_catalogue_from_config(ctx):
    nova = clients.client_plugin(ctx, "nova")
    assert nova.get_flavor("m1.small") == nova.get_flavor("2")
    assert nova.get_flavor("m1.large")["vcpus"] == 4
    CONF.set_override("flavors", ["k8s.big:42:16:32768:100"], group="simulated_cloud")
    assert nova.get_flavor("k8s.big")["ram"] == 32768
    with pytest.raises(exception.EntityNotFound, match=r"The Flavor ID \(m1.small\) could not"):
        nova.get_flavor("m1.small")
    glance = clients.client_plugin(ctx, "glance")
    image = glance.find_image_by_name_or_id("fedora-coreos-40")
    assert image["os_distro"] == "fedora-coreos"
    assert glance.find_image_by_name_or_id(image["id"]) == image
    with pytest.raises(exception.EntityNotFound, match=r"The Image \(nope\) could not be found"):
        glance.find_image_by_name_or_id("nope")


def test_server_addresses_resize_and_delete_releases(cloud):
    nova, neutron, cinder = cloud["nova"], cloud["neutron"], cloud["cinder"]
    net_id = cloud["subnet"]["network_id"]
    port = neutron.create_port(net_id)
    server = nova.create_server(
        "vm", None, "m1.tiny", networks=[{"port": port["id"]}, {"uuid": net_id}]
    )
    assert server["status"] == "BUILD"
    shown = nova.show_server(server["id"])
    assert shown["status"] == "ACTIVE"
    assert [a["addr"] for a in shown["addresses"]["private"]] == ["10.0.0.2", "10.0.0.3"]
    assert neutron.show("port", port["id"])["device_id"] == server["id"]

    nova.resize_server(server["id"], "m1.large")
    assert nova.show("server", server["id"])["flavor"]["original_name"] == "m1.large"

    volume = cinder.create_volume("data", 1)
    assert cinder.show("volume", volume["id"])["status"] == "available"
    cinder.attach(volume["id"], server["id"], "/dev/vdb")
    assert cinder.show("volume", volume["id"])["status"] == "in-use"
    with pytest.raises(client_exception.BadRequest, match="Invalid volume"):
        cinder.delete_volume(volume["id"])

    nova.delete_server(server["id"])
    assert nova.get("server", server["id"]) is None
    assert neutron.show("port", port["id"])["device_id"] == ""  # given port: kept
    assert [p["id"] for p in neutron.list("port", network_id=net_id)] == [port["id"]]
    assert cinder.show("volume", volume["id"])["status"] == "available"


def test_volume_detach(cloud):
    nova, cinder = cloud["nova"], cloud["cinder"]
    server = nova.create_server("vm", None, "m1.tiny")
    volume = cinder.create_volume("v", 1)
    cinder.show("volume", volume["id"])
    attachment = cinder.attach(volume["id"], server["id"])
    cinder.show("volume", volume["id"])
    cinder.detach(volume["id"], attachment)
    assert cinder.show("volume", volume["id"])["status"] == "available"
    with pytest.raises(client_exception.NotFound, match="Instance nope could not be found"):
        cinder.attach(volume["id"], "nope")


def test_keypair_names_are_unique_per_project(cloud):
    nova = cloud["nova"]
    key = nova.create_keypair("k")
    assert nova.get_keypair("k")["fingerprint"] == key["fingerprint"]
    with pytest.raises(client_exception.Conflict, match="Key pair 'k' already exists"):
        nova.create_keypair("k")
    with pytest.raises(exception.EntityNotFound, match=r"The Key \(x\) could not be found"):
        nova.get_keypair("x")


def test_load_balancer_children_and_refusals(cloud):
    octavia = cloud["octavia"]
    CONF.set_override("build_time", 0.2, group="simulated_cloud")
    lb = octavia.create_loadbalancer("lb", vip_subnet_id=cloud["subnet"]["id"])
    assert lb["status"] == "PENDING_CREATE" and lb["vip_address"] == "10.0.0.2"
    with pytest.raises(client_exception.Conflict, match="immutable"):
        octavia.create_child("listener", "l", lb["id"], protocol="TCP", protocol_port=6443)
    time.sleep(0.25)
    assert octavia.show("loadbalancer", lb["id"])["provisioning_status"] == "ACTIVE"
    listener = octavia.create_child("listener", "l", lb["id"], protocol="TCP", protocol_port=1)
    pool = octavia.create_child("pool", "p", lb["id"], listener_id=listener["id"])
    octavia.create_child("member", "", lb["id"], pool_id=pool["id"], address="10.0.0.9")
    octavia.create_child("healthmonitor", "", lb["id"], pool_id=pool["id"], type="TCP")
    assert octavia.loadbalancer_of("pool", pool["id"]) == lb["id"]
    with pytest.raises(client_exception.Conflict, match="it has children"):
        octavia.delete_loadbalancer(lb["id"])
    octavia.delete_child("pool", pool["id"])
    assert octavia.list("member") == [] and octavia.list("healthmonitor") == []
    octavia.delete_child("listener", listener["id"])
    octavia.delete_loadbalancer(lb["id"])
    assert cloud["neutron"].list("port", network_id=cloud["subnet"]["network_id"]) == []
