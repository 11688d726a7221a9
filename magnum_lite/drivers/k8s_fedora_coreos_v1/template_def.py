"""The Fedora CoreOS Kubernetes template definition: which environment files a cluster
selects and the computed ("extra") Heat parameters, on top of the tables of
magnum_lite.drivers.heat.template_def.

    tdef = template_definition()
    tdef.get_params(ctx, template, cluster)   # everything kubecluster.yaml is sent
"""

import json
import os
import urllib.parse

from magnum_lite.cluster_credentials import cert_manager, trust_manager
from magnum_lite.common import exception, keystone, x509
from magnum_lite.conf import CONF
from magnum_lite.drivers.heat import template_def
from magnum_lite.drivers.k8s_fedora_coreos_v1 import version

TEMPLATE_PATH = os.path.join(os.path.dirname(__file__), "templates", "kubecluster.yaml")

# labels copied to the parameter of the same name, their value or null
LABELS_ALWAYS = (
    "flannel_network_cidr flannel_backend flannel_network_subnetlen system_pods_initial_delay "
    "system_pods_timeout admission_control_list prometheus_monitoring grafana_admin_passwd "
    "kube_dashboard_enabled etcd_volume_size cert_manager_api ingress_controller_role "
    "octavia_ingress_controller_tag kubelet_options kubeapi_options kubeproxy_options "
    "kubecontroller_options kubescheduler_options influx_grafana_dashboard_enabled "
    "master_lb_allowed_cidrs octavia_provider octavia_lb_algorithm octavia_lb_healthcheck"
).split()

# labels copied to the parameter of the same name only when truthy
LABELS_TRUTHY = (
    "coredns_tag hyperkube_prefix kube_tag container_infra_prefix availability_zone "
    "cgroup_driver container_runtime containerd_version containerd_tarball_url "
    "containerd_tarball_sha256 calico_tag calico_ipv4pool calico_ipv4pool_ipip "
    "cinder_csi_enabled cinder_csi_plugin_tag csi_attacher_tag csi_provisioner_tag "
    "csi_snapshotter_tag csi_resizer_tag csi_node_driver_registrar_tag csi_liveness_probe_tag "
    "etcd_tag flannel_tag flannel_cni_tag cloud_provider_tag prometheus_tag grafana_tag "
    "heat_container_agent_tag keystone_auth_enabled k8s_keystone_auth_tag heapster_enabled "
    "metrics_server_enabled metrics_server_chart_tag monitoring_enabled "
    "monitoring_retention_days monitoring_retention_size monitoring_interval_seconds "
    "monitoring_storage_class_name monitoring_ingress_enabled cluster_basic_auth_secret "
    "cluster_root_domain_name prometheus_operator_chart_tag prometheus_adapter_enabled "
    "prometheus_adapter_chart_tag prometheus_adapter_configmap selinux_mode helm_client_url "
    "helm_client_sha256 helm_client_tag traefik_ingress_controller_tag "
    "node_problem_detector_tag nginx_ingress_controller_tag nginx_ingress_controller_chart_tag "
    "auto_healing_enabled auto_scaling_enabled auto_healing_controller magnum_auto_healer_tag "
    "draino_tag autoscaler_tag min_node_count max_node_count npd_enabled ostree_remote "
    "ostree_commit use_podman kube_image_digest metrics_scraper_tag"
).split()

DEFAULT_SUBNET_CIDR = "10.0.0.0/24"
DEFAULT_PODS_CIDR = "10.100.0.0/16"
KEYSTONE_AUTH_DEFAULT_POLICY = [
    {
        "resource": {
            "verbs": ["list"],
            "resources": ["pods", "services", "deployments", "pvc"],
            "version": "*",
            "namespace": "default",
        },
        "match": [
            {"type": "role", "values": ["member"]},
            {"type": "project", "values": ["$PROJECT_ID"]},
        ],
    }
]


def _truthy(value):
    return str(value).lower() in ("true", "1", "yes", "on")


def _label(labels, template, name, default=None):
    """A label of the cluster (or nodegroup), else of the template, else ``default``."""
    value = labels.get(name)
    if value is None:
        value = (template.labels or {}).get(name)
    return default if value is None else value


def _subnet_cidr(labels, template):
    return _label(labels, template, "fixed_subnet_cidr", DEFAULT_SUBNET_CIDR)


def identity_params(context, template, cluster, nodegroups, labels):
    """Trust, endpoints and who asked: what the nodes need to call back the cloud."""
    params = trust_manager.get_trust_params(cluster)
    params.update(
        verify_ca=CONF.drivers.verify_ca,
        openstack_ca=urllib.parse.quote(""),
        auth_url=keystone.auth_url() if CONF.auth_strategy == "keystone" else "",
        magnum_url="http://%s:%d/v1" % (CONF.api.host, CONF.api.port),
        username=getattr(context, "user_name", None) or "",
        region_name=CONF.heat_client.region_name or "RegionOne",
        project_id=cluster.project_id,
        discovery_url=cluster.discovery_url or "",
        post_install_manifest_url="",
        nodes_affinity_policy=CONF.cluster.nodes_affinity_policy,
    )
    return params


