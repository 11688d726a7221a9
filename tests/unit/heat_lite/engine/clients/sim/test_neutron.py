"""Simulated Neutron: addresses, the seeded public network and Neutron's refusals."""

import pytest

from heat_lite.engine.clients import client_exception
from heat_lite.engine.clients.sim import neutron as sim_neutron


@pytest.fixture
def neutron(ctx):
    return sim_neutron.NeutronClientPlugin(ctx)


@pytest.fixture
def subnet(neutron):
    net = neutron.create_net("private")
    return neutron.create_subnet(net["id"], "10.0.0.0/24", "private-subnet")


def _ips(port):
    return [ip["ip_address"] for ip in port["fixed_ips"]]


def test_subnet_defaults_and_addresses_in_order(neutron, subnet):
    assert subnet["gateway_ip"] == "10.0.0.1"
    assert subnet["allocation_pools"] == [{"start": "10.0.0.2", "end": "10.0.0.254"}]
    net_id = subnet["network_id"]
    assert neutron.show("net", net_id)["subnets"] == [subnet["id"]]
    assert _ips(neutron.create_port(net_id)) == ["10.0.0.2"]
    assert _ips(neutron.create_port(net_id, fixed_ips=[{"ip_address": "10.0.0.3"}])) == ["10.0.0.3"]
    assert _ips(neutron.create_port(net_id)) == ["10.0.0.4"]  # .3 is taken: skipped
    with pytest.raises(client_exception.Conflict, match="IP address 10.0.0.3 already allocated"):
        neutron.create_port(net_id, fixed_ips=[{"ip_address": "10.0.0.3"}])
    assert neutron.create_port(net_id, fixed_ips=[])["fixed_ips"] == []


def test_small_subnet_runs_out(neutron):
    net = neutron.create_net("tiny")
    neutron.create_subnet(net["id"], "10.1.0.0/30")  # gateway .1, pool .2
    neutron.create_port(net["id"])
    with pytest.raises(client_exception.Conflict, match="No more IP addresses available"):
        neutron.create_port(net["id"])


def test_public_network_is_seeded_and_shared(neutron):
    net_id = neutron.find_resourceid_by_name_or_id("net", "public")
    public = neutron.show("net", net_id)
    assert public["router:external"] is True and public["project_id"] is None
    other = sim_neutron.NeutronClientPlugin(None)
    assert other.find_resourceid_by_name_or_id("net", "public") == net_id
    with pytest.raises(client_exception.NotFound, match="Unable to find network with name"):
        neutron.find_resourceid_by_name_or_id("net", "nope")


def test_floating_ip_needs_a_router_to_the_port_subnet(neutron, subnet):
    port = neutron.create_port(subnet["network_id"])
    with pytest.raises(client_exception.NotFound, match="is not reachable from subnet"):
        neutron.create_floatingip("public", port_id=port["id"])
    router = neutron.create_router("r", {"network_id": "public"})
    assert router["external_gateway_info"]["external_fixed_ips"][0]["ip_address"].startswith(
        "172.24.4."
    )
    neutron.add_interface(router["id"], subnet_id=subnet["id"])
    fip = neutron.create_floatingip("public", port_id=port["id"])
    assert fip["fixed_ip_address"] == _ips(port)[0] and fip["router_id"] == router["id"]
    assert fip["status"] == "ACTIVE"
    neutron.delete_port(port["id"])
    assert neutron.show("floatingip", fip["id"])["port_id"] is None


def test_refusals_when_in_use(neutron, subnet):
    net_id = subnet["network_id"]
    router = neutron.create_router("r", {"network_id": "public"})
    neutron.add_interface(router["id"], subnet_id=subnet["id"])
    with pytest.raises(client_exception.Conflict, match="still has ports"):
        neutron.delete_router(router["id"])
    port = neutron.create_port(net_id)
    with pytest.raises(client_exception.Conflict, match="One or more ports have an IP"):
        neutron.delete_subnet(subnet["id"])
    with pytest.raises(client_exception.Conflict, match="ports still in use on the network"):
        neutron.delete_net(net_id)
    neutron.delete_port(port["id"])
    neutron.remove_interface(router["id"], subnet_id=subnet["id"])
    neutron.delete_router(router["id"])
    neutron.delete_net(net_id)
    assert neutron.list("subnet", network_id=net_id) == []
    assert neutron.list("port", network_id=net_id) == []


def test_security_group_defaults_and_in_use(neutron, subnet):
    group = neutron.create_security_group("sg")
    assert sorted(r["ethertype"] for r in group["security_group_rules"]) == ["IPv4", "IPv6"]
    neutron.create_port(subnet["network_id"], security_groups=[group["id"]])
    with pytest.raises(client_exception.Conflict, match="in use"):
        neutron.delete_security_group(group["id"])


def test_public_subnet_is_found_by_name(neutron):
    subnet_id = neutron.find_resourceid_by_name_or_id("subnet", "public-subnet")
    assert neutron.show("subnet", subnet_id)["cidr"] == "172.24.4.0/24"
