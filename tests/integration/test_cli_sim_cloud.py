"""The real ``openstack`` CLI creating servers, ports and floating IPs on the simulated cloud
(heat-lite processes on PostgreSQL and RabbitMQ)."""

import ipaddress

import pytest
import yaml

pytestmark = pytest.mark.integration

SERVER = {
    "heat_template_version": "queens",
    "parameters": {
        "flavor": {
            "type": "string",
            "default": "m1.small",
            "constraints": [{"custom_constraint": "nova.flavor"}],
        }
    },
    "resources": {
        "net": {"type": "OS::Neutron::Net", "properties": {"name": "cli-net"}},
        "subnet": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": "192.168.10.0/24"},
        },
        "router": {
            "type": "OS::Neutron::Router",
            "properties": {"external_gateway_info": {"network": "public"}},
        },
        "iface": {
            "type": "OS::Neutron::RouterInterface",
            "properties": {
                "router": {"get_resource": "router"},
                "subnet": {"get_resource": "subnet"},
            },
        },
        "port": {
            "type": "OS::Neutron::Port",
            "properties": {
                "network": {"get_resource": "net"},
                "fixed_ips": [{"subnet": {"get_resource": "subnet"}}],
            },
        },
        "server": {
            "type": "OS::Nova::Server",
            "properties": {
                "image": "cirros-0.6.2",
                "flavor": {"get_param": "flavor"},
                "networks": [{"port": {"get_resource": "port"}}],
            },
        },
        "fip": {
            "type": "OS::Neutron::FloatingIP",
            "properties": {"floating_network": "public", "port_id": {"get_resource": "port"}},
        },
    },
    "outputs": {
        "private_ip": {"value": {"get_attr": ["server", "first_address"]}},
        "public_ip": {"value": {"get_attr": ["fip", "floating_ip_address"]}},
    },
}


@pytest.fixture(scope="module", autouse=True)
def templates(cli_dir):
    (cli_dir / "server.yaml").write_text(yaml.safe_dump(SERVER))


def test_server_stack_with_the_cli(cli):
    events, stack = cli.waited("stack", "create", "-t", "server.yaml", "--wait", "vm1")
    assert stack["stack_status"] == "CREATE_COMPLETE", events
    private = cli.json("stack", "output", "show", "vm1", "private_ip")["output_value"]
    public = cli.json("stack", "output", "show", "vm1", "public_ip")["output_value"]
    assert ipaddress.ip_address(private) in ipaddress.ip_network("192.168.10.0/24")
    assert ipaddress.ip_address(public) in ipaddress.ip_network("172.24.4.0/24")
    server = cli.json("stack", "resource", "show", "vm1", "server")
    assert server["resource_status"] == "CREATE_COMPLETE"
    assert server["attributes"]["networks"]["cli-net"] == [private]

    error = cli.error(
        "stack", "create", "-t", "server.yaml", "--parameter", "flavor=m1.huge", "vm2"
    )  # fmt: skip
    assert (
        "Parameter 'flavor' is invalid: Error validating value 'm1.huge': "
        "The Flavor ID (m1.huge) could not be found." in error
    )

    cli("stack", "delete", "--yes", "--wait", "vm1")
    assert cli.error("stack", "show", "vm1") == "Stack not found: vm1"
