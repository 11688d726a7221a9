"""HeatDriver and HeatPoller against a FakeHeatClient: what is sent to Heat, how
Heat's answers and errors become cluster and nodegroup state."""

import re
import types

import pytest
import yaml
from heatclient import exc as heat_exc

from magnum_lite.common import exception
from magnum_lite.drivers.heat import driver as heat_driver
from magnum_lite.drivers.k8s_fedora_coreos_v1 import driver as fcos
from magnum_lite.drivers.k8s_fedora_coreos_v1 import template_def as fcos_def
from tests.fixtures.magnum_driver_fakes import fake_cluster, fake_template

pytestmark = pytest.mark.unit
CTX = types.SimpleNamespace(project_id="p1", user_id="u1", roles=["member"], user_name="demo")


class FakeStacks:
    def __init__(self):
        self.calls = []
        self.stacks = {}  # id -> SimpleNamespace(stack_status, ..., outputs, parameters)
        self.fail = {}  # method -> exception

    def _call(self, method, *args, **kwargs):
        self.calls.append((method, args, kwargs))
        if method in self.fail:
            raise self.fail[method]

    def create(self, **fields):
        self._call("create", **fields)
        return {"stack": {"id": "stack-%d" % len(self.calls)}}

    def update(self, stack_id, **fields):
        self._call("update", stack_id, **fields)

    def delete(self, stack_id):
        self._call("delete", stack_id)

    def get(self, stack_id, resolve_outputs=True):
        self._call("get", stack_id, resolve_outputs=resolve_outputs)
        if stack_id not in self.stacks:
            raise heat_exc.HTTPNotFound()
        stack = self.stacks[stack_id]
        if resolve_outputs:
            return stack
        return types.SimpleNamespace(**{k: v for k, v in vars(stack).items() if k != "outputs"})


class FakeHeatClient:
    def __init__(self):
        self.stacks = FakeStacks()


class FakeOSC:
    def __init__(self, heat):
        self._heat = heat

    def heat(self):
        return self._heat


@pytest.fixture
def heat(monkeypatch):
    client = FakeHeatClient()
    monkeypatch.setattr(heat_driver.HeatDriver, "_osc", lambda self, ctx: FakeOSC(client))
    return client


@pytest.fixture
def k8s():
    return fcos.Driver()


def test_stack_name_rules():
    cluster = types.SimpleNamespace(name="My_Cluster.with*odd#chars-and-a-long-name-beyond-30")
    name = heat_driver.stack_name(cluster)
    assert re.fullmatch(r"my-cluster-withoddchars-and--[a-z2-7]{12}", name), name
    ng = types.SimpleNamespace(name="workers_gpu_pool")
    assert re.fullmatch(
        r"my-cluster-withodd-workers-g-[a-z2-7]{12}", heat_driver.stack_name(cluster, ng)
    )


def test_create_sends_what_template_utils_makes(heat, k8s):
    cluster = fake_cluster(fake_template(master_lb_enabled=True), node_count=2, create_timeout=0)
    k8s.create_cluster(CTX, cluster, None)
    method, _, fields = heat.stacks.calls[-1]
    assert method == "create" and cluster.stack_id == "stack-1"
    assert fields["timeout_mins"] == 60  # [cluster_heat] create_timeout
    names = [u.rsplit("/", 1)[1] for u in fields["environment_files"]]
    assert names == [
        "with_private_network.yaml",
        "no_etcd_volume.yaml",
        "no_volume.yaml",
        "with_master_lb_octavia.yaml",
        "enable_floating_ip.yaml",
        "enable_lb_floating_ip.yaml",
    ]
    assert all(
        u.startswith("file://") and u in fields["files"] for u in fields["environment_files"]
    )
    assert any(u.endswith("/kubemaster.yaml") for u in fields["files"])
    assert fields["template"]["heat_template_version"] == "queens"
    params = fields["parameters"]
    assert params["is_cluster_stack"] is True
    assert params["number_of_minions"] == 2 and params["number_of_masters"] == 1
    assert params["master_flavor"] == "m1.medium" and params["minion_flavor"] == "m1.small"
    assert params["trust_id"] == "" and params["cluster_uuid"] == cluster.uuid
    assert "\\n" in params["kube_service_account_private_key"]


