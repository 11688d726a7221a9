"""OS::Nova::Server, ServerGroup and KeyPair on the simulated cloud."""

import pytest

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.engine import clients, resource
from simcloud.db import objects as sim_objects
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
    assert sim_objects.get_all("nova.server") == []
    assert sim_objects.get_all("neutron.port", device_id=server.resource_id) == []


def test_server_update_policies(ctx, net):
    server = create(ctx, "OS::Nova::Server", _server(net))
    after = dict(server.properties)
    assert not resource.Resource.needs_replace(server, {"flavor": "m1.large"}, after)
    assert not resource.Resource.needs_replace(server, {"image": "fedora-coreos-40"}, after)
    assert resource.Resource.needs_replace(server, {"user_data": "x"}, after)
    assert resource.Resource.needs_replace(
        server, {"flavor": "m1.large"}, dict(after, flavor_update_policy="REPLACE")
    )
    assert resource.Resource.needs_replace(server, {"key_name": "k"}, after)  # not update_allowed


def test_failed_server_reports_the_fault(cloud, ctx, net):
    cloud.set(fail_objects=["nova.server:bad-*"])
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


def test_server_group_and_keypair(cloud, ctx):
    group = create(ctx, "OS::Nova::ServerGroup", {"policies": ["soft-anti-affinity"]})
    assert sim_objects.get(group.resource_id)["policies"] == ["soft-anti-affinity"]
    key = create(ctx, "OS::Nova::KeyPair", {"name": "mykey"})
    assert key.get_reference_id() == "mykey"
    assert key.get_attribute("public_key").startswith("ssh-rsa ")
    delete(key)
    delete(group)
    assert cloud.objects() == []


def test_create_is_retried_after_an_error_build(cloud, ctx, net):
    """Heat's action_retry_limit: the server in ERROR is deleted and booted again."""
    CONF.set_override("action_retry_limit", 2)
    cloud.set(fail_objects=["nova.server:flaky"])
    try:
        server = make(ctx, "OS::Nova::Server", _server(net, name="flaky"))
        handle, check = server._create_steps()
        box = handle()
        first = server.resource_id
        cloud.set(fail_objects=[])  # the next boot works
        while not check(box):
            pass
        assert server.resource_id != first
        assert sim_objects.get(first) is None
        assert sim_objects.get(server.resource_id)["status"] == "ACTIVE"
    finally:
        CONF.clear_override("action_retry_limit")


def test_retries_run_out(cloud, ctx, net):
    CONF.set_override("action_retry_limit", 1)
    cloud.set(fail_objects=["nova.server:bad"])
    try:
        with pytest.raises(exception.ResourceInError):
            create(ctx, "OS::Nova::Server", _server(net, name="bad"))
        # the last failed server is kept (Heat deletes it with the resource)
        assert [s["status"] for s in sim_objects.get_all("nova.server")] == ["ERROR"]
    finally:
        CONF.clear_override("action_retry_limit")


def test_allocate_network_auto_or_none(ctx, net):
    auto = create(ctx, "OS::Nova::Server", _server(net, networks=[{"allocate_network": "auto"}]))
    assert auto.get_attribute("networks")["private"] == ["10.0.0.2"]
    none = create(ctx, "OS::Nova::Server", _server(net, networks=[{"allocate_network": "none"}]))
    assert none.get_attribute("networks") == {}


@pytest.mark.parametrize(
    "networks, error, message",
    [
        (
            [{"fixed_ip": "10.0.0.9"}],
            exception.StackValidationFailed,
            'One of the properties "network", "port", "allocate_network" or "subnet" should '
            'be set for the specified network of server "r".',
        ),
        (
            [{"allocate_network": "auto", "network": "private"}],
            exception.StackValidationFailed,
            'Can not specify "allocate_network" with other keys of networks at the same time.',
        ),
        (
            [{"allocate_network": "auto"}, {"network": "private"}],
            exception.StackValidationFailed,
            'Property "allocate_network" can not be specified if multiple network interfaces '
            "set for server.",
        ),
        (
            [{"network": "private", "floating_ip": "f"}],
            exception.StackValidationFailed,
            'Property "floating_ip" is not supported if only "network" is specified, because '
            "the corresponding port can not be retrieved.",
        ),
    ],
)
def test_network_entries_are_validated_as_heat(ctx, net, networks, error, message):
    with pytest.raises(error) as err:
        make(ctx, "OS::Nova::Server", _server(net, networks=networks)).validate()
    assert str(err.value) == message


def test_subnet_outside_the_network_is_refused(ctx, net):
    neutron = clients.client_plugin(ctx, "neutron")
    other = neutron.create_subnet(neutron.create_net("other")["id"], "10.5.0.0/24")
    server = make(
        ctx,
        "OS::Nova::Server",
        _server(net, networks=[{"network": "private", "subnet": other["id"]}]),
    )
    with pytest.raises(exception.StackValidationFailed) as err:
        server.handle_create()
    assert str(err.value) == "Specified subnet %s does not belongs to network %s." % (
        other["id"],
        net["net"],
    )


def test_a_failed_server_is_kept_unless_gone_or_in_error(cloud, ctx, net):
    """Heat's needs_replace_failed: a FAILED server (a create a dead worker left) is kept
    while its object is there and not in ERROR; other resources are replaced."""
    server = make(ctx, "OS::Nova::Server", _server(net, name="kept"))
    assert server.needs_replace_failed()  # no physical id: nothing to keep
    cloud.set(build_time=60)
    server.resource_id = server.handle_create()
    assert server.needs_replace_failed() is False  # still in BUILD
    sim_objects.update(server.resource_id, status="ERROR")
    assert server.needs_replace_failed()
    sim_objects.update(server.resource_id, status="ACTIVE")
    assert server.needs_replace_failed() is False
    sim_objects.delete(server.resource_id)
    assert server.needs_replace_failed()
    value = make(ctx, "OS::Heat::Value", {"value": "v"})
    value.resource_id = "x"
    assert value.needs_replace_failed()
