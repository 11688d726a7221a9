"""magnum-lite end to end through the real CLI (``openstack --os-auth-type none
--os-endpoint http://.../v1 coe ...``, python-magnumclient) against real processes:
magnum-lite-api and -conductor, heat-lite-api, -engine and two workers, on PostgreSQL and
RabbitMQ. Clusters converge on the simulated cloud; a minion of a cluster named
``failme...`` fails on purpose (simcloud's [simulation] fail_objects)."""

import base64
import time

import pytest
import requests
import yaml
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import NameOID
from heatclient import client as heat_client
from heatclient import exc as heat_exc

from tests.fixtures import cli as cli_mod
from tests.fixtures import magnum_services, services
from tests.integration import helpers

pytestmark = pytest.mark.integration

FAIL_GLOB = "nova.server:failme*-node-*"


@pytest.fixture(scope="module")
def stack_env(tmp_path_factory):
    with services.isolated_backends() as (heat_db, transport_url):
        heat = magnum_services.heat_for_magnum(
            tmp_path_factory.mktemp("heat"),
            heat_db,
            transport_url,
            simulation={"fail_objects": FAIL_GLOB},
        )
        heat.start()
        try:
            with magnum_services.magnum_database() as magnum_db:
                magnum = magnum_services.MagnumProcesses(
                    tmp_path_factory.mktemp("magnum"),
                    magnum_db,
                    transport_url,
                    heat,
                    sync_interval=2,
                )
                magnum.start()
                try:
                    yield heat, magnum
                finally:
                    magnum.stop()
        finally:
            heat.stop()


@pytest.fixture(scope="module")
def coe(stack_env, tmp_path_factory):
    return cli_mod.OpenStackCLI(stack_env[1].endpoint, cwd=tmp_path_factory.mktemp("cli"))


@pytest.fixture(scope="module")
def hc(stack_env):
    return heat_client.Client("1", endpoint=stack_env[0].endpoint, token="notused")


def assert_stack_gone(hc, stack_id, timeout=15):
    """Heat still shows a deleted stack by id, as DELETE_COMPLETE; lists no longer."""
    try:
        assert hc.stacks.get(stack_id).stack_status == "DELETE_COMPLETE"
    except heat_exc.HTTPNotFound:
        pass
    deadline = time.monotonic() + timeout
    while stack_id in [s.id for s in hc.stacks.list()]:
        assert time.monotonic() < deadline, "stack %s still listed" % stack_id
        time.sleep(0.5)


def outputs(hc, stack_id):
    stack = hc.stacks.get(stack_id)
    return {o["output_key"]: o["output_value"] for o in stack.outputs}


@pytest.fixture(scope="module")
def template(coe):
    coe(
        "coe",
        "cluster",
        "template",
        "create",
        "--coe",
        "kubernetes",
        "--image",
        "fedora-coreos-40",
        "--external-network",
        "public",
        "--flavor",
        "m1.small",
        "--master-flavor",
        "m1.medium",
        "--labels",
        "a=b",
        "--master-lb-enabled",
        "k8s-ct",
    )
    return "k8s-ct"


def x509_cert(pem):
    return x509.load_pem_x509_certificate(pem.encode() if isinstance(pem, str) else pem)


def make_csr(cn="node-1"):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, cn)])
    csr = x509.CertificateSigningRequestBuilder().subject_name(name).sign(key, hashes.SHA256())
    return csr.public_bytes(serialization.Encoding.PEM).decode()


def ca_pem(coe, cluster):
    return coe("coe", "ca", "show", cluster)


@pytest.fixture(scope="module")
def cluster(coe, hc, template):
    """c1: 1 master, 2 nodes, keypair default (heat-lite's cloud user's), CREATE_COMPLETE."""
    coe(
        "coe",
        "cluster",
        "create",
        "--cluster-template",
        template,
        "--master-count",
        "1",
        "--node-count",
        "2",
        "--keypair",
        "default",
        "c1",
    )
    found = helpers.wait_cluster_status(coe, "c1", ["CREATE_COMPLETE", "CREATE_FAILED"])
    assert found["status"] == "CREATE_COMPLETE", found["status_reason"]
    return found


def test_template_crud(coe):
    coe(
        "coe",
        "cluster",
        "template",
        "create",
        "--coe",
        "kubernetes",
        "--image",
        "fedora-coreos-40",
        "--external-network",
        "public",
        "--labels",
        "x=1",
        "ct-crud",
    )
    listed = coe.json("coe", "cluster", "template", "list")
    assert "ct-crud" in [t["name"] for t in listed]
    shown = coe.json("coe", "cluster", "template", "show", "ct-crud")
    assert shown["cluster_distro"] == "fedora-coreos" and shown["labels"] == {"x": "1"}
    assert shown["network_driver"] == "flannel" and shown["driver"] == "k8s_fedora_coreos_v1"
    coe("coe", "cluster", "template", "update", "ct-crud", "--name", "ct-crud2", "--public")
    coe("coe", "cluster", "template", "update", "ct-crud2", "--label", "y=2", "--no-label", "x")
    shown = coe.json("coe", "cluster", "template", "show", "ct-crud2")
    assert shown["labels"] == {"y": "2"} and shown["public"] is True
    coe("coe", "cluster", "template", "delete", "ct-crud2")
    assert "could not be found" in coe.error("coe", "cluster", "template", "show", "ct-crud2")


