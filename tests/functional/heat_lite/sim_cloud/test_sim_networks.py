"""Heat 27's network behaviour on the simulated cloud: subnet updates that clear, port
replacement that frees the old addresses, server networks updated in place.

In-process engine and worker (SQLite, fake transport).
"""

import copy

import pytest

from heat_lite.common import exception
from heat_lite.engine import clients
from simcloud.db import objects as sim_objects
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status
CREATED = {"CREATE_COMPLETE", "CREATE_FAILED"}
UPDATED = {"UPDATE_COMPLETE", "UPDATE_FAILED"}


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _template(resources, outputs=None):
    tmpl = {"heat_template_version": "queens", "resources": copy.deepcopy(resources)}
    if outputs:
        tmpl["outputs"] = outputs
    return tmpl


def _create(heat, tmpl):
    ident = heat.client.create_stack(heat.ctx, "st", tmpl, {}, {}, {})
    stack = _wait(heat, ident, CREATED)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    return ident, stack


def _update(heat, ident, tmpl):
    heat.client.update_stack(heat.ctx, ident, tmpl, {}, {}, {})
    stack = _wait(heat, ident, UPDATED)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    return stack


def _delete(heat, ident):
    heat.client.delete_stack(heat.ctx, ident)
    stack = _wait(heat, ident, {"DELETE_COMPLETE", "DELETE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert heat.cloud.objects() == []


def _outputs(stack):
    return {o["output_key"]: o.get("output_value") for o in stack.get("outputs", [])}


def _physical(heat, ident, name):
    return heat.client.describe_stack_resource(heat.ctx, ident, name)["physical_resource_id"]


NET = {"type": "OS::Neutron::Net", "properties": {"name": "private"}}


def _subnet(**props):
    return {
        "type": "OS::Neutron::Subnet",
        "properties": dict({"network": {"get_resource": "net"}, "cidr": "10.0.0.0/24"}, **props),
    }


# -- OS::Neutron::Subnet (heat/engine/resources/openstack/neutron/subnet.py handle_update) --


def test_subnet_update_clears_removed_allocation_pools_and_gateway(heat):
    pools = [{"start": "10.0.0.100", "end": "10.0.0.150"}]
    ident, _ = _create(
        heat,
        _template({"net": NET, "sub": _subnet(allocation_pools=pools, gateway_ip="10.0.0.254")}),
    )
    subnet_id = _physical(heat, ident, "sub")
    subnet = sim_objects.get(subnet_id)
    assert subnet["allocation_pools"] == pools and subnet["gateway_ip"] == "10.0.0.254"

    _update(heat, ident, _template({"net": NET, "sub": _subnet()}))
    subnet = sim_objects.get(subnet_id)
    assert _physical(heat, ident, "sub") == subnet_id  # updated in place
    assert subnet["allocation_pools"] == [] and subnet["gateway_ip"] is None
    _delete(heat, ident)


def test_subnet_gateway_auto_is_refused_on_update(heat):
    ident, _ = _create(heat, _template({"net": NET, "sub": _subnet()}))
    heat.client.update_stack(
        heat.ctx, ident, _template({"net": NET, "sub": _subnet(gateway_ip="auto")}), {}, {}, {}
    )
    stack = _wait(heat, ident, UPDATED)
    assert stack["stack_status"] == "FAILED"
    assert stack["stack_status_reason"] == (
        'Resource UPDATE failed: ResourceActionNotSupported: resources.sub: The value "auto" '
        "for gateway_ip cannot be used to update an existing subnet. It is only supported "
        "during subnet creation. is not supported for resource."
    )


# -- OS::Neutron::Port (heat/engine/resources/openstack/neutron/port.py prepare_for_replace) --


def _port(mac):
    return {
        "type": "OS::Neutron::Port",
        "properties": {
            "network": {"get_resource": "net"},
            "mac_address": mac,
            "fixed_ips": [{"subnet": {"get_resource": "sub"}, "ip_address": "10.0.0.50"}],
        },
    }


def test_port_mac_address_change_replaces_it_on_the_same_address(heat):
    resources = {"net": NET, "sub": _subnet(), "port": _port("fa:16:3e:00:00:01")}
    ident, _ = _create(heat, _template(resources))
    old_id = _physical(heat, ident, "port")

    resources["port"] = _port("fa:16:3e:00:00:02")
    _update(heat, ident, _template(resources))
    new_id = _physical(heat, ident, "port")
    assert new_id != old_id
    assert sim_objects.get(old_id) is None
    new = sim_objects.get(new_id)
    assert new["mac_address"] == "fa:16:3e:00:00:02"
    assert [ip["ip_address"] for ip in new["fixed_ips"]] == ["10.0.0.50"]
    _delete(heat, ident)


def test_port_replacement_rolled_back_gives_the_old_port_its_address(heat):
    """Heat's Port.restore_prev_rsrc: the update fails after the port was replaced (a
    resource using the port fails its update); the rollback takes the address from the
    new port and gives it back to the old one."""

    def user(fail):
        props = {"fail": fail, "update_replace": False, "value": {"get_resource": "port"}}
        return {"type": "OS::Heat::TestResource", "properties": props}

    resources = {"net": NET, "sub": _subnet(), "port": _port("fa:16:3e:00:00:01")}
    resources["user"] = user(False)
    ident, _ = _create(heat, _template(resources))
    old_id = _physical(heat, ident, "port")

    resources.update(port=_port("fa:16:3e:00:00:02"), user=user(True))
    heat.client.update_stack(
        heat.ctx, ident, _template(resources), {}, {}, {"disable_rollback": False}
    )
    stack = _wait(heat, ident, {"ROLLBACK_COMPLETE", "ROLLBACK_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _physical(heat, ident, "port") == old_id
    old = sim_objects.get(old_id)
    assert [ip["ip_address"] for ip in old["fixed_ips"]] == ["10.0.0.50"]
    _delete(heat, ident)


# -- OS::Nova::Server networks (heat/engine/resources/openstack/nova/server.py and
#    server_network_mixin.py: add_dependencies, _build_nics, calculate_networks) --


def _server(networks, **props):
    return {
        "type": "OS::Nova::Server",
        "properties": dict(
            {"image": "cirros-0.6.2", "flavor": "m1.tiny", "networks": networks}, **props
        ),
    }


def _two_subnets(networks, **props):
    return {
        "net": NET,
        "sub_a": _subnet(),
        "sub_b": _subnet(cidr="10.0.1.0/24"),
        "server": _server(networks, **props),
    }


def _ports(server_id):
    """{port id: [addresses]} of the server's ports."""
    return {
        p["id"]: [ip["ip_address"] for ip in p["fixed_ips"]]
        for p in sim_objects.get_all("neutron.port", device_id=server_id)
    }


def test_server_on_a_network_resource_waits_for_its_subnet(heat):
    resources = {"server": _server([{"network": {"get_resource": "net"}}]), "net": NET}
    resources["sub"] = _subnet()  # listed last: only the implicit dependency orders it
    ident, _ = _create(heat, _template(resources))
    (addresses,) = _ports(_physical(heat, ident, "server")).values()
    assert addresses[0].startswith("10.0.0.")
    _delete(heat, ident)


def test_server_network_swapped_for_its_subnet_or_added_to_keeps_the_port(heat):
    def one_subnet(networks):  # the network's only subnet gives Nova's port its address
        resources = _two_subnets(networks)
        del resources["sub_b"]
        return _template(resources)

    ident, _ = _create(heat, one_subnet([{"network": {"get_resource": "net"}}]))
    server_id = _physical(heat, ident, "server")
    ports = _ports(server_id)
    (port_id,) = ports

    _update(heat, ident, one_subnet([{"subnet": {"get_resource": "sub_a"}}]))
    assert _physical(heat, ident, "server") == server_id
    assert _ports(server_id) == ports

    networks = [{"subnet": {"get_resource": "sub_a"}}, {"subnet": {"get_resource": "sub_b"}}]
    _update(heat, ident, _template(_two_subnets(networks)))
    now = _ports(server_id)
    assert now[port_id] == ports[port_id] and len(now) == 2
    (added,) = set(now) - {port_id}
    assert now[added][0].startswith("10.0.1.")
    # Heat's internal port, numbered among the entries added (so -0 again, as in Heat)
    assert sim_objects.get(added)["name"] == "server-port-0"
    _delete(heat, ident)


def test_server_subnet_changed_moves_it_and_delete_works(heat):
    ident, _ = _create(heat, _template(_two_subnets([{"subnet": {"get_resource": "sub_a"}}])))
    server_id = _physical(heat, ident, "server")
    (old_port,) = _ports(server_id)
    assert sim_objects.get(old_port)["name"] == "server-port-0"

    _update(heat, ident, _template(_two_subnets([{"subnet": {"get_resource": "sub_b"}}])))
    assert _physical(heat, ident, "server") == server_id
    ((new_port, addresses),) = _ports(server_id).items()
    assert new_port != old_port and addresses[0].startswith("10.0.1.")
    assert sim_objects.get(old_port) is None  # the internal port went with its detach
    _delete(heat, ident)


def test_server_on_an_existing_port(heat):
    ident, _ = _create(
        heat,
        _template(
            {
                "net": NET,
                "sub": _subnet(),
                "port": {
                    "type": "OS::Neutron::Port",
                    "properties": {"network": {"get_resource": "net"}},
                },
            }
        ),
    )
    port_id = _physical(heat, ident, "port")
    tmpl = _template(
        {"server": _server([{"port": port_id}])},
        {"first_address": {"value": {"get_attr": ["server", "first_address"]}}},
    )
    ident2 = heat.client.create_stack(heat.ctx, "st2", tmpl, {}, {}, {})
    stack = _wait(heat, ident2, CREATED)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    server_id = _physical(heat, ident2, "server")
    assert list(_ports(server_id)) == [port_id]
    assert (
        _outputs(stack)["first_address"] == sim_objects.get(port_id)["fixed_ips"][0]["ip_address"]
    )
    heat.client.delete_stack(heat.ctx, ident2)
    _wait(heat, ident2, {"DELETE_COMPLETE"})
    assert sim_objects.get(port_id)["device_id"] == ""  # given, not deleted
    _delete(heat, ident)


def test_server_network_replaced_by_the_port_nova_made_keeps_it(heat):
    ident, _ = _create(heat, _template(_two_subnets([{"network": {"get_resource": "net"}}])))
    server_id = _physical(heat, ident, "server")
    ports = _ports(server_id)
    (port_id,) = ports
    _update(heat, ident, _template(_two_subnets([{"port": port_id}])))
    assert _ports(server_id) == ports
    _delete(heat, ident)


def test_server_show_lists_security_groups_by_name(heat):
    resources = _two_subnets(
        [{"network": {"get_resource": "net"}}], security_groups=[{"get_resource": "web"}]
    )
    resources["web"] = {"type": "OS::Neutron::SecurityGroup", "properties": {"name": "web"}}
    tmpl = _template(resources, {"show": {"value": {"get_attr": ["server", "show"]}}})
    ident, stack = _create(heat, tmpl)
    assert _outputs(stack)["show"]["security_groups"] == [{"name": "web"}]
    _delete(heat, ident)


def test_server_security_groups_with_a_port_entry_are_refused(heat):
    neutron = clients.client_plugin(heat.ctx, "neutron")
    port = neutron.create_port(neutron.create_net("n1")["id"])
    tmpl = _template({"server": _server([{"port": port["id"]}], security_groups=["web"])})
    with pytest.raises(exception.ResourcePropertyConflict) as err:
        heat.client.create_stack(heat.ctx, "st", tmpl, {}, {}, {})
    assert str(err.value) == (
        "Cannot define the following properties at the same time: security_groups, networks/port."
    )
    neutron.delete_port(port["id"])


def test_server_replacement_rolled_back_gets_its_port_back(heat):
    """Heat's Server.restore_prev_rsrc: the replacement gives the port back."""

    def resources(user_data, fail):
        server = _server([{"port": {"get_resource": "port"}}], user_data=user_data)
        props = {"fail": fail, "update_replace": False, "value": {"get_resource": "server"}}
        return {
            "net": NET,
            "sub": _subnet(),
            "port": {
                "type": "OS::Neutron::Port",
                "properties": {"network": {"get_resource": "net"}},
            },
            "server": server,
            "user": {"type": "OS::Heat::TestResource", "properties": props},
        }

    ident, _ = _create(heat, _template(resources("one", False)))
    old_id, port_id = _physical(heat, ident, "server"), _physical(heat, ident, "port")
    heat.client.update_stack(
        heat.ctx, ident, _template(resources("two", True)), {}, {}, {"disable_rollback": False}
    )
    stack = _wait(heat, ident, {"ROLLBACK_COMPLETE", "ROLLBACK_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _physical(heat, ident, "server") == old_id
    assert sim_objects.get(port_id)["device_id"] == old_id
    _delete(heat, ident)