def network_params(context, template, cluster, nodegroups, labels):
    """Network names and CIDRs, the load balancer's protocol and the proxies."""
    cidr = _subnet_cidr(labels, template)
    params = {
        "external_network": template.external_network_id,
        "fixed_network_name": cluster.fixed_network or template.fixed_network or cluster.name,
        "fixed_subnet_cidr": cidr,
        "octavia_enabled": True,
    }
    if template.tls_disabled:
        params.update(loadbalancing_protocol="HTTP", kubernetes_port=8080)
    if template.no_proxy:
        params["no_proxy"] = "%s,%s" % (template.no_proxy, cidr)
    driver = template.network_driver or "flannel"
    pods = DEFAULT_PODS_CIDR
    if driver == "flannel":
        pods = labels.get("flannel_network_cidr") or DEFAULT_PODS_CIDR
    elif driver == "calico":
        pods = labels.get("calico_ipv4pool") or DEFAULT_PODS_CIDR
    params["pods_network_cidr"] = pods
    if labels.get("service_cluster_ip_range"):
        params["portal_network_cidr"] = labels["service_cluster_ip_range"]
    ingress = labels.get("ingress_controller")
    if ingress:
        params["ingress_controller"] = ingress.lower()
    return params


def volume_params(context, template, cluster, nodegroups, labels):
    """Boot, docker and etcd volume sizes and types."""
    default_size = CONF.cinder.default_boot_volume_size
    params = {"boot_volume_size": int(_label(labels, template, "boot_volume_size", default_size))}
    sizes = {
        "docker_volume_type": cluster.docker_volume_size or template.docker_volume_size,
        "etcd_volume_type": int(labels.get("etcd_volume_size") or 0),
        "boot_volume_type": params["boot_volume_size"],
    }
    for name, size in sizes.items():
        params[name] = (_label(labels, template, name, "") if size else "") or ""
    if template.registry_enabled:
        params.update(
            swift_region=CONF.heat_client.region_name or "RegionOne",
            registry_container="container",
        )
    return params


def label_params(context, template, cluster, nodegroups, labels):
    """Labels copied to parameters, kube_tag's versions, cloud provider and autoscaling."""
    params = {name: labels.get(name) for name in LABELS_ALWAYS}
    params.update({name: labels[name] for name in LABELS_TRUTHY if labels.get(name)})
    allowed = labels.get("master_lb_allowed_cidrs")
    if allowed:
        params["master_lb_allowed_cidrs"] = "%s,%s" % (allowed, _subnet_cidr(labels, template))
    kube_tag = labels.get("kube_tag") or (template.labels or {}).get("kube_tag")
    if kube_tag:
        params.update(kube_version=kube_tag, master_kube_tag=kube_tag, minion_kube_tag=kube_tag)
    cloud_provider = _truthy(labels.get("cloud_provider_enabled", "false"))
    if cloud_provider and not trust_manager.get_trust_params(cluster)["trust_id"]:
        raise exception.InvalidParameterValue(
            err="cloud_provider_enabled label is true but the cluster has no trust "
            "(cluster_user_trust is off)."
        )
    if template.volume_driver == "cinder" and not cloud_provider:
        raise exception.InvalidParameterValue(
            err='"cinder" volume driver needs "cloud_provider_enabled" label to be true or unset.'
        )
    params["cloud_provider_enabled"] = cloud_provider
    worker_count = sum(ng.node_count for ng in nodegroups if ng.role != "master")
    params["max_node_count"] = int(labels.get("max_node_count") or worker_count + 1)
    if _truthy(labels.get("keystone_auth_enabled", "true")):
        policy = json.dumps(KEYSTONE_AUTH_DEFAULT_POLICY)
        params["keystone_auth_default_policy"] = policy.replace("$PROJECT_ID", cluster.project_id)
    return params


def secret_params(context, template, cluster, nodegroups, labels):
    """The service-account signing key pair and, for cert_manager_api, the CA key."""
    params = x509.generate_service_account_keys()
    if _truthy(labels.get("cert_manager_api", "false")):
        ca = cert_manager.get_cluster_ca_certificate(cluster, context)
        params.update(cert_manager_api=True, ca_key=ca.private_key.replace("\n", "\\n"))
    return params


# -- environment files, in Magnum's order --------------------------------------------------


def _network_env(template, cluster, nodegroup):
    fixed = cluster.fixed_network or template.fixed_network
    return "no_private_network" if fixed else "with_private_network"


def _etcd_volume_env(template, cluster, nodegroup):
    size = int((cluster.labels or {}).get("etcd_volume_size") or 0)
    return "with_etcd_volume" if size >= 1 else "no_etcd_volume"


def _volume_env(template, cluster, nodegroup):
    size = getattr(nodegroup, "docker_volume_size", None) if nodegroup else None
    if size is None:
        size = cluster.docker_volume_size
    return "no_volume" if size is None else "with_volume"


def _master_lb_env(template, cluster, nodegroup):
    if not cluster.master_lb_enabled:
        return "no_master_lb"
    return "with_master_lb_octavia"


def _floating_ip_env(template, cluster, nodegroup):
    return "enable_floating_ip" if cluster.floating_ip_enabled else "disable_floating_ip"


def _lb_floating_ip_env(template, cluster, nodegroup):
    labels = cluster.labels or {}
    lb_fip = _truthy(labels.get("master_lb_floating_ip_enabled", "false"))
    if cluster.master_lb_enabled and (lb_fip or cluster.floating_ip_enabled):
        return "enable_lb_floating_ip"
    return "disable_lb_floating_ip"


ENV_RULES = (
    _network_env,
    _etcd_volume_env,
    _volume_env,
    _master_lb_env,
    _floating_ip_env,
    _lb_floating_ip_env,
)
EXTRA_PARAMS = (identity_params, network_params, volume_params, label_params, secret_params)


def template_definition():
    return template_def.TemplateDefinition(
        TEMPLATE_PATH, extra_params=EXTRA_PARAMS, env_rules=ENV_RULES, driver_module=version
    )