def test_warm_up_parses_the_tree_before_the_first_cluster(heat, k8s, monkeypatch):
    """The conductor's start (drivers.loader.warm_up) parses each Heat driver's
    template tree; the first create then parses only its environment files, and the
    tree's own files are not changed by a stack's environments."""
    from heatclient.common import template_utils

    from magnum_lite.drivers import loader

    heat_driver._template_tree.cache_clear()
    heat_driver._template_contents.cache_clear()
    parsed = []
    parse = template_utils.get_template_contents

    def counting(template_file=None, *args, **kwargs):
        if template_file is not None:  # the tree's root (its templates come by URL)
            parsed.append(template_file)
        return parse(template_file, *args, **kwargs)

    monkeypatch.setattr(template_utils, "get_template_contents", counting)
    loader.warm_up()
    tree_path = k8s.get_template_definition().template_path
    assert parsed == [tree_path]
    _template, tree_files = heat_driver._template_tree(tree_path)
    cluster = fake_cluster(fake_template(master_lb_enabled=True), node_count=2)
    k8s.create_cluster(CTX, cluster, None)
    assert parsed == [tree_path]
    fields = heat.stacks.calls[-1][2]
    assert set(fields["environment_files"]) <= set(fields["files"])
    assert not set(fields["environment_files"]) & set(tree_files)


def test_every_parameter_sent_is_declared_and_every_required_one_sent(heat, k8s):
    labels = {
        "kube_tag": "v1.27.3",
        "etcd_volume_size": "3",
        "master_lb_allowed_cidrs": "1.2.3.0/24",
    }
    cluster = fake_cluster(fake_template(labels=labels, docker_volume_size=5))
    k8s.create_cluster(CTX, cluster, 30)
    params = heat.stacks.calls[-1][2]["parameters"]
    declared = yaml.safe_load(open(fcos_def.TEMPLATE_PATH))["parameters"]
    assert set(params) <= set(declared)
    assert {n for n, p in declared.items() if "default" not in p} <= set(params)
    assert params["kube_version"] == params["master_kube_tag"] == "v1.27.3"
    assert params["master_lb_allowed_cidrs"] == "1.2.3.0/24,10.0.0.0/24"
    names = [u.rsplit("/", 1)[1] for u in heat.stacks.calls[-1][2]["environment_files"]]
    assert "with_etcd_volume.yaml" in names and "with_volume.yaml" in names


def test_tls_disabled_and_no_lb_no_floating_ip(heat, k8s):
    template = fake_template(tls_disabled=True, floating_ip_enabled=False, fixed_network="net1")
    k8s.create_cluster(CTX, fake_cluster(template), 30)
    fields = heat.stacks.calls[-1][2]
    assert fields["parameters"]["kubernetes_port"] == 8080
    assert fields["parameters"]["loadbalancing_protocol"] == "HTTP"
    names = [u.rsplit("/", 1)[1] for u in fields["environment_files"]]
    assert names[0] == "no_private_network.yaml"
    assert names[3:] == [
        "no_master_lb.yaml",
        "disable_floating_ip.yaml",
        "disable_lb_floating_ip.yaml",
    ]


def test_heat_400_is_invalid_parameter_value(heat, k8s):
    heat.stacks.fail["create"] = heat_exc.HTTPBadRequest("flavor m1.huge not found")
    with pytest.raises(exception.InvalidParameterValue, match="m1.huge"):
        k8s.create_cluster(CTX, fake_cluster(fake_template()), 30)


def test_missing_external_network_and_cloud_provider_without_trust(heat, k8s):
    with pytest.raises(exception.InvalidParameterValue, match="external_network"):
        k8s.create_cluster(CTX, fake_cluster(fake_template(external_network_id=None)), 30)
    template = fake_template(labels={"cloud_provider_enabled": "true"})
    with pytest.raises(exception.InvalidParameterValue, match="trust"):
        k8s.create_cluster(CTX, fake_cluster(template), 30)


