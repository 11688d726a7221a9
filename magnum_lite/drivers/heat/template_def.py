"""How a cluster becomes a Heat stack's parameters and environment, and how the stack's
outputs come back: declarative tables instead of Magnum's template-definition classes.

A :class:`TemplateDefinition` holds, for one driver, the template path and the
tables below; the driver asks it three things:

    tdef.get_params(context, template, cluster, nodegroups=None)   # Heat parameters
    tdef.get_env_files(template, cluster, nodegroup=None)          # environment files
    tdef.update_outputs(stack, template, cluster, nodegroup)       # outputs -> objects

``nodegroups=None`` means the cluster stack (the default master and worker
nodegroups, ``is_cluster_stack`` true); a list of one extra nodegroup makes that
nodegroup's stack (``is_cluster_stack`` false, labels from the nodegroup).
"""

import dataclasses
import os

from magnum_lite.common import exception

MASTER = "master"
WORKER = "worker"


@dataclasses.dataclass(frozen=True)
class ParameterMapping:
    """A Heat parameter read from the cluster template and/or the cluster; the
    template's value wins when it is not None. Unset (None) values are not sent."""

    heat_param: str
    template_attr: str = None
    cluster_attr: str = None
    required: bool = False
    param_type: type = None

    def get_value(self, template, cluster):
        value = None
        if self.template_attr:
            value = getattr(template, self.template_attr, None)
        if value is None and self.cluster_attr:
            value = getattr(cluster, self.cluster_attr, None)
        if value is not None and self.param_type is not None:
            value = self.param_type(value)
        return value


@dataclasses.dataclass(frozen=True)
class NodeGroupParameterMapping:
    """A Heat parameter read from the stack's master or worker nodegroup."""

    heat_param: str
    role: str
    nodegroup_attr: str


@dataclasses.dataclass(frozen=True)
class NodeGroupOutputMapping:
    """A stack output (or, with ``is_stack_param``, a stack parameter) copied into the
    nodegroup of ``role``; ``private_key`` is read instead when floating IPs are off."""

    heat_output: str
    role: str
    nodegroup_attr: str
    is_stack_param: bool = False
    private_key: str = None


# -- Kubernetes tables (Magnum's k8s template definitions, flattened) ------------------

K8S_PARAMETERS = (
    ParameterMapping("ssh_key_name", cluster_attr="keypair"),
    ParameterMapping("dns_nameserver", template_attr="dns_nameserver"),
    ParameterMapping("http_proxy", template_attr="http_proxy"),
    ParameterMapping("https_proxy", template_attr="https_proxy"),
    ParameterMapping("no_proxy", template_attr="no_proxy"),
    ParameterMapping("external_network", template_attr="external_network_id", required=True),
    ParameterMapping("fixed_network", template_attr="fixed_network", cluster_attr="fixed_network"),
    ParameterMapping("fixed_subnet", template_attr="fixed_subnet", cluster_attr="fixed_subnet"),
    ParameterMapping("network_driver", template_attr="network_driver"),
    ParameterMapping("volume_driver", template_attr="volume_driver"),
    ParameterMapping("tls_disabled", template_attr="tls_disabled", required=True),
    ParameterMapping("registry_enabled", template_attr="registry_enabled"),
    ParameterMapping("insecure_registry_url", template_attr="insecure_registry"),
    ParameterMapping("docker_storage_driver", template_attr="docker_storage_driver"),
    ParameterMapping("cluster_uuid", cluster_attr="uuid", param_type=str),
    ParameterMapping("kube_version", cluster_attr="coe_version"),
)

# worker first: both map docker_volume_size and the master group's value is applied last
K8S_NODEGROUP_PARAMETERS = (
    NodeGroupParameterMapping("number_of_minions", WORKER, "node_count"),
    NodeGroupParameterMapping("minion_flavor", WORKER, "flavor_id"),
    NodeGroupParameterMapping("minion_image", WORKER, "image_id"),
    NodeGroupParameterMapping("worker_role", WORKER, "role"),
    NodeGroupParameterMapping("worker_nodegroup_name", WORKER, "name"),
    NodeGroupParameterMapping("docker_volume_size", WORKER, "docker_volume_size"),
    NodeGroupParameterMapping("number_of_masters", MASTER, "node_count"),
    NodeGroupParameterMapping("master_flavor", MASTER, "flavor_id"),
    NodeGroupParameterMapping("master_image", MASTER, "image_id"),
    NodeGroupParameterMapping("master_role", MASTER, "role"),
    NodeGroupParameterMapping("master_nodegroup_name", MASTER, "name"),
    NodeGroupParameterMapping("docker_volume_size", MASTER, "docker_volume_size"),
)

