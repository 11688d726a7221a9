"""Stacks of Nova/Neutron/Cinder/Octavia resources converging on the simulated cloud.

In-process engine and worker (SQLite, fake transport); simcloud's objects are checked
directly after each step.
"""

import ipaddress

import pytest

from heat_lite.common import exception
from heat_lite.conf import CONF
from simcloud.db import objects as sim_objects
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status
DONE = {"CREATE_COMPLETE", "CREATE_FAILED", "UPDATE_COMPLETE", "UPDATE_FAILED"}


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _outputs(stack):
    return {o["output_key"]: o.get("output_value") for o in stack.get("outputs", [])}


def _kinds(heat):
    return sorted(o["kind"] for o in heat.cloud.objects())


NETWORK = {
    "net": {"type": "OS::Neutron::Net", "properties": {"name": "private"}},
    "subnet": {
        "type": "OS::Neutron::Subnet",
        "properties": {
            "network": {"get_resource": "net"},
            "cidr": "10.0.0.0/24",
            "dns_nameservers": ["8.8.8.8"],
        },
    },
    "router": {
        "type": "OS::Neutron::Router",
        "properties": {"external_gateway_info": {"network": "public"}},
    },
    "router_if": {
        "type": "OS::Neutron::RouterInterface",
        "properties": {
            "router_id": {"get_resource": "router"},
            "subnet": {"get_resource": "subnet"},
        },
    },
    "secgroup": {
        "type": "OS::Neutron::SecurityGroup",
        "properties": {
            "rules": [
                {"protocol": "tcp", "port_range_min": 22, "port_range_max": 22},
                {"protocol": "icmp", "remote_ip_prefix": "0.0.0.0/0"},
            ]
        },
    },
}


def _server_template(flavor="m1.small", image="fedora-coreos-40", extra=None):
    resources = dict(NETWORK)
    resources.update(
        {
            "port": {
                "type": "OS::Neutron::Port",
                "properties": {
                    "network": {"get_resource": "net"},
                    "fixed_ips": [{"subnet": {"get_resource": "subnet"}}],
                    "security_groups": [{"get_resource": "secgroup"}],
                    "allowed_address_pairs": [{"ip_address": "10.100.0.0/16"}],
                },
            },
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "name": "vm",
                    "image": image,
                    "flavor": {"get_param": "flavor"},
                    "networks": [{"port": {"get_resource": "port"}}],
                },
            },
            "fip": {
                "type": "OS::Neutron::FloatingIP",
                "properties": {
                    "floating_network": "public",
                    "port_id": {"get_resource": "port"},
                },
            },
            "volume": {"type": "OS::Cinder::Volume", "properties": {"size": 10}},
            "attach": {
                "type": "OS::Cinder::VolumeAttachment",
                "properties": {
                    "instance_uuid": {"get_resource": "server"},
                    "volume_id": {"get_resource": "volume"},
                    "mountpoint": "/dev/vdb",
                },
            },
        }
    )
    resources.update(extra or {})
    return {
        "heat_template_version": "queens",
        "parameters": {
            "flavor": {
                "type": "string",
                "default": flavor,
                "constraints": [{"custom_constraint": "nova.flavor"}],
            }
        },
        "resources": resources,
        "outputs": {
            "private_ip": {"value": {"get_attr": ["port", "fixed_ips", 0, "ip_address"]}},
            "public_ip": {"value": {"get_attr": ["fip", "floating_ip_address"]}},
            "first_address": {"value": {"get_attr": ["server", "first_address"]}},
            "networks": {"value": {"get_attr": ["server", "networks"]}},
            "server_id": {"value": {"get_resource": "server"}},
            "volume_status": {"value": {"get_attr": ["volume", "status"]}},
            "flavor": {"value": {"get_attr": ["server", "show", "flavor", "original_name"]}},
        },
    }


def test_server_with_port_fip_volume_converges_and_deletes(heat):
    ident = heat.client.create_stack(heat.ctx, "vm", _server_template(), {}, {}, {})
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    out = _outputs(stack)
    assert ipaddress.ip_address(out["private_ip"]) in ipaddress.ip_network("10.0.0.0/24")
    assert ipaddress.ip_address(out["public_ip"]) in ipaddress.ip_network("172.24.4.0/24")
    assert out["first_address"] == out["private_ip"]
    assert out["networks"]["private"] == [out["private_ip"]]
    assert out["flavor"] == "m1.small"
    server = sim_objects.get(out["server_id"])
    assert server["status"] == "ACTIVE" and server["name"] == "vm"
    volume = sim_objects.get_all("cinder.volume", project_id=heat.cloud.project_id)[0]
    assert volume["status"] == "in-use"
    assert volume["attachments"][0]["server_id"] == server["id"]
    fip = sim_objects.get_all("neutron.floatingip", project_id=heat.cloud.project_id)[0]
    assert fip["fixed_ip_address"] == out["private_ip"] and fip["status"] == "ACTIVE"

    heat.client.delete_stack(heat.ctx, ident)
    _wait(heat, ident, {"DELETE_COMPLETE"})
    assert _kinds(heat) == []


