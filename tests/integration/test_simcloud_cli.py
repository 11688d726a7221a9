"""The real ``openstack`` CLI against the real simcloud-api process on PostgreSQL, through a
clouds.yaml naming only auth_url, user, project and password (endpoints from the catalog)."""

import pytest

from tests.fixtures import cli as cli_mod
from tests.fixtures import services
from tests.fixtures.simcloud_services import SimcloudProcess

pytestmark = pytest.mark.integration


@pytest.fixture(scope="module")
def cloud(tmp_path_factory):
    db_name, db_url = services.create_database()
    proc = SimcloudProcess(tmp_path_factory.mktemp("simcloud"), db_url)
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()
        services.drop_database(db_name)
    assert "Traceback" not in proc.log()


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def admin(cloud, workdir):
    return cloud.cli(workdir, "admin")


@pytest.fixture(scope="module")
def demo(cloud, workdir):
    return cloud.cli(workdir, "demo")


def test_token_catalog_projects_users(admin, cloud):
    token = admin.json("token", "issue")
    assert token["id"] and token["project_id"] and token["user_id"]
    types = {entry["Type"] for entry in admin.json("catalog", "list")}
    assert {"identity", "compute", "image", "network", "volumev3", "load-balancer"} <= types
    assert {"orchestration", "container-infra"} <= types
    assert {"admin", "demo", "service"} <= {p["Name"] for p in admin.json("project", "list")}
    assert {"admin", "demo"} <= {u["Name"] for u in admin.json("user", "list")}


def test_wrong_password_is_refused(cloud, workdir):
    cli = cloud.cli(workdir, "demo")
    cloud.clouds_yaml(workdir, "demo").write_text(
        cloud.clouds_yaml(workdir, "demo").read_text().replace("demo-secret", "wrong")
    )
    try:
        assert "401" in cli.error("token", "issue")
    finally:
        cloud.clouds_yaml(workdir, "demo")
    assert cli.json("token", "issue")["id"]


def test_images_with_properties(admin):
    names = {i["Name"] for i in admin.json("image", "list")}
    assert {"fedora-coreos-40", "cirros-0.6.2"} <= names
    assert admin.json("image", "show", "fedora-coreos-40")["properties"]["os_distro"] == (
        "fedora-coreos"
    )
    created = admin.json(
        "image",
        "create",
        "--disk-format",
        "qcow2",
        "--container-format",
        "bare",
        "--property",
        "os_distro=fedora-coreos",
        "--public",
        "my-fcos",
    )
    shown = admin.json("image", "show", created["id"])
    assert shown["name"] == "my-fcos"
    assert shown["properties"]["os_distro"] == "fedora-coreos"


def test_flavors_and_keypairs(admin):
    flavors = {f["Name"]: f for f in admin.json("flavor", "list")}
    assert set(flavors) >= {"m1.tiny", "m1.small", "m1.medium", "m1.large", "m1.xlarge"}
    assert flavors["m1.small"]["RAM"] == 2048
    # admin's keypair default is seeded ([simulation] keypairs); a second one is not
    assert "Key pair 'default' already exists." in admin.error("keypair", "create", "default")
    admin("keypair", "create", "mine")
    assert {"default", "mine"} <= {k["Name"] for k in admin.json("keypair", "list")}


def test_networks_servers_volumes(admin, demo):
    public = {n["Name"]: n for n in admin.json("network", "list", "--external")}
    assert "public" in public
    assert "172.24.4.0/24" in {s["Subnet"] for s in admin.json("subnet", "list")}
    admin.json("router", "list")
    admin("keypair", "create", "vm-key")
    net = admin.json("network", "create", "private")
    admin.json(
        "subnet",
        "create",
        "--network",
        "private",
        "--subnet-range",
        "10.0.0.0/24",
        "private-subnet",
    )
    server = admin.json(
        "server",
        "create",
        "--image",
        "cirros-0.6.2",
        "--flavor",
        "m1.small",
        "--network",
        net["id"],
        "--key-name",
        "vm-key",
        "--wait",
        "vm1",
    )
    assert server["status"] == "ACTIVE"
    listed = {s["Name"]: s for s in admin.json("server", "list")}
    assert listed["vm1"]["Status"] == "ACTIVE"
    assert "10.0.0." in str(listed["vm1"]["Networks"])
    shown = admin.json("server", "show", "vm1")
    assert "m1.small" in str(shown["flavor"])
    assert "cirros-0.6.2" in str(shown["image"])
    assert "private" in str(shown["addresses"])
    # another project's server is not found
    assert "No Server found" in demo.error("server", "show", server["id"]) or "404" in (
        demo.error("server", "show", server["id"])
    )
    admin("server", "delete", "--wait", "vm1")
    assert "vm1" not in {s["Name"] for s in admin.json("server", "list")}
    volume = admin.json("volume", "create", "--size", "1", "data")
    assert volume["size"] == 1
    assert "data" in {v["Name"] for v in admin.json("volume", "list")}


def test_cli_error_format(admin):
    with pytest.raises(cli_mod.CLIError):
        admin("server", "show", "no-such-server")


def test_router_floating_ip_security_group_loadbalancer(demo):
    demo.json("network", "create", "lb-net")
    subnet = demo.json(
        "subnet", "create", "--network", "lb-net", "--subnet-range", "10.2.0.0/24", "lb-subnet"
    )
    demo.json("router", "create", "--external-gateway", "public", "r1")
    demo("router", "add", "subnet", "r1", "lb-subnet")
    assert "r1" in {r["Name"] for r in demo.json("router", "list")}
    port = demo.json("port", "create", "--network", "lb-net", "p1")
    fip = demo.json("floating", "ip", "create", "--port", port["id"], "public")
    assert fip["floating_ip_address"].startswith("172.24.4.")
    assert fip["id"] in {f["ID"] for f in demo.json("floating", "ip", "list")}
    assert "default" in {g["Name"] for g in demo.json("security", "group", "list")}
    lb = demo.json(
        "loadbalancer", "create", "--name", "lb1", "--vip-subnet-id", subnet["id"], "--wait"
    )
    assert lb["provisioning_status"] == "ACTIVE"
    assert "lb1" in {b["name"] for b in demo.json("loadbalancer", "list")}
    demo("loadbalancer", "delete", "--wait", "lb1")