K8S_OUTPUTS = (
    NodeGroupOutputMapping(
        "kube_masters", MASTER, "node_addresses", private_key="kube_masters_private"
    ),
    NodeGroupOutputMapping(
        "kube_minions", WORKER, "node_addresses", private_key="kube_minions_private"
    ),
    NodeGroupOutputMapping("number_of_masters", MASTER, "node_count", is_stack_param=True),
    NodeGroupOutputMapping("number_of_minions", WORKER, "node_count", is_stack_param=True),
)

# the stack parameter coe_version is read back from
COE_VERSION_PARAM = "kube_version"


def _role_of(nodegroup):
    return MASTER if nodegroup.role == MASTER else WORKER


class TemplateDefinition:
    """One driver's template, parameter tables, extra-parameter builders and
    environment-file rules.

    ``extra_params`` are callables ``(context, template, cluster, nodegroups, labels)
    -> dict`` whose results override the table values (Magnum's ``extra_params``);
    ``env_rules`` are callables ``(template, cluster, nodegroup) -> file name``.
    """

    def __init__(self, template_path, extra_params=(), env_rules=(), driver_module=None):
        self.template_path = template_path
        self.parameters = K8S_PARAMETERS
        self.nodegroup_parameters = K8S_NODEGROUP_PARAMETERS
        self.outputs = K8S_OUTPUTS
        self.extra_params = tuple(extra_params)
        self.env_rules = tuple(env_rules)
        self.driver_module = driver_module

    @property
    def template_dir(self):
        return os.path.dirname(self.template_path)

    def get_heat_param(self, cluster_attr):
        """The Heat parameter a cluster attribute is sent as (e.g. coe_version)."""
        for mapping in self.parameters:
            if mapping.cluster_attr == cluster_attr:
                return mapping.heat_param
        return None

    def get_params(self, context, template, cluster, nodegroups=None):
        """The ``parameters`` of the stack for the cluster (or one extra nodegroup).

        :raises: InvalidParameterValue when a required template attribute is unset.
        """
        is_cluster_stack = nodegroups is None
        if is_cluster_stack:
            nodegroups = [cluster.default_ng_master, cluster.default_ng_worker]
        params = {}
        for mapping in self.parameters:
            value = mapping.get_value(template, cluster)
            if value is None and mapping.required:
                raise exception.InvalidParameterValue(
                    err="Required parameter %s not provided." % mapping.heat_param
                )
            if value is not None:
                params[mapping.heat_param] = value
        by_role = {_role_of(ng): ng for ng in nodegroups}
        for mapping in self.nodegroup_parameters:
            nodegroup = by_role.get(mapping.role)
            value = getattr(nodegroup, mapping.nodegroup_attr, None) if nodegroup else None
            if value is not None:
                params[mapping.heat_param] = value
        labels = dict((cluster.labels if is_cluster_stack else nodegroups[0].labels) or {})
        for build in self.extra_params:
            params.update(build(context, template, cluster, nodegroups, labels))
        params["is_cluster_stack"] = is_cluster_stack
        return params

    def get_env_files(self, template, cluster, nodegroup=None):
        """The environment file names (relative to the template), in order."""
        return [
            "environments/%s.yaml" % rule(template, cluster, nodegroup) for rule in self.env_rules
        ]

    def update_outputs(self, stack, template, cluster, nodegroup):
        """Copy the stack's outputs and parameters into the cluster and ``nodegroup``."""
        outputs = {
            o["output_key"]: o.get("output_value") for o in getattr(stack, "outputs", None) or []
        }
        if nodegroup.role == MASTER and "api_address" in outputs:
            cluster.api_address = format_api_address(template, outputs["api_address"])
        role = _role_of(nodegroup)
        for mapping in self.outputs:
            if mapping.role != role:
                continue
            if mapping.is_stack_param:
                value = (stack.parameters or {}).get(mapping.heat_output)
                if value is not None:
                    setattr(nodegroup, mapping.nodegroup_attr, int(value))
                continue
            key = mapping.heat_output
            if not cluster.floating_ip_enabled and mapping.private_key:
                key = mapping.private_key
            if key in outputs:
                setattr(nodegroup, mapping.nodegroup_attr, outputs[key] or [])

    def get_version_info(self, stack, cluster):
        """coe_version from the stack's kube_version, container_version from the driver."""
        value = (stack.parameters or {}).get(COE_VERSION_PARAM)
        if value:
            cluster.coe_version = value
        if self.driver_module is not None:
            cluster.container_version = self.driver_module.container_version


def format_api_address(template, address):
    """The output api_address as the cluster shows it: https://<ip>:6443, or
    http://<ip>:8080 with TLS disabled; None while the stack has no address."""
    if not address:
        return None
    if template.tls_disabled:
        return "http://%s:8080" % address
    return "https://%s:6443" % address
