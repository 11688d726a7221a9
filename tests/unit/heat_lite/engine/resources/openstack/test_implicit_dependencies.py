"""Implicit dependencies (Heat 27's ``add_dependencies`` of Server, Port, Router and
FloatingIP): the graph holds the edge although no function in the template says so."""

import pytest

from heat_lite.engine import clients
from heat_lite.engine import stack as parser
from heat_lite.engine.template import Template

NET = {"type": "OS::Neutron::Net"}


def _subnet(network, cidr="10.0.0.0/24"):
    return {"type": "OS::Neutron::Subnet", "properties": {"network": network, "cidr": cidr}}


def _stack(ctx, resources):
    tmpl = Template({"heat_template_version": "queens", "resources": resources})
    return parser.Stack(ctx, "st", tmpl)


def _requires(ctx, resources, name):
    return _stack(ctx, resources).definition(name).required_resource_names()


def _edges(ctx, resources):
    """{name: what it requires} from the whole graph, as the engine builds it."""
    deps = _stack(ctx, resources).dependencies()
    return {name: set(deps.requires(name)) for name in deps}


REF_NET = {"get_resource": "net"}


# -- OS::Nova::Server (heat/engine/resources/openstack/nova/server.py, add_dependencies) --


def _server(networks):
    props = {"image": "cirros-0.6.2", "flavor": "m1.tiny", "networks": networks}
    return {"type": "OS::Nova::Server", "properties": props}


def test_server_requires_the_subnets_of_its_network(ctx):
    resources = {
        "net": NET,
        "sub": _subnet(REF_NET),
        "other_net": NET,
        "other_sub": _subnet({"get_resource": "other_net"}, "10.1.0.0/24"),
        "server": _server([{"network": REF_NET}]),
    }
    edges = _edges(ctx, resources)
    assert edges["server"] == {"net", "sub"}
    # the graph deletes the server before the subnet its port takes an address from
    assert "server" not in edges["sub"]


def test_server_uuid_key_counts_as_network(ctx):
    resources = {"net": NET, "sub": _subnet(REF_NET), "server": _server([{"uuid": REF_NET}])}
    assert _requires(ctx, resources, "server") == {"net", "sub"}


def test_server_entry_without_network_requires_every_subnet(ctx):
    """A port or subnet entry: the network is not known, so every subnet comes first."""
    resources = {
        "net": NET,
        "sub": _subnet(REF_NET),
        "sub2": _subnet(REF_NET, "10.0.1.0/24"),
        "other_sub": _subnet("elsewhere", "10.1.0.0/24"),
        "server": _server([{"subnet": {"get_resource": "sub"}}]),
    }
    assert _requires(ctx, resources, "server") == {"sub", "sub2", "other_sub"}


def test_server_requires_a_subnet_whose_network_is_not_known(ctx):
    resources = {
        "net": NET,
        "sub": _subnet({"get_attr": ["net", "name"]}),
        "server": _server([{"network": "private"}]),
    }
    assert _requires(ctx, resources, "server") == {"sub"}


def test_server_without_networks_or_on_another_network_has_no_implicit_edge(ctx):
    resources = {
        "net": NET,
        "sub": _subnet(REF_NET),
        "a": _server([]),
        "b": _server([{"network": "private"}]),
    }
    assert _requires(ctx, resources, "a") == set()
    assert _requires(ctx, resources, "b") == set()


# -- OS::Neutron::Port (heat/engine/resources/openstack/neutron/port.py) --


def test_port_requires_the_subnets_of_its_network(ctx):
    resources = {
        "net": NET,
        "sub": _subnet(REF_NET),
        "other": _subnet("private", "10.1.0.0/24"),
        "port": {"type": "OS::Neutron::Port", "properties": {"network_id": REF_NET}},
        "named": {"type": "OS::Neutron::Port", "properties": {"network": "private"}},
    }
    assert _requires(ctx, resources, "port") == {"net", "sub"}
    assert _requires(ctx, resources, "named") == {"other"}


