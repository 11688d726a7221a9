"""[conductor]: the conductor's RPC topic."""

from oslo_config import cfg

group = cfg.OptGroup("conductor", title="Options for the magnum-lite-conductor service")

opts = [
    cfg.StrOpt("topic", default="magnum-conductor", help="The queue to add conductor tasks to."),
    cfg.IntOpt(
        "conductor_life_check_timeout",
        default=4,
        help="RPC timeout for the conductor liveness check.",
    ),
    cfg.IntOpt(
        "executor_thread_pool_size",
        default=32,
        help="Green threads handling RPC messages in one conductor.",
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
