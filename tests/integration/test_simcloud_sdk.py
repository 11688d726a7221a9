"""The client libraries heat-lite and magnum-lite will use against the real simcloud-api
process on PostgreSQL: openstacksdk (keystoneauth session, endpoints from the catalog) for
what Heat's resource plugins do, and keystonemiddleware's auth_token validating simcloud's
tokens as the services' keystone mode will."""

import openstack
import pytest
import webob
from keystonemiddleware import auth_token
from oslo_config import cfg

from tests.fixtures import services
from tests.fixtures.simcloud_services import PASSWORDS, SimcloudProcess

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


def _connect(cloud, user):
    return openstack.connect(
        auth_url=cloud.auth_url,
        username=user,
        password=PASSWORDS[user],
        project_name=user,
        user_domain_id="default",
        project_domain_id="default",
    )


@pytest.fixture(scope="module")
def conn(cloud):
    return _connect(cloud, "demo")


def test_network_server_floating_ip(conn):
    net = conn.network.create_network(name="k8s-net")
    subnet = conn.network.create_subnet(
        network_id=net.id, cidr="10.0.0.0/24", ip_version=4, name="k8s-subnet"
    )
    public = conn.network.find_network("public")
    assert public.is_router_external
    router = conn.network.create_router(
        name="k8s-router", external_gateway_info={"network_id": public.id}
    )
    conn.network.add_interface_to_router(router, subnet_id=subnet.id)
    group = conn.network.create_security_group(name="k8s-sg")
    conn.network.create_security_group_rule(
        security_group_id=group.id,
        direction="ingress",
        protocol="tcp",
        port_range_min=6443,
        port_range_max=6443,
    )
    port = conn.network.create_port(network_id=net.id, security_groups=[group.id])
    assert port.fixed_ips[0]["ip_address"].startswith("10.0.0.")
    image = conn.image.find_image("fedora-coreos-40")
    assert image.os_distro == "fedora-coreos"
    flavor = conn.compute.find_flavor("m1.small")
    conn.compute.create_keypair(name="default")
    server = conn.compute.create_server(
        name="k8s-master-0",
        image_id=image.id,
        flavor_id=flavor.id,
        networks=[{"port": port.id}],
        key_name="default",
    )
    server = conn.compute.wait_for_server(server, wait=30)
    assert server.status == "ACTIVE"
    fip = conn.network.create_ip(floating_network_id=public.id, port_id=port.id)
    server = conn.compute.get_server(server.id)
    addrs = {a["OS-EXT-IPS:type"]: a["addr"] for a in server.addresses["k8s-net"]}
    assert addrs["floating"] == fip.floating_ip_address
    volume = conn.block_storage.create_volume(size=1, name="docker")
    volume = conn.block_storage.wait_for_status(volume, "available", wait=30)
    conn.compute.create_volume_attachment(server, volume_id=volume.id)
    assert conn.block_storage.get_volume(volume.id).status == "in-use"
    conn.compute.delete_volume_attachment(server, volume.id)
    conn.block_storage.wait_for_status(volume, "available", wait=30)
    conn.block_storage.delete_volume(volume)
    conn.compute.delete_server(server)
    conn.compute.wait_for_delete(server, wait=30)
    conn.network.delete_ip(fip)
    conn.network.delete_port(port)
    conn.network.remove_interface_from_router(router, subnet_id=subnet.id)
    conn.network.delete_router(router)
    conn.network.delete_network(net)
    assert conn.network.find_network("k8s-net") is None


def test_load_balancer(conn):
    net = conn.network.create_network(name="lb-net")
    subnet = conn.network.create_subnet(network_id=net.id, cidr="10.1.0.0/24", ip_version=4)
    lb = conn.load_balancer.create_load_balancer(name="api-lb", vip_subnet_id=subnet.id)
    lb = conn.load_balancer.wait_for_load_balancer(lb.id, wait=30)
    assert lb.provisioning_status == "ACTIVE" and lb.vip_address.startswith("10.1.0.")
    listener = conn.load_balancer.create_listener(
        loadbalancer_id=lb.id, protocol="TCP", protocol_port=6443
    )
    pool = conn.load_balancer.create_pool(
        listener_id=listener.id, protocol="TCP", lb_algorithm="ROUND_ROBIN"
    )
    conn.load_balancer.create_member(pool, address="10.1.0.10", protocol_port=6443)
    conn.load_balancer.create_health_monitor(
        pool_id=pool.id, type="TCP", delay=5, timeout=5, max_retries=3
    )
    conn.load_balancer.delete_pool(pool)
    conn.load_balancer.delete_listener(listener)
    conn.load_balancer.delete_load_balancer(lb)


def test_keystonemiddleware_validates_tokens(cloud, conn):
    seen = {}

    def app(environ, start_response):
        seen.update(environ)
        start_response("200 OK", [])
        return [b""]

    # a ConfigOpts of its own: on the global one, auth_token's [keystone_authtoken] options
    # (auth_url required) would outlive this test and fail every later CONF() parse
    middleware = auth_token.AuthProtocol(
        app,
        {
            "oslo_config_config": cfg.ConfigOpts(),
            "auth_type": "password",
            "auth_url": cloud.auth_url,
            "username": "heat",
            "password": "password",
            "project_name": "service",
            "user_domain_id": "default",
            "project_domain_id": "default",
            "www_authenticate_uri": cloud.auth_url,
            "delay_auth_decision": "false",
        },
    )
    token = conn.session.get_token()
    resp = webob.Request.blank("/", headers={"X-Auth-Token": token}).get_response(middleware)
    assert resp.status_int == 200
    assert seen["HTTP_X_PROJECT_NAME"] == "demo"
    assert "member" in seen["HTTP_X_ROLES"].split(",")
    bad = webob.Request.blank("/", headers={"X-Auth-Token": "nope"}).get_response(middleware)
    assert bad.status_int == 401