def test_resize_in_place_and_image_rebuild_or_replace(heat):
    ident = heat.client.create_stack(heat.ctx, "vm", _server_template(), {}, {}, {})
    server_id = _outputs(inprocess.wait_for(heat, ident, "CREATE_COMPLETE"))["server_id"]

    heat.client.update_stack(
        heat.ctx, ident, _server_template(), {"parameters": {"flavor": "m1.large"}}, {}, {}
    )
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    out = _outputs(stack)
    assert out["server_id"] == server_id and out["flavor"] == "m1.large"

    # image: rebuilt in place by default (image_update_policy REBUILD) ...
    tmpl = _server_template(image="cirros-0.6.2")
    heat.client.update_stack(heat.ctx, ident, tmpl, {"parameters": {"flavor": "m1.large"}}, {}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert _outputs(stack)["server_id"] == server_id

    # ... replaced with image_update_policy REPLACE
    tmpl = _server_template(image="fedora-coreos-40")
    tmpl["resources"]["server"]["properties"]["image_update_policy"] = "REPLACE"
    heat.client.update_stack(heat.ctx, ident, tmpl, {"parameters": {"flavor": "m1.large"}}, {}, {})
    stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    new_id = _outputs(stack)["server_id"]
    assert new_id != server_id
    assert sim_objects.get(server_id) is None
    assert [s["id"] for s in sim_objects.get_all("nova.server")] == [new_id]


def test_forced_failure_gives_create_failed_with_reason(heat):
    heat.cloud.set(fail_objects=["nova.server:vm"])
    ident = heat.client.create_stack(heat.ctx, "vm", _server_template(), {}, {}, {})
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status"] == "FAILED"
    assert stack["stack_status_reason"] == (
        "Resource CREATE failed: ResourceInError: resources.server: Went to status ERROR due "
        'to "Message: Simulated failure of nova.server vm (failure on purpose)., Code: 500"'
    )


def test_unknown_flavor_parameter_is_rejected(heat):
    with pytest.raises(exception.StackValidationFailed) as err:
        heat.client.create_stack(
            heat.ctx, "vm", _server_template(), {"parameters": {"flavor": "m1.huge"}}, {}, {}
        )
    assert str(err.value) == (
        "Parameter 'flavor' is invalid: Error validating value 'm1.huge': "
        "The Flavor ID (m1.huge) could not be found."
    )
    assert sim_objects.get_all("nova.server") == []


def test_unknown_image_property_is_rejected(heat):
    tmpl = _server_template(image="windows-11")
    with pytest.raises(exception.StackValidationFailed) as err:
        heat.client.create_stack(heat.ctx, "vm", tmpl, {}, {}, {})
    assert str(err.value) == (
        "Property error: resources.server.properties.image: Error validating value "
        "'windows-11': The Image (windows-11) could not be found."
    )


def test_suspend_resume_and_check(heat):
    ident = heat.client.create_stack(heat.ctx, "vm", _server_template(), {}, {}, {})
    server_id = _outputs(inprocess.wait_for(heat, ident, "CREATE_COMPLETE"))["server_id"]

    def act(action, call):
        call(heat.ctx, ident)
        return _wait(heat, ident, {action + "_COMPLETE", action + "_FAILED"})

    stack = act("SUSPEND", heat.client.stack_suspend)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert sim_objects.get(server_id)["status"] == "SUSPENDED"
    stack = act("RESUME", heat.client.stack_resume)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert sim_objects.get(server_id)["status"] == "ACTIVE"
    stack = act("CHECK", heat.client.stack_check)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]

    # a server that is not ACTIVE fails the check, with Heat's message
    heat.client.stack_suspend(heat.ctx, ident)
    _wait(heat, ident, {"SUSPEND_COMPLETE"})
    stack = act("CHECK", heat.client.stack_check)
    assert stack["stack_status"] == "FAILED"
    assert (
        "resources.server: 'status': expected 'ACTIVE', got 'SUSPENDED'"
        in (stack["stack_status_reason"])
    )


