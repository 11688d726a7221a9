"""[cluster_template]: defaults applied to cluster templates."""

from oslo_config import cfg

group = cfg.OptGroup("cluster_template", title="Options for cluster templates")

opts = [
    cfg.StrOpt(
        "kubernetes_default_network_driver",
        default="flannel",
        help="The default network driver for a Kubernetes cluster template.",
    ),
    cfg.ListOpt(
        "kubernetes_allowed_network_drivers",
        default=["all"],
        help="Allowed network drivers for Kubernetes cluster templates ('all' for any).",
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
