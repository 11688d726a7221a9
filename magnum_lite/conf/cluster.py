"""[cluster]: cluster defaults."""

from oslo_config import cfg

group = cfg.OptGroup("cluster", title="Options for Cluster configuration")

opts = [
    cfg.StrOpt(
        "etcd_discovery_service_endpoint_format",
        default="https://discovery.etcd.io/new?size=%(size)d",
        help="Url for etcd public discovery endpoint.",
    ),
    cfg.StrOpt(
        "nodes_affinity_policy",
        default="soft-anti-affinity",
        help="Affinity policy for server group of cluster nodes.",
    ),
    cfg.IntOpt("temp_cache_dir_size", default=0, help="Unused; kept for config compatibility."),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
