"""heat-lite reaching simcloud-api as Heat reaches a cloud, seen with the real CLI.

Real processes on PostgreSQL + RabbitMQ; the ``openstack`` CLI through a clouds.yaml
naming only auth_url, user, project and password (every endpoint, heat-lite's too, from
the catalog):

* keystone mode: ``stack create``/``stack list`` reach heat-lite through the catalog,
  keystonemiddleware validates the token, and the stack's objects are made with the
  caller's token in the caller's project;
* noauth mode: heat-lite acts as its configured service user ([clients_keystone]).

In both, ``server list|show``, ``network list`` and ``volume list`` show what the stack
made while it lives, and nothing once it is deleted.
"""

import pytest
import requests
import yaml

from tests.fixtures import services
from tests.fixtures.simcloud_services import PASSWORDS

pytestmark = pytest.mark.integration

TEMPLATE = {
    "heat_template_version": "queens",
    "resources": {
        "net": {"type": "OS::Neutron::Net", "properties": {"name": "app-net"}},
        "subnet": {
            "type": "OS::Neutron::Subnet",
            "properties": {"network": {"get_resource": "net"}, "cidr": "10.8.0.0/24"},
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
        "server": {
            "type": "OS::Nova::Server",
            "depends_on": ["router_if"],
            "properties": {
                "name": "app-vm",
                "image": "cirros-0.6.2",
                "flavor": "m1.small",
                "networks": [{"subnet": {"get_resource": "subnet"}}],
            },
        },
        "volume": {"type": "OS::Cinder::Volume", "properties": {"name": "app-vol", "size": 2}},
    },
    "outputs": {"ip": {"value": {"get_attr": ["server", "first_address"]}}},
}


@pytest.fixture(scope="module", params=["keystone", "noauth"])
def deployment(request, backends, tmp_path_factory):
    db_url, transport_url = backends
    workdir = tmp_path_factory.mktemp(request.param)
    if request.param == "keystone":
        procs = services.KeystoneHeatProcesses(workdir, db_url, transport_url)
    else:
        # noauth: heat-lite acts as the user of [clients_keystone] - here admin in
        # project admin, so admin's CLI sees what the stacks make
        clients = {"username": "admin", "password": PASSWORDS["admin"], "project_name": "admin"}
        procs = services.HeatProcesses(workdir, db_url, transport_url, clients=clients)
    procs.start()
    try:
        yield procs, procs.cloud.cli(tmp_path_factory.mktemp("cli"), "admin")
    finally:
        procs.stop()


def test_stack_objects_are_seen_with_the_cli_and_gone_after_delete(deployment, tmp_path):
    procs, cli = deployment
    path = tmp_path / "app.yaml"
    path.write_text(yaml.safe_dump(TEMPLATE))
    stack = cli.waited("stack", "create", "-t", str(path), "--wait", "app")[1]
    assert stack["stack_status"] == "CREATE_COMPLETE", stack
    assert [s["Stack Name"] for s in cli.json("stack", "list")] == ["app"]
    if isinstance(procs, services.KeystoneHeatProcesses):  # no token, no answer
        assert requests.get(procs.endpoint + "/stacks", timeout=10).status_code == 401

    servers = cli.json("server", "list")
    assert [(s["Name"], s["Status"]) for s in servers] == [("app-vm", "ACTIVE")]
    assert servers[0]["Flavor"] == "m1.small"
    assert servers[0]["Image"] == "cirros-0.6.2"
    assert "app-net" in str(servers[0]["Networks"])
    assert "10.8.0." in str(servers[0]["Networks"])
    shown = cli.json("server", "show", "app-vm")
    assert shown["status"] == "ACTIVE"
    assert "m1.small" in str(shown["flavor"])
    assert "cirros-0.6.2" in str(shown["image"])
    assert "10.8.0." in str(shown["addresses"])
    assert "app-net" in [n["Name"] for n in cli.json("network", "list")]
    assert [v["Name"] for v in cli.json("volume", "list")] == ["app-vol"]

    cli("stack", "delete", "--yes", "--wait", "app")
    assert cli.json("server", "list") == []
    assert "app-net" not in [n["Name"] for n in cli.json("network", "list")]
    assert cli.json("volume", "list") == []
    assert procs.cloud.objects("admin").get("nova.server") is None
