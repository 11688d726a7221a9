"""[conductor]: the conductor's RPC topic, its pool, and when a cast is taken as lost."""

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
    cfg.IntOpt(
        "lost_cast_timeout",
        default=60,
        min=1,
        help="Seconds after which a create or a delete its conductor took but did not "
        "carry out (it was killed) is taken as lost: the periodic sync ends a cluster "
        "still CREATE_IN_PROGRESS without a stack CREATE_FAILED, and sends again the "
        "delete of a cluster DELETE_IN_PROGRESS whose stack is not being deleted.",
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
