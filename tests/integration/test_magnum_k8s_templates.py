"""A Magnum-k8s-style template tree converging on the simulated cloud, over real processes
(api, engine, two workers; PostgreSQL, RabbitMQ), driven as Magnum's Heat driver drives
Heat: python-heatclient's template_utils turns the tree and the selected environment
files into ``files`` and ``environment_files``; scaling is a PATCH update of
``number_of_minions``; delete leaves no simulated object behind.
"""

import ipaddress
import json
import pathlib
import re
import subprocess
import time

import pytest
from heatclient import exc as heat_exc
from heatclient.common import template_utils

from tests.fixtures import services
from tests.integration import helpers

pytestmark = pytest.mark.integration

# the k8s_fedora_coreos_v1 driver's own template tree, read as files (heat-lite never
# imports magnum_lite)
TREE = (
    pathlib.Path(__file__).parents[2]
    / "magnum_lite"
    / "drivers"
    / "k8s_fedora_coreos_v1"
    / "templates"
)
# get_env_files' choice for: private network, etcd volume, docker volume, Octavia master
# LB, floating IPs (docs/magnum-templates.md §6)
ENV_FILES = [
    "with_private_network",
    "with_etcd_volume",
    "with_volume",
    "with_master_lb_octavia",
    "enable_floating_ip",
    "enable_lb_floating_ip",
]
PARAMETERS = {
    "is_cluster_stack": True,
    "external_network": "public",
    "fixed_network_name": "k8s-private",
    "master_image": "fedora-coreos-40",
    "minion_image": "fedora-coreos-40",
    "master_flavor": "m1.medium",
    "minion_flavor": "m1.small",
    "boot_volume_size": 0,
    "docker_volume_size": 10,
    "etcd_volume_size": 5,
    "nodes_affinity_policy": "soft-anti-affinity",
    "pods_network_cidr": "10.100.0.0/16",
    "number_of_masters": 1,
    "number_of_minions": 1,
    # the parameters without a default, as Magnum's driver sends them in noauth mode
    "boot_volume_type": "",
    "etcd_volume_type": "",
    "docker_volume_type": "",
    "discovery_url": "",
    "region_name": "RegionOne",
    "username": "demo",
    "verify_ca": True,
    "cluster_uuid": "5d12f6fd-a196-4bf0-ae4c-1f639a523a52",
    "magnum_url": "http://127.0.0.1:9511/v1",
    "trustee_domain_id": "",
    "trustee_user_id": "",
    "trustee_username": "",
    "trustee_password": "",
    "trust_id": "",
    "auth_url": "",
    "cloud_provider_enabled": False,
    "openstack_ca": "",
    "kube_service_account_key": "",
    "kube_service_account_private_key": "",
    "project_id": "admin",
    "max_node_count": 2,
}
PRIVATE = ipaddress.ip_network("10.0.0.0/24")
PUBLIC = ipaddress.ip_network("172.24.4.0/24")


@pytest.fixture(scope="module")
def heat(backends, tmp_path_factory):
    """heat-lite processes whose simulated servers, volumes and LBs take a while to build."""
    db_url, transport_url = backends
    procs = services.HeatProcesses(
        tmp_path_factory.mktemp("heat"),
        db_url,
        transport_url,
        workers=2,
        simulation={"build_time": 0.1},
    )
    procs.start()
    try:
        yield procs
    finally:
        procs.stop()


@pytest.fixture(scope="module")
def sim_objects(heat):
    """kind -> count of the simulated objects heat-lite made (not the seeded ones)."""
    return heat.cloud.objects


def _fields(**parameters):
    files, template = template_utils.get_template_contents(str(TREE / "kubecluster.yaml"))
    env_files, env = template_utils.process_multiple_environments_and_files(
        env_paths=[str(TREE / "environments" / (name + ".yaml")) for name in ENV_FILES]
    )
    return {
        "template": template,
        "files": dict(files, **env_files),
        "environment": env,
        "parameters": dict(PARAMETERS, **parameters),
    }


def _outputs(stack):
    return {o["output_key"]: o["output_value"] for o in stack.outputs}


def _in(network, addresses):
    return all(ipaddress.ip_address(a) in network for a in addresses)


def _deployed_config(hc, stack_id, deployment):
    """The derived config (text and inputs) Heat hands the agent for ``deployment``."""
    deploy = hc.resources.get(stack_id, deployment)
    sd = hc.software_deployments.get(deploy.physical_resource_id)
    return hc.software_configs.get(sd.config_id)


