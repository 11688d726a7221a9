"""Implicit dependencies on real processes (PostgreSQL, RabbitMQ, two workers): a server
on ``{network: {get_resource: net}}`` waits for the subnet and is deleted before it, so
the subnet's delete never meets the server's port (Neutron's 409 "One or more ports have
an IP allocation from this subnet")."""

import pytest

from tests.integration import helpers

pytestmark = pytest.mark.integration

TEMPLATE = {
    "heat_template_version": "queens",
    "resources": {
        "net": {"type": "OS::Neutron::Net"},
        "sub": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": "10.20.0.0/24"},
        },
        "server": {
            "type": "OS::Nova::Server",
            "properties": {
                "image": "cirros-0.6.2",
                "flavor": "m1.tiny",
                "networks": [{"network": {"get_resource": "net"}}],
            },
        },
    },
    "outputs": {"address": {"value": {"get_attr": ["server", "first_address"]}}},
}

ROUNDS, STACKS = 4, 5


def _create(hc, name):
    return hc.stacks.create(stack_name=name, template=TEMPLATE)["stack"]["id"]


def test_net_subnet_server_create_and_delete_never_conflict(hc):
    """20 creates and deletes, five stacks at a time: every server has its address from
    the subnet, and every delete completes."""
    failures = []
    for round_ in range(ROUNDS):
        ids = [_create(hc, "deps-%d-%d" % (round_, i)) for i in range(STACKS)]
        for stack_id in ids:
            stack = helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"})
            assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
            (address,) = [o["output_value"] for o in stack.outputs]
            if not (address or "").startswith("10.20.0."):
                failures.append("%s: server address %r" % (stack.stack_name, address))
        for stack_id in ids:
            hc.stacks.delete(stack_id)
        for stack_id in ids:
            stack = helpers.wait_for_status(hc, stack_id, {"DELETE_COMPLETE", "DELETE_FAILED"})
            if stack.stack_status != "DELETE_COMPLETE":
                failures.append("%s: %s" % (stack.stack_name, stack.stack_status_reason))
    assert failures == []


def _subnet_server(subnet):
    resources = {
        "net": TEMPLATE["resources"]["net"],
        "sub_a": TEMPLATE["resources"]["sub"],
        "sub_b": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": "10.21.0.0/24"},
        },
        "server": {
            "type": "OS::Nova::Server",
            "properties": {
                "image": "cirros-0.6.2",
                "flavor": "m1.tiny",
                "networks": [{"subnet": {"get_resource": subnet}}],
            },
        },
    }
    return dict(TEMPLATE, resources=resources)


def test_server_moved_to_another_subnet_then_deleted(hc):
    """Heat's server networks update: {subnet: sub_a} -> {subnet: sub_b} gives the same
    server a port on sub_b (the internal port on sub_a goes), and the stack deletes."""
    stack_id = hc.stacks.create(stack_name="move", template=_subnet_server("sub_a"))["stack"]["id"]
    stack = helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert stack.outputs[0]["output_value"].startswith("10.20.0.")
    server_id = hc.resources.get(stack_id, "server").physical_resource_id

    hc.stacks.update(stack_id, template=_subnet_server("sub_b"))
    stack = helpers.wait_for_status(hc, stack_id, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert stack.outputs[0]["output_value"].startswith("10.21.0.")
    assert hc.resources.get(stack_id, "server").physical_resource_id == server_id

    hc.stacks.delete(stack_id)
    stack = helpers.wait_for_status(hc, stack_id, {"DELETE_COMPLETE", "DELETE_FAILED"})
    assert stack.stack_status == "DELETE_COMPLETE", stack.stack_status_reason
