"""[cluster_heat]: how the Heat driver talks to its stacks."""

from oslo_config import cfg

group = cfg.OptGroup("cluster_heat", title="Heat driver options for cluster stacks")

opts = [
    cfg.IntOpt(
        "create_timeout",
        default=60,
        help="Timeout in minutes for creating a cluster stack when the cluster has none.",
    ),
    cfg.IntOpt("max_attempts", default=2000, help="Unused: status comes from the periodic sync."),
    cfg.IntOpt("wait_interval", default=1, help="Unused: status comes from the periodic sync."),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