def _assert_bash_script(text):
    """What the agent runs: a bash script that parses, every __MARKER__ filled in."""
    assert text.startswith("#!/bin/bash\n")
    markers = set(re.findall(r"__[A-Z0-9_]+__", text))
    # Calico's CNI installer fills in its own two on the node
    assert not markers - {"__KUBERNETES_NODE_NAME__", "__KUBECONFIG_FILEPATH__"}
    subprocess.run(["bash", "-n"], input=text, text=True, check=True)


def _heat_params(text):
    """The KEY="value" lines the config writes to /etc/sysconfig/heat-params."""
    block = text.split("<<'HEAT_PARAMS'\n", 1)[1].split("\nHEAT_PARAMS\n", 1)[0]
    return dict(re.findall(r'^([A-Z0-9_]+)="(.*)"$', block, re.M))


def test_the_tree_is_magnums_size():
    """Magnum 22's create carries 56 files for this selection: 42 fragments (shell, and
    user_data.json), 5 templates of the tree, 6 environments and the 3 switch templates
    they map to (its driver sends ``environment_files``, their contents in ``files``)."""
    files, _template = template_utils.get_template_contents(str(TREE / "kubecluster.yaml"))
    env_files, _env = template_utils.process_multiple_environments_and_files(
        env_paths=[str(TREE / "environments" / (name + ".yaml")) for name in ENV_FILES],
        env_list_tracker=[],
    )
    files = dict(files, **env_files)
    kinds = {}
    for url in files:
        kind = "fragment" if url.endswith((".sh", ".json")) else "template"
        if "/environments/" in url:
            kind = "environment"
        kinds[kind] = kinds.get(kind, 0) + 1
    assert kinds == {"fragment": 42, "template": 8, "environment": 6}
    assert len(files) == 56