def test_resize_update_and_upgrade(heat, k8s):
    cluster = fake_cluster(fake_template(), node_count=2, stack_id="s1")
    worker = cluster.default_ng_worker
    worker.stack_id = "s1"
    k8s.resize_cluster(CTX, cluster, None, 1, ["server-2"], worker)
    assert heat.stacks.calls[-1] == (
        "update",
        ("s1",),
        {
            "parameters": {"number_of_minions": 1, "minions_to_remove": ["server-2"]},
            "existing": True,
            "disable_rollback": True,
        },
    )
    worker.node_count = 4
    k8s.update_cluster(CTX, cluster, rollback=True)
    assert heat.stacks.calls[-1][2] == {
        "parameters": {"number_of_minions": 4},
        "existing": True,
        "disable_rollback": False,
    }
    with pytest.raises(exception.NotSupported, match="Magnum Heat driver"):
        k8s.upgrade_cluster(CTX, cluster, None, 1, worker)


def test_delete_extra_nodegroups_first_then_cluster(heat, k8s):
    cluster = fake_cluster(fake_template(), stack_id="s1")
    cluster.add_nodegroup("gpu", stack_id="s2")
    heat.stacks.fail["delete"] = heat_exc.HTTPNotFound()
    k8s.delete_cluster(CTX, cluster)
    assert [c[1][0] for c in heat.stacks.calls] == ["s2", "s1"]
    assert {ng.status for ng in cluster.nodegroups} == {"DELETE_IN_PROGRESS"}
    heat.stacks.fail["delete"] = heat_exc.HTTPConflict()
    with pytest.raises(exception.OperationInProgress):
        k8s.delete_cluster(CTX, cluster)


# -- HeatPoller ------------------------------------------------------------------------


def _stack(status, reason="", outputs=None, **parameters):
    return types.SimpleNamespace(
        stack_status=status,
        stack_status_reason=reason,
        outputs=[{"output_key": k, "output_value": v} for k, v in (outputs or {}).items()],
        parameters=parameters,
    )


def _poll(k8s, cluster, heat, monkeypatch):
    monkeypatch.setattr(heat_driver.clients, "OpenStackClients", lambda ctx: FakeOSC(heat))
    k8s.update_cluster_status(CTX, cluster)


def _with_stack(cluster, stack_id="s1"):
    cluster.stack_id = stack_id
    for ng in cluster.nodegroups:
        ng.stack_id = stack_id
    return cluster


def test_poll_create_complete_copies_outputs(heat, k8s, monkeypatch):
    cluster = _with_stack(fake_cluster(fake_template(), node_count=2))
    outputs = {
        "api_address": "172.24.4.10",
        "kube_masters": ["172.24.4.11"],
        "kube_masters_private": ["10.0.0.3"],
        "kube_minions": ["172.24.4.12", "172.24.4.13"],
        "kube_minions_private": ["10.0.0.4", "10.0.0.5"],
    }
    heat.stacks.stacks["s1"] = _stack(
        "CREATE_COMPLETE",
        "done",
        outputs,
        number_of_minions="2",
        number_of_masters="1",
        kube_version="v1.18.16",
    )
    _poll(k8s, cluster, heat, monkeypatch)
    assert cluster.status == "CREATE_COMPLETE" and cluster.status_reason is None
    assert cluster.api_address == "https://172.24.4.10:6443"
    assert cluster.default_ng_master.node_addresses == ["172.24.4.11"]
    assert cluster.default_ng_worker.node_addresses == ["172.24.4.12", "172.24.4.13"]
    assert cluster.default_ng_worker.node_count == 2
    assert (cluster.coe_version, cluster.container_version) == ("v1.18.16", "1.12.6")
    # the master and worker nodegroups share the cluster's stack: asked for once a poll
    gets = [(c[1][0], c[2]["resolve_outputs"]) for c in heat.stacks.calls if c[0] == "get"]
    assert gets == [("s1", False), ("s1", True)]

    cluster.floating_ip_enabled = False
    cluster.status = "UPDATE_IN_PROGRESS"
    heat.stacks.stacks["s1"].stack_status = "UPDATE_COMPLETE"
    _poll(k8s, cluster, heat, monkeypatch)
    assert cluster.status == "UPDATE_COMPLETE"
    assert cluster.default_ng_worker.node_addresses == ["10.0.0.4", "10.0.0.5"]


