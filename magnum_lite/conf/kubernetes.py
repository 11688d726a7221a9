"""[kubernetes]: cluster health polling."""

from oslo_config import cfg

group = cfg.OptGroup("kubernetes", title="Options for the Kubernetes addons")

opts = [
    cfg.IntOpt(
        "health_polling_interval",
        default=60,
        help="Seconds between two health polls of the cluster API (-1 disables).",
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