# -- OS::Neutron::Router (heat/engine/resources/openstack/neutron/router.py) --


def test_router_with_gateway_requires_the_subnets_of_the_external_network(ctx):
    resources = {
        "ext": {"type": "OS::Neutron::Net", "properties": {"value_specs": {}}},
        "ext_sub": _subnet({"get_resource": "ext"}),
        "private_sub": _subnet("private", "10.1.0.0/24"),
        "router": {
            "type": "OS::Neutron::Router",
            "properties": {"external_gateway_info": {"network": {"get_resource": "ext"}}},
        },
        "no_gateway": {"type": "OS::Neutron::Router"},
    }
    assert _requires(ctx, resources, "router") == {"ext", "ext_sub"}
    assert _requires(ctx, resources, "no_gateway") == set()


# -- OS::Neutron::FloatingIP (heat/engine/resources/openstack/neutron/floatingip.py) --


def _network_with_router(port_props):
    return {
        "net": NET,
        "sub": _subnet(REF_NET),
        "router": {
            "type": "OS::Neutron::Router",
            "properties": {"external_gateway_info": {"network": "public"}},
        },
        "other_router": {
            "type": "OS::Neutron::Router",
            "properties": {"external_gateway_info": {"network": "elsewhere"}},
        },
        "iface": {
            "type": "OS::Neutron::RouterInterface",
            "properties": {"router": {"get_resource": "router"}, "subnet": {"get_resource": "sub"}},
        },
        "port": {"type": "OS::Neutron::Port", "properties": port_props},
        "fip": {
            "type": "OS::Neutron::FloatingIP",
            "properties": {"floating_network": "public", "port_id": {"get_resource": "port"}},
        },
        "bare_fip": {
            "type": "OS::Neutron::FloatingIP",
            "properties": {"floating_network": "public"},
        },
    }


def test_floating_ip_requires_the_router_of_its_network(ctx):
    resources = _network_with_router({"network": REF_NET})
    assert _requires(ctx, resources, "bare_fip") == {"router"}


def test_floating_ip_requires_the_interface_of_its_ports_subnet(ctx):
    resources = _network_with_router(
        {"network": REF_NET, "fixed_ips": [{"subnet_id": {"get_resource": "sub"}}]}
    )
    assert _requires(ctx, resources, "fip") == {"port", "router", "iface"}


def test_floating_ip_on_a_port_of_an_unknown_network_does_not_require_the_interface(ctx):
    """Heat asks Neutron for the port's network: a network not created yet (known by its
    resource name) is not found, so the interface is not waited for."""
    resources = _network_with_router({"network": REF_NET})
    assert _requires(ctx, resources, "fip") == {"port", "router"}


def test_floating_ip_on_a_port_of_an_existing_network_requires_its_interface(ctx):
    neutron = clients.client_plugin(ctx, "neutron")
    network = neutron.create_net("existing")
    subnet = neutron.create_subnet(network["id"], "10.9.0.0/24")
    resources = _network_with_router({"network": network["id"]})
    resources["iface"]["properties"]["subnet"] = subnet["id"]
    assert _requires(ctx, resources, "fip") == {"port", "router", "iface"}
    resources["iface"]["properties"]["subnet"] = "another-subnet"
    assert _requires(ctx, resources, "fip") == {"port", "router"}


def test_floating_ip_on_a_port_interface_requires_it(ctx):
    """An interface given by port (no subnet) counts for a port without fixed_ips."""
    resources = _network_with_router({"network": REF_NET})
    resources["iface"]["properties"] = {"router": {"get_resource": "router"}, "port": "p1"}
    assert _requires(ctx, resources, "fip") == {"port", "router", "iface"}


@pytest.mark.parametrize("bad", [{"get_attr": ["net", "name", "x", "y"]}, 12])
def test_unreadable_properties_add_no_edge_and_raise_nothing(ctx, bad):
    resources = {
        "net": NET,
        "sub": _subnet(REF_NET),
        "server": _server(bad),
    }
    assert _requires(ctx, resources, "server") <= {"net"}