def test_poll_failure_names_the_failed_nodegroups(heat, k8s, monkeypatch):
    cluster = _with_stack(fake_cluster(fake_template()))
    heat.stacks.stacks["s1"] = _stack("CREATE_FAILED", "Resource CREATE failed: boom")
    _poll(k8s, cluster, heat, monkeypatch)
    assert cluster.status == "CREATE_FAILED"
    # Magnum's "<ng> failed", each with Heat's stack_status_reason of its stack
    assert cluster.status_reason == (
        "default-master failed: Resource CREATE failed: boom, "
        "default-worker failed: Resource CREATE failed: boom"
    )
    assert cluster.default_ng_master.status_reason == "Resource CREATE failed: boom"


def test_poll_failure_without_heats_reason_names_the_nodegroup_only(heat, k8s, monkeypatch):
    cluster = _with_stack(fake_cluster(fake_template()))
    heat.stacks.stacks["s1"] = _stack("CREATE_FAILED", "")
    _poll(k8s, cluster, heat, monkeypatch)
    assert cluster.status_reason == "default-master failed, default-worker failed"


def test_poll_missing_stack(heat, k8s, monkeypatch):
    cluster = _with_stack(fake_cluster(fake_template()))
    _poll(k8s, cluster, heat, monkeypatch)
    assert cluster.status == "CREATE_FAILED"
    assert cluster.default_ng_worker.status_reason == "Stack with id s1 not found in Heat."
    for ng in cluster.nodegroups:
        ng.status = "DELETE_IN_PROGRESS"
    cluster.status = "DELETE_IN_PROGRESS"
    _poll(k8s, cluster, heat, monkeypatch)
    assert cluster.status == "DELETE_COMPLETE"


def test_poll_aggregates_extra_nodegroups(heat, k8s, monkeypatch):
    cluster = _with_stack(fake_cluster(fake_template(), status="UPDATE_IN_PROGRESS"))
    for ng in cluster.nodegroups:
        ng.status = "CREATE_COMPLETE"
    heat.stacks.stacks["s1"] = _stack("CREATE_COMPLETE")
    extra = cluster.add_nodegroup("gpu", stack_id="s2")
    heat.stacks.stacks["s2"] = _stack("CREATE_IN_PROGRESS")
    _poll(k8s, cluster, heat, monkeypatch)
    assert cluster.status == "UPDATE_IN_PROGRESS" and extra.status == "CREATE_IN_PROGRESS"
    heat.stacks.stacks["s2"] = _stack("CREATE_FAILED", "no room")
    _poll(k8s, cluster, heat, monkeypatch)
    # only the failed nodegroup is named, with its stack's reason
    assert (cluster.status, cluster.status_reason) == ("UPDATE_FAILED", "gpu failed: no room")
    heat.stacks.stacks["s2"] = _stack("DELETE_COMPLETE")
    _poll(k8s, cluster, heat, monkeypatch)
    assert [ng.name for ng in cluster.nodegroups] == ["default-master", "default-worker"]
    # CREATE_COMPLETE again, but after an update: UPDATE_COMPLETE
    assert cluster.status == "UPDATE_COMPLETE"


def test_rotate_ca_sends_new_service_account_keys(heat, k8s):
    cluster = fake_cluster(fake_template(), stack_id="s1")
    k8s.rotate_ca_certificate(CTX, cluster)
    method, args, fields = heat.stacks.calls[-1]
    assert (method, args, fields["existing"], fields["disable_rollback"]) == (
        "update",
        ("s1",),
        True,
        False,
    )
    keys = fields["parameters"]
    assert set(keys) == {"kube_service_account_key", "kube_service_account_private_key"}
    assert keys["kube_service_account_key"].startswith("-----BEGIN PUBLIC KEY-----\\n")
    k8s.rotate_ca_certificate(CTX, cluster)
    assert heat.stacks.calls[-1][2]["parameters"] != keys
    other = fake_cluster(fake_template(cluster_distro="ubuntu"), stack_id="s2")
    with pytest.raises(exception.NotSupported, match="cluster_distro: ubuntu"):
        k8s.rotate_ca_certificate(CTX, other)
