"""Load balancers (Octavia and Neutron LBaaS, the latter through an environment mapping
as Magnum's with_master_lb.yaml), security groups, and Neutron's refusal to delete a
network that still has ports."""

import ipaddress

import pytest

from heat_lite.common import context, exception
from heat_lite.engine import clients
from simcloud.db import objects as sim_objects
from tests.fixtures import inprocess
from tests.functional.heat_lite.sim_cloud.test_sim_stacks import NETWORK, _outputs, record_requests

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status
DONE = {"CREATE_COMPLETE", "CREATE_FAILED"}


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _ports(*owners):
    return [p for p in sim_objects.get_all("neutron.port") if p["device_owner"] in owners]


def _lb_template(prefix):
    resources = dict(NETWORK)
    for i in range(2):
        resources["port%d" % i] = {
            "type": "OS::Neutron::Port",
            "properties": {"network": {"get_resource": "net"}},
            "depends_on": ["subnet"],
        }
        resources["member%d" % i] = {
            "type": prefix + "PoolMember",
            "properties": {
                "pool": {"get_resource": "pool"},
                "address": {"get_attr": ["port%d" % i, "fixed_ips", 0, "ip_address"]},
                "subnet": {"get_resource": "subnet"},
                "protocol_port": 6443,
            },
        }
    resources.update(
        {
            "loadbalancer": {
                "type": prefix + "LoadBalancer",
                "properties": {"vip_subnet": {"get_resource": "subnet"}},
            },
            "listener": {
                "type": prefix + "Listener",
                "properties": {
                    "loadbalancer": {"get_resource": "loadbalancer"},
                    "protocol": "TCP",
                    "protocol_port": 6443,
                },
            },
            "pool": {
                "type": prefix + "Pool",
                "properties": {
                    "lb_algorithm": "ROUND_ROBIN",
                    "listener": {"get_resource": "listener"},
                    "protocol": "TCP",
                },
            },
            "monitor": {
                "type": prefix + "HealthMonitor",
                "properties": {
                    "type": "TCP",
                    "delay": 5,
                    "max_retries": 5,
                    "timeout": 5,
                    "pool": {"get_resource": "pool"},
                },
            },
            "floating": {
                "type": "OS::Neutron::FloatingIP",
                "properties": {
                    "floating_network": "public",
                    "port_id": {"get_attr": ["loadbalancer", "vip_port_id"]},
                },
                # the port is the VIP's, not a resource of the stack: neither Heat nor
                # heat-lite can tell that it needs router_if first (the association
                # fails "External network ... is not reachable" when it races ahead)
                "depends_on": ["router_if"],
            },
        }
    )
    return {
        "heat_template_version": "queens",
        "resources": resources,
        "outputs": {
            "address": {"value": {"get_attr": ["loadbalancer", "vip_address"]}},
            "floating_address": {"value": {"get_attr": ["floating", "floating_ip_address"]}},
            "pool_id": {"value": {"get_resource": "pool"}},
        },
    }


@pytest.mark.parametrize(
    "prefix, env",
    [
        ("OS::Octavia::", {}),
        (
            "Magnum::Optional::Neutron::LBaaS::",
            {
                "resource_registry": {
                    "Magnum::Optional::Neutron::LBaaS::%s" % t: "OS::Neutron::LBaaS::%s" % t
                    for t in ("LoadBalancer", "Listener", "Pool", "HealthMonitor", "PoolMember")
                }
            },
        ),
    ],
)
def test_load_balancer_converges_with_vip_and_members(heat, prefix, env):
    ident = heat.client.create_stack(heat.ctx, "lb", _lb_template(prefix), env, {}, {})
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    out = _outputs(stack)
    assert ipaddress.ip_address(out["address"]) in ipaddress.ip_network("10.0.0.0/24")
    assert ipaddress.ip_address(out["floating_address"]) in ipaddress.ip_network("172.24.4.0/24")
    lb = sim_objects.get_all("octavia.loadbalancer")[0]
    assert lb["status"] == "ACTIVE" and lb["vip_address"] == out["address"]
    members = sim_objects.get_all("octavia.member", pool_id=out["pool_id"])
    addresses = sorted(p["fixed_ips"][0]["ip_address"] for p in _ports("compute:nova", ""))
    assert sorted(m["address"] for m in members) == addresses and len(members) == 2
    assert sim_objects.get_all("octavia.healthmonitor")[0]["pool_id"] == out["pool_id"]

    heat.client.delete_stack(heat.ctx, ident)
    _wait(heat, ident, {"DELETE_COMPLETE"})
    assert heat.cloud.objects() == []


