"""OS::Cinder::{Volume,VolumeAttachment} and the load-balancer plugins."""

import pytest

from heat_lite.common import exception
from heat_lite.engine import resources
from heat_lite.engine.service_info import support_status_of
from simcloud.db import objects as sim_objects
from tests.unit.heat_lite.engine.resources.openstack.conftest import create, delete, make


def test_volume_extend_shrink_and_attach(ctx, net):
    volume = create(ctx, "OS::Cinder::Volume", {"size": 2, "name": "data"})
    assert volume.get_attribute("status") == "available"
    assert volume.get_attribute("display_name") == "data"
    bigger = make(ctx, "OS::Cinder::Volume", {"size": 5, "name": "data"})
    bigger.resource_id = volume.resource_id
    bigger.handle_update(bigger.t, {"size": 5})
    assert bigger.get_attribute("size") == "5"
    smaller = make(ctx, "OS::Cinder::Volume", {"size": 1, "name": "data"})
    smaller.resource_id = volume.resource_id
    with pytest.raises(exception.NotSupported):
        smaller.handle_update(smaller.t, {"size": 1})

    server = create(
        ctx,
        "OS::Nova::Server",
        {"image": "cirros-0.6.2", "flavor": "m1.tiny", "networks": [{"network": net["net"]}]},
    )
    attach = create(
        ctx,
        "OS::Cinder::VolumeAttachment",
        {
            "instance_uuid": server.resource_id,
            "volume_id": volume.resource_id,
            "mountpoint": "/dev/vdb",
        },
    )
    assert volume.get_attribute("status") == "in-use"
    assert volume.get_attribute("attachments_list")[0]["device"] == "/dev/vdb"
    delete(attach)
    assert volume.get_attribute("status") == "available"
    delete(volume)
    assert sim_objects.get_all("cinder.volume") == []


def test_volume_needs_a_size_or_a_source(ctx):
    with pytest.raises(exception.StackValidationFailed) as err:
        make(ctx, "OS::Cinder::Volume", {}).validate()
    assert str(err.value) == (
        'If neither "backup_id" nor "size" is provided, one and only one of "source_volid", '
        '"snapshot_id" must be specified, but currently specified options: [].'
    )
    make(ctx, "OS::Cinder::Volume", {"source_volid": "v"}).validate()


@pytest.mark.parametrize("prefix", ["OS::Octavia::", "OS::Neutron::LBaaS::"])
def test_load_balancer_chain(cloud, ctx, net, prefix):
    lb = create(ctx, prefix + "LoadBalancer", {"vip_subnet": net["subnet"]})
    assert lb.get_attribute("vip_address") == "10.0.0.2"
    listener = create(
        ctx,
        prefix + "Listener",
        {"loadbalancer": lb.resource_id, "protocol": "TCP", "protocol_port": 6443},
    )
    pool = create(
        ctx,
        prefix + "Pool",
        {"listener": listener.resource_id, "protocol": "TCP", "lb_algorithm": "ROUND_ROBIN"},
    )
    assert listener.get_attribute("default_pool_id") == pool.resource_id
    member = create(
        ctx,
        prefix + "PoolMember",
        {"pool": pool.resource_id, "address": "10.0.0.9", "protocol_port": 6443},
    )
    monitor = create(
        ctx,
        prefix + "HealthMonitor",
        {"pool": pool.resource_id, "type": "TCP", "delay": 5, "max_retries": 3, "timeout": 5},
    )
    assert pool.get_attribute("members") == [member.resource_id]
    assert pool.get_attribute("healthmonitor_id") == monitor.resource_id
    assert lb.get_attribute("pools") == [{"id": pool.resource_id}]
    for rsrc in (monitor, member, pool, listener, lb):
        delete(rsrc)
    assert sim_objects.get_all(project_id=cloud.project_id, kind="octavia.loadbalancer") == []


def test_lbaas_schemas_differ_from_octavia(ctx):
    with pytest.raises(exception.StackValidationFailed, match="Property vip_subnet not assigned"):
        make(ctx, "OS::Neutron::LBaaS::LoadBalancer", {}).properties.validate()
    props = {"loadbalancer": "lb", "protocol": "TCP", "protocol_port": 1, "allowed_cidrs": []}
    with pytest.raises(exception.StackValidationFailed, match="Unknown Property allowed_cidrs"):
        make(ctx, "OS::Neutron::LBaaS::Listener", props).properties.validate(with_value=False)
    with pytest.raises(exception.StackValidationFailed, match="SOURCE_IP_PORT"):
        make(
            ctx,
            "OS::Neutron::LBaaS::Pool",
            {"loadbalancer": "x", "protocol": "TCP", "lb_algorithm": "SOURCE_IP_PORT"},
        ).properties.validate(with_value=True)


def test_lbaas_types_are_hidden_as_in_heat_27():
    for name in ("LoadBalancer", "Listener", "Pool", "PoolMember", "HealthMonitor"):
        status = support_status_of(resources.get_class("OS::Neutron::LBaaS::" + name))
        assert (status["status"], status["message"]) == ("HIDDEN", "Use octavia instead.")
        assert support_status_of(resources.get_class("OS::Octavia::" + name))["status"] == (
            "SUPPORTED"
        )


def test_pool_children_look_their_pool_up_once_per_action(ctx, net, monkeypatch):
    """As Heat's octavia plugins keep pool_id and lb_id: a member's create reads its pool
    once (for the pool id and the load balancer id both), not once per use."""
    from heat_lite.engine.clients.rest import octavia

    lb = create(ctx, "OS::Octavia::LoadBalancer", {"vip_subnet": net["subnet"]})
    listener = create(
        ctx,
        "OS::Octavia::Listener",
        {"loadbalancer": lb.resource_id, "protocol": "TCP", "protocol_port": 6443},
    )
    pool_props = {
        "listener": listener.resource_id,
        "protocol": "TCP",
        "lb_algorithm": "ROUND_ROBIN",
    }
    finds = []
    find = octavia.OctaviaClientPlugin.find

    def counting(plugin, entity, name_or_id):
        finds.append(entity)
        return find(plugin, entity, name_or_id)

    monkeypatch.setattr(octavia.OctaviaClientPlugin, "find", counting)
    pool = create(ctx, "OS::Octavia::Pool", pool_props)
    assert finds == ["listener", "listener"]  # its octavia.listener constraint, its create
    finds.clear()
    member = create(
        ctx,
        "OS::Octavia::PoolMember",
        {"pool": pool.resource_id, "address": "10.0.0.9", "protocol_port": 6443},
    )
    assert finds == ["pool", "pool"]
    assert member.found("pool", pool.resource_id)["loadbalancer_id"] == lb.resource_id
