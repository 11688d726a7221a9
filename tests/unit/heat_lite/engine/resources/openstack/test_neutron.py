"""OS::Neutron::* plugins on the simulated cloud."""

import pytest

from heat_lite.common import exception
from heat_lite.engine import resource
from heat_lite.engine.clients import client_exception
from simcloud.db import objects as sim_objects
from tests.unit.heat_lite.engine.resources.openstack.conftest import create, delete, make


def test_net_subnet_router_interface(cloud, ctx):
    net = create(ctx, "OS::Neutron::Net", {"name": "n"})
    subnet = create(
        ctx,
        "OS::Neutron::Subnet",
        {"network": net.resource_id, "cidr": "192.168.5.0/24", "gateway_ip": "192.168.5.254"},
    )
    assert subnet.get_attribute("gateway_ip") == "192.168.5.254"
    assert net.get_attribute("subnets") == [subnet.resource_id]
    assert net.get_attribute("tenant_id") == cloud.project_id
    router = create(ctx, "OS::Neutron::Router", {"external_gateway_info": {"network": "public"}})
    assert router.get_attribute("external_gateway_info")["enable_snat"] is True
    iface = create(
        ctx,
        "OS::Neutron::RouterInterface",
        {"router": router.resource_id, "subnet": "192.168.5.0/24" and subnet.resource_id},
    )
    assert iface.resource_id == "%s:subnet_id=%s" % (router.resource_id, subnet.resource_id)
    with pytest.raises(client_exception.Conflict):
        delete(router)
    for rsrc in (iface, router, subnet, net):
        delete(rsrc)
    assert cloud.objects() == []


def test_subnet_cidr_is_checked(ctx, net):
    subnet = make(ctx, "OS::Neutron::Subnet", {"network": net["net"], "cidr": "10.0.0.1"})
    with pytest.raises(exception.StackValidationFailed) as err:
        subnet.properties.validate()
    assert str(err.value).startswith(
        "Property error: resources.r.properties.cidr: Error validating value '10.0.0.1': "
        "Invalid net cidr"
    )


def test_port_fixed_ips_and_update(ctx, net):
    sg = create(ctx, "OS::Neutron::SecurityGroup", {"name": "web"})
    port = create(
        ctx,
        "OS::Neutron::Port",
        {
            "network": "private",
            "fixed_ips": [{"subnet": "private-subnet", "ip_address": "10.0.0.50"}],
            "security_groups": ["web"],
            "allowed_address_pairs": [{"ip_address": "10.100.0.0/16"}],
        },
    )
    assert port.get_attribute("fixed_ips") == [
        {"subnet_id": net["subnet"], "ip_address": "10.0.0.50"}
    ]
    assert port.get_attribute("security_groups") == [sg.resource_id]
    assert port.get_attribute("subnets")[0]["cidr"] == "10.0.0.0/24"
    assert port.get_attribute("status") == "DOWN"
    new = make(
        ctx, "OS::Neutron::Port", {"network": "private", "fixed_ips": [{"ip_address": "10.0.0.60"}]}
    )
    new.resource_id = port.resource_id
    new.handle_update(new.t, {"fixed_ips": None})
    assert new.get_attribute("fixed_ips")[0]["ip_address"] == "10.0.0.60"
    assert resource.Resource.needs_replace(
        new, {"name": "x"}, {"replacement_policy": "REPLACE_ALWAYS"}
    )


def test_floating_ip_on_a_port(ctx, net):
    port = create(ctx, "OS::Neutron::Port", {"network": net["net"]})
    fip = create(
        ctx, "OS::Neutron::FloatingIP", {"floating_network": "public", "port_id": port.resource_id}
    )
    assert fip.get_attribute("floating_ip_address").startswith("172.24.4.")
    assert fip.get_attribute("fixed_ip_address") == port.get_attribute("fixed_ips")[0]["ip_address"]
    assert fip.get_attribute("router_id") == net["router"]
    delete(fip)
    assert sim_objects.get_all("neutron.floatingip") == []


def test_security_group_egress_rules_replace_the_defaults(ctx):
    sg = create(
        ctx,
        "OS::Neutron::SecurityGroup",
        {
            "rules": [
                {
                    "direction": "egress",
                    "protocol": "tcp",
                    "port_range_min": 443,
                    "port_range_max": 443,
                }
            ]
        },
    )
    rules = sg.get_attribute("show")["security_group_rules"]
    assert [(r["direction"], r["protocol"]) for r in rules] == [("egress", "tcp")]
    rule = create(
        ctx,
        "OS::Neutron::SecurityGroupRule",
        {"security_group": sg.resource_id, "remote_group": sg.resource_id, "protocol": "udp"},
    )
    assert sim_objects.get(rule.resource_id)["remote_group_id"] == sg.resource_id
    bad = make(ctx, "OS::Neutron::SecurityGroup", {"name": "default"})
    with pytest.raises(exception.StackValidationFailed, match='the name "default"'):
        bad.validate()


@pytest.mark.parametrize(
    "rtype, props, error, message",
    [
        (
            "OS::Neutron::RouterInterface",
            {"router": "r", "subnet": "s", "port": "p"},
            exception.ResourcePropertyConflict,
            "Cannot define the following properties at the same time: subnet, subnet_id, "
            "port, port_id.",
        ),
        (
            "OS::Neutron::RouterInterface",
            {"router": "r"},
            exception.PropertyUnspecifiedError,
            "At least one of the following properties must be specified: subnet, subnet_id, "
            "port, port_id.",
        ),
        (
            "OS::Neutron::Subnet",
            {"network": "n"},
            exception.PropertyUnspecifiedError,
            "At least one of the following properties must be specified: subnetpool, cidr.",
        ),
        (
            "OS::Neutron::Port",
            {"name": "p"},
            exception.PropertyUnspecifiedError,
            "At least one of the following properties must be specified: network, network_id.",
        ),
        (
            "OS::Neutron::SecurityGroupRule",
            {"security_group": "sg", "remote_group": "sg", "remote_ip_prefix": "0.0.0.0/0"},
            exception.ResourcePropertyConflict,
            "Cannot define the following properties at the same time: remote_group, "
            "remote_ip_prefix.",
        ),
    ],
)
def test_property_combinations_are_validated(ctx, rtype, props, error, message):
    with pytest.raises(error) as err:
        make(ctx, rtype, props).validate()
    assert str(err.value) == message