def test_failed_create_rolls_back_to_nothing(heat):
    heat.cloud.set(fail_objects=["cinder.volume:*"])
    CONF.set_override("action_retry_limit", 1)
    try:
        ident = heat.client.create_stack(
            heat.ctx, "vm", _server_template(), {}, {}, {"disable_rollback": False}
        )
        stack = _wait(heat, ident, {"ROLLBACK_COMPLETE", "ROLLBACK_FAILED"})
    finally:
        CONF.clear_override("action_retry_limit")
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    assert heat.cloud.objects() == []


def test_update_converge_observes_the_cloud(heat):
    """``stack update --converge`` compares the live objects, not only the stored
    properties: a server resized behind Heat's back is resized back, a floating IP
    deleted behind its back is made again; a plain update of the same template does
    neither (Heat's converge / observe_on_update)."""
    from heat_lite.engine import clients

    ident = heat.client.create_stack(heat.ctx, "vm", _server_template(), {}, {}, {})
    out = _outputs(inprocess.wait_for(heat, ident, "CREATE_COMPLETE"))
    resources = heat.client.list_stack_resources(heat.ctx, ident)
    nova = clients.client_plugin(heat.ctx, "nova")
    nova.resize_server(out["server_id"], "m1.tiny")
    assert nova.show_server(out["server_id"])["status"] == "VERIFY_RESIZE"
    nova.confirm_resize(out["server_id"])
    fip = sim_objects.get_all("neutron.floatingip", project_id=heat.cloud.project_id)[0]
    clients.client_plugin(heat.ctx, "neutron").delete("floatingip", fip["id"])

    def update(args):
        heat.client.update_stack(heat.ctx, ident, _server_template(), {}, {}, args)
        stack = _wait(heat, ident, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
        assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
        return _outputs(stack)

    unchanged = update({})
    assert unchanged["flavor"] == "m1.tiny"
    assert sim_objects.get_all("neutron.floatingip", project_id=heat.cloud.project_id) == []

    converged = update({"converge": True})
    assert converged["server_id"] == out["server_id"]
    assert converged["flavor"] == "m1.small"
    fips = sim_objects.get_all("neutron.floatingip", project_id=heat.cloud.project_id)
    assert len(fips) == 1 and fips[0]["id"] != fip["id"]
    before = {r["resource_name"]: r["physical_resource_id"] for r in resources}
    after = {
        r["resource_name"]: r["physical_resource_id"]
        for r in heat.client.list_stack_resources(heat.ctx, ident)
    }
    assert {n for n in before if before[n] != after[n]} == {"fip"}
    assert converged["private_ip"] == out["private_ip"]
    ports = sim_objects.get_all("neutron.port", project_id=heat.cloud.project_id)
    assert fips[0]["fixed_ip_address"] == out["private_ip"], (fips, ports)
    assert converged["public_ip"] == fips[0]["floating_ip_address"]


def record_requests(monkeypatch):
    """The (method, path) of every request the client plugins make from now on."""
    from heat_lite.engine.clients.rest import base

    calls = []
    request = base.RestService.request

    def recording(service, method, url, *args, **kwargs):
        calls.append((method, url.split("?")[0]))
        return request(service, method, url, *args, **kwargs)

    monkeypatch.setattr(base.RestService, "request", recording)
    return calls


def test_a_server_create_asks_for_its_flavor_once(heat, monkeypatch):
    """With [cache] on, the flavor is looked up once (the validation's find is the
    create's, as Heat's memoized finder), and waiting for ACTIVE reads the server alone
    (Heat's _check_active), not show_server's flavor look-up (the attributes' one read
    of the server, for the outputs, still makes it: ``show`` gives the flavor's name)."""
    from heat_lite.common import cache

    calls = record_requests(monkeypatch)
    monkeypatch.setattr(cache, "_region", None)
    CONF.set_override("enabled", True, group="cache")
    CONF.set_override("backend", "dogpile.cache.memory", group="cache")
    try:
        ident = heat.client.create_stack(heat.ctx, "vm", _server_template(), {}, {}, {})
        server_id = _outputs(inprocess.wait_for(heat, ident, "CREATE_COMPLETE"))["server_id"]
    finally:
        CONF.clear_override("enabled", group="cache")
        CONF.clear_override("backend", group="cache")
    boot = calls.index(("POST", "/servers"))
    before, after = calls[:boot], calls[boot:]
    flavors = [c for c in before if c[1].startswith("/flavors")]
    assert flavors == [("GET", "/flavors/m1.small"), ("GET", "/flavors/detail")]
    assert ("GET", "/servers/%s" % server_id) in after
    assert [c for c in after if c[1].startswith("/flavors")] == [("GET", "/flavors/2")]
