"""The FCOS template definition's tables: nodegroup stacks, outputs, addresses."""

import types

import pytest

from magnum_lite.drivers.heat import template_def
from magnum_lite.drivers.k8s_fedora_coreos_v1 import template_def as fcos_def
from tests.fixtures.magnum_driver_fakes import fake_cluster, fake_template

pytestmark = pytest.mark.unit
CTX = types.SimpleNamespace(project_id="p1", user_id="u1", roles=["member"], user_name="demo")


def test_nodegroup_stack_params_come_from_the_nodegroup():
    tdef = fcos_def.template_definition()
    cluster = fake_cluster(fake_template(labels={"kube_tag": "v1.26.0"}))
    ng = cluster.add_nodegroup(
        "gpu",
        node_count=3,
        flavor_id="m1.large",
        labels={"kube_tag": "v1.27.3"},
        docker_volume_size=7,
    )
    params = tdef.get_params(CTX, cluster.cluster_template, cluster, nodegroups=[ng])
    assert params["is_cluster_stack"] is False
    assert (params["number_of_minions"], params["minion_flavor"]) == (3, "m1.large")
    assert (params["worker_role"], params["worker_nodegroup_name"]) == ("worker", "gpu")
    assert "number_of_masters" not in params and "master_role" not in params
    assert params["minion_kube_tag"] == "v1.27.3" and params["docker_volume_size"] == 7
    env = tdef.get_env_files(cluster.cluster_template, cluster, ng)
    assert "environments/with_volume.yaml" in env


def test_cluster_stack_params_and_master_docker_volume_applied_last():
    tdef = fcos_def.template_definition()
    cluster = fake_cluster(fake_template(), node_count=2)
    cluster.default_ng_worker.docker_volume_size = 5
    cluster.default_ng_master.docker_volume_size = 9
    params = tdef.get_params(CTX, cluster.cluster_template, cluster)
    assert params["is_cluster_stack"] is True
    assert (params["master_role"], params["worker_role"]) == ("master", "worker")
    assert params["docker_volume_size"] == 9
    assert params["max_node_count"] == 3 and params["pods_network_cidr"] == "10.100.0.0/16"


def test_outputs_go_to_the_nodegroup_of_their_role():
    tdef = fcos_def.template_definition()
    template = fake_template(tls_disabled=True)
    cluster = fake_cluster(template)
    stack = types.SimpleNamespace(
        outputs=[
            {"output_key": "api_address", "output_value": "10.0.0.9"},
            {"output_key": "kube_masters", "output_value": ["172.24.4.5"]},
            {"output_key": "kube_minions", "output_value": ["172.24.4.6"]},
        ],
        parameters={"number_of_masters": "1", "number_of_minions": "1"},
    )
    master, worker = cluster.default_ng_master, cluster.default_ng_worker
    tdef.update_outputs(stack, template, cluster, worker)
    assert worker.node_addresses == ["172.24.4.6"] and master.node_addresses == []
    assert cluster.api_address is None  # only the master nodegroup carries it
    tdef.update_outputs(stack, template, cluster, master)
    assert master.node_addresses == ["172.24.4.5"]
    assert cluster.api_address == "http://10.0.0.9:8080"
    assert template_def.format_api_address(fake_template(), None) is None
