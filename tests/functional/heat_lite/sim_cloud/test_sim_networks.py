"""Heat 27's network behaviour on the simulated cloud: subnet updates that clear, port
replacement that frees the old addresses, server networks updated in place.

In-process engine and worker (SQLite, fake transport).
"""

import copy

import pytest

from heat_lite.conf import CONF
from heat_lite.db import sim as sim_db
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status
CREATED = {"CREATE_COMPLETE", "CREATE_FAILED"}
UPDATED = {"UPDATE_COMPLETE", "UPDATE_FAILED"}


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h
    CONF.clear_override("fail_objects", group="simulated_cloud")


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
    assert sim_db.sim_object_get_all(project_id="p1") == []


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
    subnet = sim_db.sim_object_get(subnet_id)
    assert subnet["allocation_pools"] == pools and subnet["gateway_ip"] == "10.0.0.254"

    _update(heat, ident, _template({"net": NET, "sub": _subnet()}))
    subnet = sim_db.sim_object_get(subnet_id)
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
    assert sim_db.sim_object_get(old_id) is None
    new = sim_db.sim_object_get(new_id)
    assert new["mac_address"] == "fa:16:3e:00:00:02"
    assert [ip["ip_address"] for ip in new["fixed_ips"]] == ["10.0.0.50"]
    _delete(heat, ident)