TEMPLATE_ARGS = ("coe", "cluster", "template", "create", "--coe", "kubernetes",
                 "--external-network", "public")  # fmt: skip


def test_template_create_checks_the_clouds_image_and_flavors(coe):
    """Magnum's checks against the cloud's Glance and Nova (validate_os_resources on)."""
    # the driver check comes first and finds no os_distro for an unknown image
    err = coe.error(*TEMPLATE_ARGS, "--image", "nope", "ct-bad")
    assert "Cluster type (vm, None, kubernetes) is not supported" in err
    assert "(HTTP 400)" in err
    err = coe.error(*TEMPLATE_ARGS, "--image", "nope", "--driver", "k8s_fedora_coreos_v1", "ct-bad")
    assert "Image nope could not be found (HTTP 400)" in err
    err = coe.error(*TEMPLATE_ARGS, "--image", "fedora-coreos-40", "--flavor", "huge", "ct-bad")
    assert "Unable to find flavor huge (HTTP 400)" in err
    assert "could not be found" in coe.error("coe", "cluster", "template", "show", "ct-bad")


def test_cluster_create_checks_the_keypair(coe, template):
    err = coe.error(
        "coe", "cluster", "create", "--cluster-template", template, "--keypair", "nokey", "c-bad"
    )
    assert "Unable to find keypair nokey (HTTP 404)" in err
    err = coe.error(
        "coe", "cluster", "create", "--cluster-template", template, "--flavor", "huge", "c-bad"
    )
    assert "Unable to find flavor huge (HTTP 400)" in err
    assert "could not be found" in coe.error("coe", "cluster", "show", "c-bad")


def test_cluster_matches_its_stack(cluster, hc):
    out = outputs(hc, cluster["cluster_id"])
    assert cluster["api_address"] == "https://%s:6443" % out["api_address"]
    assert cluster["master_addresses"] == out["kube_masters"]
    assert cluster["node_addresses"] == out["kube_minions"]
    assert len(cluster["node_addresses"]) == 2 and cluster["node_count"] == 2
    assert cluster["master_count"] == 1 and cluster["coe_version"]
    assert cluster["keypair"] == "default"
    assert hc.stacks.get(cluster["cluster_id"]).parameters["ssh_key_name"] == "default"


def test_template_in_use_cannot_be_deleted(coe, cluster, template):
    proc = coe.run("coe", "cluster", "template", "delete", template)
    assert "is referenced by one or multiple clusters (HTTP 400)" in proc.stdout + proc.stderr
    assert coe.json("coe", "cluster", "template", "show", template)["name"] == template
    err = coe.error("coe", "cluster", "template", "update", template, "--flavor", "m1.large")
    assert "is referenced by one or multiple clusters" in err


def test_nodegroup_create_delete(coe, cluster):
    coe("coe", "nodegroup", "create", "c1", "ng1", "--node-count", "1")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        ng = coe.json("coe", "nodegroup", "show", "c1", "ng1")
        if ng["status"].endswith(("COMPLETE", "FAILED")):
            break
        time.sleep(0.5)
    assert ng["status"] == "CREATE_COMPLETE", ng["status_reason"]
    assert ng["stack_id"] and ng["stack_id"] != cluster["cluster_id"]
    names = [n["name"] for n in coe.json("coe", "nodegroup", "list", "c1")]
    assert names == ["default-master", "default-worker", "ng1"]
    found = helpers.wait_cluster_status(coe, "c1", ["UPDATE_COMPLETE", "UPDATE_FAILED"])
    assert found["status"] == "UPDATE_COMPLETE"
    coe("coe", "nodegroup", "delete", "c1", "ng1")
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if coe.run("coe", "nodegroup", "show", "c1", "ng1").returncode != 0:
            break
        time.sleep(0.5)
    names = [n["name"] for n in coe.json("coe", "nodegroup", "list", "c1")]
    assert names == ["default-master", "default-worker"]
    err = coe.error("coe", "nodegroup", "delete", "c1", "default-worker")
    assert "Deleting a default nodegroup is not supported" in err


def test_cluster_config_signed_by_cluster_ca(coe, cluster, tmp_path):
    coe("coe", "cluster", "config", "c1", "--dir", str(tmp_path))
    kubeconfig = yaml.safe_load((tmp_path / "config").read_text())
    user = kubeconfig["users"][0]["user"]
    client = x509_cert(base64.b64decode(user["client-certificate-data"]))
    ca = x509_cert(ca_pem(coe, "c1"))
    client.verify_directly_issued_by(ca)
    server = kubeconfig["clusters"][0]["cluster"]["server"]
    assert server == cluster["api_address"]