def test_cluster_converges_scales_and_deletes(hc, sim_objects):
    created = hc.stacks.create(stack_name="k8s-cluster", timeout_mins=60, **_fields())
    stack_id = created["stack"]["id"]
    stack = helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    out = _outputs(stack)
    assert _in(PUBLIC, [out["api_address"]])
    assert len(out["kube_masters_private"]) == 1 and _in(PRIVATE, out["kube_masters_private"])
    assert len(out["kube_masters"]) == 1 and _in(PUBLIC, out["kube_masters"])
    assert len(out["kube_minions_private"]) == 1 and _in(PRIVATE, out["kube_minions_private"])
    assert out["api_address"] not in out["kube_masters"]  # the LB's floating IP
    objects = sim_objects()
    assert objects["nova.server"] == 2
    assert objects["cinder.volume"] == 3  # etcd + docker (master), docker (minion)
    # the API's and etcd's load balancers, master 0 a member of each
    assert objects["octavia.loadbalancer"] == 2 and objects["octavia.member"] == 2
    assert objects["neutron.floatingip"] == 3  # LB, master, minion

    # a member's reference is its server (the OS::stack_id output): kube_cluster_deploy
    # was given ``get_attr: [kube_masters, resource.0]`` as its server
    group = hc.resources.get(stack_id, "kube_masters")
    master0 = hc.resources.get(group.physical_resource_id, "0")
    server = hc.resources.get(master0.physical_resource_id, "kube-master")
    deploy = hc.resources.get(stack_id, "kube_cluster_deploy")
    assert hc.software_deployments.get(deploy.physical_resource_id).server_id == (
        server.physical_resource_id
    )
    assert server.attributes["networks"]["k8s-private"] == out["kube_masters_private"]
    assert server.attributes["name"] == "k8s-cluster-master-0"

    # what the agent would run: the master's config writes its values (the member's
    # parameters and its own addresses) for the fragments joined after them
    master_config = _deployed_config(hc, master0.physical_resource_id, "master_config_deployment")
    _assert_bash_script(master_config.config)
    params = _heat_params(master_config.config)
    assert len(params) == 135
    assert params["INSTANCE_NAME"] == "k8s-cluster-master-0"
    assert [params["KUBE_NODE_IP"]] == out["kube_masters_private"]
    assert [params["KUBE_NODE_PUBLIC_IP"]] == out["kube_masters"]
    assert params["KUBE_API_PUBLIC_ADDRESS"] == out["api_address"]
    assert params["CLUSTER_UUID"] == PARAMETERS["cluster_uuid"]
    assert (
        params["ETCD_VOLUME"]
        == hc.resources.get(master0.physical_resource_id, "etcd_volume").physical_resource_id
    )
    assert "# ==== enable-services-master.sh ====" in master_config.config
    # the cluster-wide config: fragments, one of the two Calico ones, the masters' IPs
    cluster_config = _deployed_config(hc, stack_id, "kube_cluster_deploy").config
    _assert_bash_script(cluster_config)
    assert "calico-service-v3-21-x.sh" in cluster_config and "v3-26" not in cluster_config
    assert "# ---- enable-ingress-traefik.sh" in cluster_config
    assert out["kube_masters_private"][0] in cluster_config
    # the worker's config and the Ignition user data that starts the agent
    minion0 = hc.resources.get(hc.resources.get(stack_id, "kube_minions").physical_resource_id, "0")
    node_config = _deployed_config(hc, minion0.physical_resource_id, "node_config_deployment")
    _assert_bash_script(node_config.config)
    node_params = _heat_params(node_config.config)
    assert len(node_params) == 63
    # the API's VIP, not master 0's address
    assert ipaddress.ip_address(node_params["KUBE_MASTER_IP"]) in PRIVATE
    assert node_params["KUBE_MASTER_IP"] not in out["kube_masters_private"]
    agent = hc.resources.get(minion0.physical_resource_id, "agent_config")
    ignition = json.loads(hc.software_configs.get(agent.physical_resource_id).config)
    assert ignition["ignition"]["version"] == "3.0.0"
    files = {f["path"]: f["contents"]["source"] for f in ignition["storage"]["files"]}
    assert files["/etc/hostname"] == "data:,k8s-cluster-node-0"
    assert "/etc/containers/.registries.conf" in files  # no insecure registry

    # scale as Magnum does: PATCH with the one parameter
    hc.stacks.update(stack_id, existing=True, parameters={"number_of_minions": 3})
    stack = helpers.wait_for_status(hc, stack_id, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    scaled = _outputs(stack)
    assert len(scaled["kube_minions_private"]) == 3 and _in(PRIVATE, scaled["kube_minions_private"])
    assert len(set(scaled["kube_minions"])) == 3 and _in(PUBLIC, scaled["kube_minions"])
    assert scaled["kube_minions_private"][0] == out["kube_minions_private"][0]
    assert scaled["api_address"] == out["api_address"]
    assert sim_objects()["nova.server"] == 4

    # resize as Magnum does: remove one node by its server id (the member's reference)
    minions = hc.resources.get(stack_id, "kube_minions").physical_resource_id
    member1 = hc.resources.get(minions, "1").physical_resource_id
    server1 = hc.resources.get(member1, "kube-minion").physical_resource_id
    hc.stacks.update(
        stack_id, existing=True, parameters={"number_of_minions": 2, "minions_to_remove": server1}
    )
    stack = helpers.wait_for_status(hc, stack_id, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    resized = _outputs(stack)["kube_minions_private"]
    kept = [ip for i, ip in enumerate(scaled["kube_minions_private"]) if i != 1]
    assert resized == kept
    assert sim_objects()["nova.server"] == 3

    # a CA rotation as Magnum sends it: a new service-account pair reaches every
    # node's upgrade_kubernetes (actions UPDATE) as its inputs
    hc.stacks.update(
        stack_id,
        existing=True,
        parameters={
            "kube_service_account_key": "new-public",
            "kube_service_account_private_key": "new-private",
        },
    )
    stack = helpers.wait_for_status(hc, stack_id, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    upgrade = _deployed_config(hc, master0.physical_resource_id, "upgrade_kubernetes_deployment")
    _assert_bash_script(upgrade.config)
    inputs = {i["name"]: i.get("value") for i in upgrade.inputs}
    assert inputs["kube_service_account_key_input"] == "new-public"
    assert inputs["kube_service_account_private_key_input"] == "new-private"
    assert inputs["deploy_action"] == "UPDATE"

    hc.stacks.delete(stack_id)
    helpers.wait_for(hc, stack_id, "DELETE_COMPLETE")
    assert sim_objects() == {}
    # the root stack (whose nested stacks share its credentials) leaves the list
    deadline = time.monotonic() + 10
    while stack_id in [s.id for s in hc.stacks.list()]:
        assert time.monotonic() < deadline, "deleted stack still listed"
        time.sleep(0.05)


def test_unknown_flavor_is_rejected_with_heat_400(hc, sim_objects):
    with pytest.raises(heat_exc.HTTPBadRequest) as err:
        hc.stacks.create(stack_name="k8s-bad", **_fields(master_flavor="m1.huge"))
    assert (
        "Parameter 'master_flavor' is invalid: Error validating value 'm1.huge': "
        "The Flavor ID (m1.huge) could not be found." in str(err.value)
    )
    assert sim_objects() == {}
