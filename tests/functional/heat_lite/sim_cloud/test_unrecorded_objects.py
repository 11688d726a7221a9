"""Objects a create made but never recorded (its worker was killed between the cloud's
answer and resource_id_set): the delete finds them by the name the create gave them,
among the objects no resource records, and removes them; it guesses nothing when the
name is not unique among those.

In-process engine and worker on simcloud. The kill is simulated on the rows: each
resource is left as a takeover leaves it (``CREATE_FAILED "Worker went down during
resource CREATE"``, no physical id), its object still in the cloud.
"""

import pytest

from heat_lite.db import api as db_api
from simcloud.db import objects as sim_objects
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

_wait = inprocess.wait_for_status
DONE = {"CREATE_COMPLETE", "CREATE_FAILED"}

NAMED_BY_HEAT = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "net": {"type": "OS::Neutron::Net"},
        "subnet": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": "10.0.0.0/24"},
        },
        "port": {
            "type": "OS::Neutron::Port",
            "properties": {
                "network": {"get_resource": "net"},
                "fixed_ips": [{"subnet": {"get_resource": "subnet"}}],
            },
        },
        "secgroup": {
            "type": "OS::Neutron::SecurityGroup",
            "properties": {"rules": [{"protocol": "tcp", "port_range_min": 22}]},
        },
        "group": {"type": "OS::Nova::ServerGroup", "properties": {"policies": ["anti-affinity"]}},
        # no name: the rule by its group, direction, protocol and ports; the floating IP
        # by its port
        "rule": {
            "type": "OS::Neutron::SecurityGroupRule",
            "properties": {
                "security_group": {"get_resource": "secgroup"},
                "protocol": "tcp",
                "port_range_min": 443,
                "port_range_max": 443,
            },
        },
        "router": {
            "type": "OS::Neutron::Router",
            "properties": {"external_gateway_info": {"network": "public"}},
        },
        "router_if": {
            "type": "OS::Neutron::RouterInterface",
            "properties": {
                "router": {"get_resource": "router"},
                "subnet": {"get_resource": "subnet"},
            },
        },
        "fip": {
            "type": "OS::Neutron::FloatingIP",
            "properties": {"floating_network": "public", "port_id": {"get_resource": "port"}},
        },
        "volume": {"type": "OS::Cinder::Volume", "properties": {"size": 1}},
    },
}


def _named(name):
    return {
        "heat_template_version": "2018-08-31",
        "resources": {
            "secgroup": {"type": "OS::Neutron::SecurityGroup", "properties": {"name": name}}
        },
    }


@pytest.fixture
def heat(tmp_path):
    with inprocess.heat(tmp_path) as h:
        yield h


def _kinds(heat):
    return sorted(o["kind"] for o in heat.cloud.objects())


def _groups(heat):
    return [o for o in heat.cloud.objects() if o["kind"] == "neutron.security_group"]


def _create(heat, name, template):
    ident = heat.client.create_stack(heat.ctx, name, template, {}, {}, {})
    stack = _wait(heat, ident, DONE)
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]
    return ident


def _forget_physical_ids(ident):
    """The rows as a worker killed after the cloud's answer leaves them, once taken over."""
    rsrc = db_api.T_RSRC
    with db_api.transaction() as conn:
        conn.execute(
            rsrc.update()
            .where(rsrc.c.stack_id == ident["stack_id"])
            .values(
                nova_instance=None,
                action="CREATE",
                status="FAILED",
                status_reason="Worker went down during resource CREATE",
            )
        )


def _delete(heat, ident):
    heat.client.delete_stack(heat.ctx, ident)
    stack = _wait(heat, ident, {"DELETE_COMPLETE", "DELETE_FAILED"})
    assert stack["stack_status"] == "COMPLETE", stack["stack_status_reason"]


def test_unrecorded_objects_named_by_heat_are_deleted(heat):
    ident = _create(heat, "lost", NAMED_BY_HEAT)
    made = _kinds(heat)
    assert {
        "neutron.net",
        "neutron.port",
        "neutron.security_group",
        "neutron.security_group_rule",
        "neutron.floatingip",
        "nova.server_group",
        "cinder.volume",
    } <= set(made)
    _forget_physical_ids(ident)
    _delete(heat, ident)
    assert _kinds(heat) == []


def test_an_unrecorded_object_is_told_from_recorded_ones_of_its_name(heat):
    kept = _create(heat, "kept", _named("web"))
    lost = _create(heat, "lost", _named("web"))
    _forget_physical_ids(lost)
    _delete(heat, lost)
    (left,) = _groups(heat)
    assert left["name"] == "web"
    resources = heat.client.list_stack_resources(heat.ctx, kept)
    assert [r["physical_resource_id"] for r in resources] == [left["id"]]


def test_nothing_is_guessed_among_several_unrecorded_objects_of_its_name(heat):
    lost = _create(heat, "lost", _named("web"))
    (made,) = _groups(heat)
    # made outside heat, with the same name
    other = sim_objects.create(
        "neutron.security_group", made["project_id"], "web", made["status"], {}
    )
    _forget_physical_ids(lost)
    _delete(heat, lost)
    assert sorted(o["id"] for o in _groups(heat)) == sorted([made["id"], other["id"]])