def test_security_group_rules(heat):
    tmpl = {
        "heat_template_version": "queens",
        "resources": {
            "sg": NETWORK["secgroup"],
            "rule": {
                "type": "OS::Neutron::SecurityGroupRule",
                "properties": {
                    "security_group": {"get_resource": "sg"},
                    "protocol": "tcp",
                    "port_range_min": 6443,
                    "port_range_max": 6443,
                    "remote_ip_prefix": "10.0.0.0/24",
                },
            },
        },
    }
    ident = heat.client.create_stack(heat.ctx, "sg", tmpl, {}, {}, {})
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    rules = sim_objects.get_all("neutron.security_group_rule")
    ingress = sorted(
        (r["protocol"], r["port_range_min"]) for r in rules if r["direction"] == "ingress"
    )
    assert ingress == [("icmp", None), ("tcp", 22), ("tcp", 6443)]
    assert sum(r["direction"] == "egress" for r in rules) == 2  # Neutron's defaults


def test_deleting_a_network_with_ports_fails_as_neutron(heat):
    tmpl = {
        "heat_template_version": "queens",
        "resources": {"net": NETWORK["net"], "subnet": NETWORK["subnet"]},
        "outputs": {"net": {"value": {"get_resource": "net"}}},
    }
    ident = heat.client.create_stack(heat.ctx, "net", tmpl, {}, {}, {})
    net_id = _outputs(inprocess.wait_for(heat, ident, "CREATE_COMPLETE"))["net"]
    ctx = context.RequestContext(user_id="u1", project_id=heat.cloud.project_id)
    # a port of its own (no address), not the stack's
    port = clients.client_plugin(ctx, "neutron").create_port(net_id, fixed_ips=[])

    heat.client.delete_stack(heat.ctx, ident)
    stack = inprocess.wait_for(heat, ident, "DELETE_FAILED")
    assert stack["stack_status_reason"] == (
        "Resource DELETE failed: Conflict: resources.net: Unable to complete operation on "
        "network %s. There are one or more ports still in use on the network." % net_id
    )

    clients.client_plugin(ctx, "neutron").delete_port(port["id"])
    heat.client.delete_stack(heat.ctx, ident)
    _wait(heat, ident, {"DELETE_COMPLETE"})
    assert heat.cloud.objects() == []


def test_plugin_validation_rejects_the_stack(heat):
    tmpl = {
        "heat_template_version": "queens",
        "resources": dict(
            NETWORK,
            port={"type": "OS::Neutron::Port", "properties": {"network": {"get_resource": "net"}}},
            iface2={
                "type": "OS::Neutron::RouterInterface",
                "properties": {
                    "router": {"get_resource": "router"},
                    "subnet": {"get_resource": "subnet"},
                    "port": {"get_resource": "port"},
                },
            },
        ),
    }
    with pytest.raises(exception.ResourcePropertyConflict) as err:
        heat.client.create_stack(heat.ctx, "bad", tmpl, {}, {}, {})
    assert str(err.value) == (
        "Cannot define the following properties at the same time: subnet, subnet_id, port, port_id."
    )
    assert heat.cloud.objects() == []


def test_a_member_is_reached_through_its_pool(heat, monkeypatch):
    """A member's status waits and its delete ask for it under its pool (Heat's
    member_show(pool_id, member_id)): nothing lists the cloud's pools to find it, a
    request whose cost grew with every load balancer of the cloud."""
    calls = record_requests(monkeypatch)
    ident = heat.client.create_stack(heat.ctx, "lb", _lb_template("OS::Octavia::"), {}, {}, {})
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    pool_id = _outputs(stack)["pool_id"]
    heat.client.delete_stack(heat.ctx, ident)
    _wait(heat, ident, {"DELETE_COMPLETE"})
    assert ("GET", "/lbaas/pools") not in calls
    member_calls = [c for c in calls if "/members/" in c[1]]
    assert {m for m, _ in member_calls} == {"GET", "DELETE"}
    assert all(url.startswith("/lbaas/pools/%s/members/" % pool_id) for _, url in member_calls)
    assert heat.cloud.objects() == []