def test_ca_show_sign_rotate(coe, cluster, tmp_path, stack_env):
    old_ca = x509_cert(ca_pem(coe, "c1"))
    url = "%s/certificates/%s?ca_cert_type=etcd" % (stack_env[1].endpoint, cluster["uuid"])
    etcd_ca = x509_cert(requests.get(url, timeout=10).json()["pem"])
    assert etcd_ca.subject != old_ca.subject
    (tmp_path / "node.csr").write_text(make_csr())
    signed = coe("coe", "ca", "sign", "c1", str(tmp_path / "node.csr"))
    x509_cert(signed).verify_directly_issued_by(old_ca)
    coe("coe", "ca", "rotate", "c1")
    found = helpers.wait_cluster_status(coe, "c1", ["UPDATE_COMPLETE", "UPDATE_FAILED"])
    assert found["status"] == "UPDATE_COMPLETE", found["status_reason"]
    new_ca = x509_cert(ca_pem(coe, "c1"))
    assert new_ca.fingerprint(hashes.SHA256()) != old_ca.fingerprint(hashes.SHA256())


def test_bad_input(coe, cluster, template):
    err = coe.error("coe", "cluster", "create", "--cluster-template", "nope", "bad1")
    assert "ClusterTemplate nope could not be found" in err
    err = coe.error(
        "coe", "cluster", "create", "--cluster-template", template, "--master-count", "2", "bad2"
    )
    assert "master nodegroup size of 2 is invalid" in err
    err = coe.error(
        "coe",
        "cluster",
        "template",
        "create",
        "--coe",
        "kubernetes",
        "--image",
        "fedora-coreos-40",
        "--external-network",
        "public",
        "--server-type",
        "bm",
        "ct-bm",
    )
    assert "Cluster type (bm, fedora-coreos, kubernetes) is not supported" in err
    err = coe.error("coe", "cluster", "update", "c1", "--name", "other")
    assert "cannot change cluster property(ies) name" in err
    err = coe.error("--os-container-infra-api-version", "1.99", "coe", "cluster", "list")
    assert "406" in err
    err = coe.error("coe", "cluster", "show", "missing")
    assert "Cluster missing could not be found" in err
    coe(
        "coe",
        "quotas",
        "create",
        "--project-id",
        "admin",
        "--resource",
        "Cluster",
        "--hard-limit",
        "1",
    )
    try:
        err = coe.error("coe", "cluster", "create", "--cluster-template", template, "bad3")
        assert "You have reached the maximum clusters per project, 1" in err
    finally:
        coe("coe", "quotas", "delete", "--project-id", "admin", "--resource", "Cluster")
    names = [c["name"] for c in coe.json("coe", "cluster", "list")]
    assert names == ["c1"]


def test_resize_up_and_down(coe, hc, cluster):
    for count in (4, 1):
        coe("coe", "cluster", "resize", "c1", str(count))
        found = helpers.wait_cluster_status(
            coe,
            "c1",
            ["UPDATE_COMPLETE", "UPDATE_FAILED"],
            until=lambda c, n=count: len(c["node_addresses"]) == n,
        )
        assert found["status"] == "UPDATE_COMPLETE", found["status_reason"]
        assert found["node_count"] == count
        assert found["node_addresses"] == outputs(hc, cluster["cluster_id"])["kube_minions"]
        assert len(found["node_addresses"]) == count


def test_upgrade_not_supported(coe, cluster, template):
    err = coe.error("coe", "cluster", "upgrade", "c1", template)
    assert "Upgrading a cluster that uses the Magnum Heat driver is not supported" in err


def test_delete_removes_cluster_and_stacks(coe, hc, cluster):
    coe("coe", "cluster", "delete", "c1")
    helpers.wait_cluster_gone(coe, "c1")
    assert_stack_gone(hc, cluster["cluster_id"])


def test_failing_minion_ends_create_failed_and_deletes_cleanly(
    coe, hc, template, expect_log_errors
):
    # Magnum's poller logs the failed nodegroup at ERROR, as Magnum 22 does
    expect_log_errors("Nodegroup error, stack status: CREATE_FAILED")
    coe("coe", "cluster", "create", "--cluster-template", template, "--node-count", "1", "failme1")
    found = helpers.wait_cluster_status(coe, "failme1", ["CREATE_COMPLETE", "CREATE_FAILED"])
    assert found["status"] == "CREATE_FAILED"
    stack = hc.stacks.get(found["cluster_id"])
    assert stack.stack_status == "CREATE_FAILED"
    assert stack.stack_status_reason in found["faults"].values()
    # Heat's reason in status_reason: each failed default nodegroup (both on this stack)
    reason = stack.stack_status_reason
    assert "Resource CREATE failed" in reason
    assert found["status_reason"] == "default-master failed: %s, default-worker failed: %s" % (
        reason,
        reason,
    )
    coe("coe", "cluster", "delete", "failme1")
    helpers.wait_cluster_gone(coe, "failme1")
    assert_stack_gone(hc, found["cluster_id"])
