"""The custom constraints that ask the (simulated) cloud, with Heat's messages."""

import pytest

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.engine import clients, constraints


def _check(name, value, ctx):
    schema = constraints.Schema(
        constraints.Schema.STRING, constraints=[constraints.CustomConstraint(name)]
    )
    schema.validate_constraints(value, ctx)


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("nova.flavor", "m1.huge", "The Flavor ID (m1.huge) could not be found."),
        ("nova.keypair", "nokey", "The Key (nokey) could not be found."),
        ("nova.server", "novm", "The Server (novm) could not be found."),
        ("glance.image", "noimage", "The Image (noimage) could not be found."),
        ("cinder.volume", "novol", "The Volume (novol) could not be found."),
        ("neutron.network", "nonet", "Unable to find network with name or id 'nonet'"),
        ("neutron.subnet", "nosub", "Unable to find subnet with name or id 'nosub'"),
        ("neutron.port", "noport", "Unable to find port with name or id 'noport'"),
        ("neutron.router", "nor", "Unable to find router with name or id 'nor'"),
        ("octavia.loadbalancer", "nolb", "Load Balancer nolb not found."),
    ],
)
def test_unknown_names_fail_with_heat_message(ctx, name, value, message):
    with pytest.raises(exception.StackValidationFailed) as err:
        _check(name, value, ctx)
    assert str(err.value) == "Error validating value '%s': %s" % (value, message)


def test_known_names_pass(ctx):
    neutron = clients.client_plugin(ctx, "neutron")
    net = neutron.create_net("private")
    subnet = neutron.create_subnet(net["id"], "10.0.0.0/24", "private-subnet")
    clients.client_plugin(ctx, "nova").create_keypair("mykey")
    volume = clients.client_plugin(ctx, "cinder").create_volume("vol", 1)
    for name, value in [
        ("nova.flavor", "m1.small"),
        ("nova.flavor", "3"),
        ("nova.keypair", "mykey"),
        ("glance.image", "cirros-0.6.2"),
        ("neutron.network", "public"),
        ("neutron.network", "private"),
        ("neutron.network", net["id"]),
        ("neutron.subnet", "private-subnet"),
        ("neutron.subnet", subnet["id"]),
        ("cinder.volume", volume["id"]),
    ]:
        _check(name, value, ctx)


def test_other_projects_objects_are_not_found(ctx, cloud):
    """In keystone mode the plugins act with the request's token, in its project."""
    CONF.set_override("auth_strategy", "keystone")
    token, project = cloud.token("admin")
    admin = ctx.from_dict(dict(ctx.to_dict(), auth_token=token, project_id=project))
    net = clients.client_plugin(admin, "neutron").create_net("theirs")
    assert net["project_id"] == project
    _check("neutron.network", "theirs", admin)
    token, project = cloud.token("demo")
    demo = ctx.from_dict(dict(ctx.to_dict(), auth_token=token, project_id=project))
    with pytest.raises(exception.StackValidationFailed, match="Unable to find network"):
        _check("neutron.network", "theirs", demo)
