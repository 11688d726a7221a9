"""Magnum's OpenStack resource checks (docs/magnum-api.md §9.3 steps 10-11, §4) against a
simulated cloud served in this process: magnum-lite-api (webtest) looks the image,
flavors, keypair and networks up in simcloud's Glance, Nova and Neutron through
openstacksdk, as magnum's service user of [keystone_auth]."""

import openstack
import pytest
import webtest
from keystoneauth1 import loading as ka_loading

from magnum_lite import objects
from magnum_lite.api import app as api_app
from magnum_lite.common import context, keystone
from magnum_lite.conf import CONF
from tests.fixtures import services, simcloud_inprocess
from tests.functional.magnum_lite.conftest import headers

pytestmark = pytest.mark.functional

MEMBER = headers("p1")
SERVICE_USER = {
    "auth_url": None,  # the cloud's
    "username": "magnum",
    "password": simcloud_inprocess.SERVICE_PASSWORD,
    "project_name": "service",
    "user_domain_id": "default",
    "project_domain_id": "default",
}
TEMPLATE = {
    "name": "ct",
    "coe": "kubernetes",
    "image_id": "fedora-coreos-40",
    "external_network_id": "public",
    "flavor_id": "m1.small",
    "master_flavor_id": "m1.medium",
    "master_lb_enabled": True,
}


def point_magnum_at(auth_url):
    """[keystone_auth] as a magnum.conf would set it; validation on."""
    CONF.register_opts(ka_loading.get_auth_plugin_conf_options("password"), group="keystone_auth")
    CONF.set_override("auth_type", "password", group="keystone_auth")
    for name, value in dict(SERVICE_USER, auth_url=auth_url).items():
        CONF.set_override(name, value, group="keystone_auth")
    CONF.set_override("validate_os_resources", True)
    keystone.forget_service_auth()


@pytest.fixture(scope="module")
def cloud():
    with simcloud_inprocess.serve() as cloud:
        sdk = openstack.connect(
            auth_url=cloud.auth_url, **{k: v for k, v in SERVICE_USER.items() if v}
        )
        sdk.compute.create_keypair(name="mykey")
        for name in ("private", "dup", "dup"):
            net = sdk.network.create_network(name=name)
            sdk.network.create_subnet(
                network_id=net.id, name=name + "-subnet", cidr="10.9.0.0/24", ip_version=4
            )
        sdk.compute.create_flavor(name="m1.diskless", ram=512, vcpus=1, disk=0, id="diskless")
        images = (("no-distro", {}), ("twin", {"os_distro": "fedora-coreos"}))
        for name, props in (*images, images[1]):
            sdk.image.create_image(name=name, disk_format="qcow2", container_format="bare", **props)
        sdk.image.create_image(
            name="custom",
            disk_format="qcow2",
            container_format="bare",
            os_distro="ubuntu",
            magnum_driver="k8s_fedora_coreos_v1",
        )
        cloud.sdk = sdk
        yield cloud


def forget_keystone_auth():
    """The password plugin's options (auth_url is required) leave the shared CONF, so
    the next test's CONF() parses without them."""
    keystone.forget_service_auth()
    CONF.reset()
    CONF.unregister_opts(ka_loading.get_auth_plugin_conf_options("password"), "keystone_auth")


@pytest.fixture
def api(magnum_conf, cloud):
    point_magnum_at(cloud.auth_url)
    yield webtest.TestApp(api_app.setup_app())
    forget_keystone_auth()


def _error(r, status):
    assert r.status_int == status, r.body
    err = r.json["errors"][0]
    assert err["status"] == status and err["code"] == "client"
    return err["detail"]


def create_template(api, status=201, **values):
    body = dict(TEMPLATE, **values)
    return api.post_json("/v1/clustertemplates", body, headers=MEMBER, expect_errors=status != 201)


def stored_templates():
    return [t.name for t in objects.ClusterTemplate.list(context.get_admin_context())]


