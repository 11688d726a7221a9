"""OS::Nova::Server, ServerGroup and KeyPair on the simulated cloud."""

import pytest

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.db import sim as sim_db
from tests.unit.heat_lite.engine.resources.openstack.conftest import create, delete, make


def _server(net, **props):
    return dict(
        {"image": "cirros-0.6.2", "flavor": "m1.tiny", "networks": [{"network": net["net"]}]},
        **props,
    )


def test_validation_messages(ctx, net):
    with pytest.raises(exception.StackValidationFailed) as err:
        make(ctx, "OS::Nova::Server", _server(net, flavor="m1.huge")).properties.validate()
    assert str(err.value) == (
        "Property error: resources.r.properties.flavor: Error validating value 'm1.huge': "
        "The Flavor ID (m1.huge) could not be found."
    )
    with pytest.raises(exception.StackValidationFailed, match="Property flavor not assigned"):
        make(ctx, "OS::Nova::Server", {"image": "cirros-0.6.2"}).properties.validate()
    with pytest.raises(exception.StackValidationFailed, match="is not an allowed value"):
        make(ctx, "OS::Nova::ServerGroup", {"policies": ["spread"]}).properties.validate()


def test_server_attributes_hold_the_addresses(ctx, net):
    server = create(ctx, "OS::Nova::Server", _server(net, name="vm1"))
    networks = server.get_attribute("networks")
    assert networks == {"private": ["10.0.0.2"], net["net"]: ["10.0.0.2"]}
    assert server.get_attribute("first_address") == "10.0.0.2"
    (address,) = server.get_attribute("addresses")["private"]
    assert address["addr"] == "10.0.0.2" and address["port"]
    assert address["OS-EXT-IPS:type"] == "fixed"
    assert server.get_attribute("name") == "vm1"
    assert server.get_attribute("show")["status"] == "ACTIVE"
    assert server.get_attribute("instance_name").startswith("instance-")
    assert server.get_reference_id() == server.resource_id
    delete(server)
    assert sim_db.sim_object_get_all("nova.server") == []
    assert sim_db.sim_object_get_all("neutron.port", device_id=server.resource_id) == []


def test_server_update_policies(ctx, net):
    server = create(ctx, "OS::Nova::Server", _server(net))
    after = dict(server.properties)
    assert not server.replace_needed({"flavor": "m1.large"}, after)
    assert not server.replace_needed({"image": "fedora-coreos-40"}, after)
    assert server.replace_needed({"user_data": "x"}, after)
    assert server.replace_needed(
        {"flavor": "m1.large"}, dict(after, flavor_update_policy="REPLACE")
    )
    assert server.replace_needed({"key_name": "k"}, after)  # not update_allowed


def test_failed_server_reports_the_fault(ctx, net):
    CONF.set_override("fail_objects", ["nova.server:bad-*"], group="simulated_cloud")
    with pytest.raises(exception.ResourceInError) as err:
        create(ctx, "OS::Nova::Server", _server(net, name="bad-1"))
    assert str(err.value) == (
        'Went to status ERROR due to "Message: Simulated failure of nova.server bad-1 '
        '(failure on purpose)., Code: 500"'
    )


def test_boot_from_volume_needs_image_or_volume(ctx, net):
    with pytest.raises(exception.StackValidationFailed) as err:
        make(ctx, "OS::Nova::Server", {"flavor": "m1.tiny"}).validate()
    assert str(err.value) == "Neither image nor bootable volume is specified for instance r"
    bdm = [{"boot_index": 0, "volume_id": "vol"}]
    make(ctx, "OS::Nova::Server", {"flavor": "m1.tiny", "block_device_mapping_v2": bdm}).validate()


def test_server_group_and_keypair(ctx):
    group = create(ctx, "OS::Nova::ServerGroup", {"policies": ["soft-anti-affinity"]})
    assert sim_db.sim_object_get(group.resource_id)["policies"] == ["soft-anti-affinity"]
    key = create(ctx, "OS::Nova::KeyPair", {"name": "mykey"})
    assert key.get_reference_id() == "mykey"
    assert key.get_attribute("public_key").startswith("ssh-rsa ")
    delete(key)
    delete(group)
    assert sim_db.sim_object_get_all(project_id="p1") == []


def test_create_is_retried_after_an_error_build(ctx, net):
    """Heat's action_retry_limit: the server in ERROR is deleted and booted again."""
    CONF.set_override("action_retry_limit", 2)
    CONF.set_override("fail_objects", ["nova.server:flaky"], group="simulated_cloud")
    try:
        server = make(ctx, "OS::Nova::Server", _server(net, name="flaky"))
        handle, check = server._create_steps()
        box = handle()
        first = server.resource_id
        CONF.clear_override("fail_objects", group="simulated_cloud")  # the next boot works
        while not check(box):
            pass
        assert server.resource_id != first
        assert sim_db.sim_object_get(first) is None
        assert sim_db.sim_object_get(server.resource_id)["status"] == "ACTIVE"
    finally:
        CONF.clear_override("action_retry_limit")


def test_retries_run_out(ctx, net):
    CONF.set_override("action_retry_limit", 1)
    CONF.set_override("fail_objects", ["nova.server:bad"], group="simulated_cloud")
    try:
        with pytest.raises(exception.ResourceInError):
            create(ctx, "OS::Nova::Server", _server(net, name="bad"))
        # the last failed server is kept (Heat deletes it with the resource)
        assert [s["status"] for s in sim_db.sim_object_get_all("nova.server")] == ["ERROR"]
    finally:
        CONF.clear_override("action_retry_limit")