SUPPORTED = "Loaded drivers support: (vm, fedora-coreos, kubernetes)."
TEMPLATE_CASES = [
    # the driver check comes first and sees no os_distro for an image Glance does not have
    (
        {"image_id": "nope"},
        400,
        "Cluster type (vm, None, kubernetes) is not supported by any loaded cluster driver. "
        + SUPPORTED,
    ),
    # with the driver named, the image check answers
    ({"image_id": "nope", "driver": "k8s_fedora_coreos_v1"}, 400, "Image nope could not be found."),
    (
        {"image_id": "0b5a4c1e-8d1e-4a36-9a37-4d9b4e3c2a11", "driver": "k8s_fedora_coreos_v1"},
        400,
        "Image 0b5a4c1e-8d1e-4a36-9a37-4d9b4e3c2a11 could not be found.",
    ),
    (
        {"image_id": "no-distro", "driver": "k8s_fedora_coreos_v1"},
        400,
        "Image no-distro doesn't contain os_distro field.",
    ),
    (
        {"image_id": "twin", "driver": "k8s_fedora_coreos_v1"},
        409,
        "Multiple 'images' exist with same name 'twin'. Please use the resource id instead.",
    ),
    ({"flavor_id": "m9.huge"}, 400, "Unable to find flavor m9.huge."),
    ({"master_flavor_id": "m9.huge"}, 400, "Unable to find flavor m9.huge."),
    # a network that is not router:external is no external network
    ({"external_network_id": "private"}, 400, "Unable to find external network private."),
    ({"fixed_network": "nope"}, 400, "Unable to find fixed network nope."),
    (
        {"fixed_network": "dup"},
        409,
        "Multiple networks exist with same name 'dup'. Please use the network ID instead.",
    ),
    ({"fixed_subnet": "nope"}, 400, "Unable to find fixed subnet nope."),
    (
        {"fixed_subnet": "dup-subnet"},
        409,
        "Multiple subnets exist with same name 'dup-subnet'. Please use the subnet ID instead.",
    ),
]


@pytest.mark.parametrize("values,status,detail", TEMPLATE_CASES)
def test_template_create_checks_the_cloud(api, values, status, detail):
    r = create_template(api, status, **values)
    assert _error(r, status) == detail
    assert stored_templates() == []


def test_template_create_resolves_names_and_ids(api, cloud):
    image = cloud.sdk.image.find_image("fedora-coreos-40")
    private = cloud.sdk.network.find_network("private")
    public = cloud.sdk.network.find_network("public")
    r = create_template(
        api,
        image_id=image.id,
        flavor_id="2",  # m1.small's id
        external_network_id=public.id,
        fixed_network=private.id,
        fixed_subnet="private-subnet",
        keypair_id="not-checked-on-templates",
    )
    assert r.json["cluster_distro"] == "fedora-coreos" and r.json["image_id"] == image.id
    assert r.json["driver"] == "k8s_fedora_coreos_v1"


def test_image_names_its_driver(api):
    """No driver runs (vm, ubuntu, kubernetes): the image's magnum_driver property picks one."""
    r = create_template(api, image_id="custom")
    assert (r.json["driver"], r.json["cluster_distro"]) == ("k8s_fedora_coreos_v1", "ubuntu")


def test_template_update_checks_the_cloud(api):
    create_template(api)
    patch = [{"op": "replace", "path": "/flavor_id", "value": "m9.huge"}]
    r = api.patch_json("/v1/clustertemplates/ct", patch, headers=MEMBER, expect_errors=True)
    assert _error(r, 400) == "Unable to find flavor m9.huge."
    patch = [{"op": "replace", "path": "/flavor_id", "value": "m1.large"}]
    assert api.patch_json("/v1/clustertemplates/ct", patch, headers=MEMBER).json["flavor_id"] == (
        "m1.large"
    )


CLUSTER_CASES = [
    ({"keypair": "nokey"}, 404, "Unable to find keypair nokey."),
    ({"flavor_id": "m9.huge"}, 400, "Unable to find flavor m9.huge."),
    # no boot volume: a node boots from its flavor's disk, which m1.diskless lacks
    (
        {"master_flavor_id": "m1.diskless"},
        400,
        "Flavor m1.diskless has no root disk; specify the boot_volume_size label or set "
        "[cinder] default_boot_volume_size.",
    ),
    ({"fixed_network": "dup"}, 409, None),
]


def create_cluster(api, status=202, **values):
    body = dict({"cluster_template_id": "ct", "name": "c1", "node_count": 1}, **values)
    return api.post_json("/v1/clusters", body, headers=MEMBER, expect_errors=status != 202)


@pytest.mark.parametrize("values,status,detail", CLUSTER_CASES)
def test_cluster_create_checks_the_cloud(api, values, status, detail):
    create_template(api)
    detail = detail or (
        "Multiple networks exist with same name 'dup'. Please use the network ID instead."
    )
    assert _error(create_cluster(api, status, **values), status) == detail


def test_cluster_create_accepts_the_clouds_resources(api):
    create_template(api)
    assert create_cluster(api, keypair="mykey").status_int == 202
    # a boot volume makes a flavor without a disk fine
    r = create_cluster(
        api, name="c2", master_flavor_id="m1.diskless", labels={"boot_volume_size": "10"}
    )
    assert r.status_int == 202


def test_template_keypair_is_the_clusters_default(api):
    create_template(api, keypair_id="nokey")  # not checked on the template
    r = create_cluster(api, 404)
    assert _error(r, 404) == "Unable to find keypair nokey."


def test_unreachable_cloud_is_a_503(api):
    point_magnum_at("http://127.0.0.1:%d/identity" % services.free_port())
    r = create_template(api, 503, driver="k8s_fedora_coreos_v1")
    assert r.status_int == 503
    assert r.json["errors"][0]["detail"].startswith("The cloud's OpenStack API is unavailable: ")
