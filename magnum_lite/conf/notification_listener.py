"""[heat_notifications]: instant status from Heat's orchestration.stack.* notifications."""

from oslo_config import cfg

group = cfg.OptGroup("heat_notifications", title="Listening to Heat's notifications")

opts = [
    cfg.BoolOpt(
        "enabled",
        default=True,
        help="Listen for Heat's stack notifications and sync the cluster at once "
        "(the periodic sync stays as the safety net).",
    ),
    cfg.StrOpt(
        "transport_url",
        secret=True,
        help="Transport Heat sends its notifications to; defaults to [DEFAULT] transport_url.",
    ),
    cfg.ListOpt("topics", default=["notifications"], help="Notification topics to listen on."),
    cfg.StrOpt(
        "pool",
        default="magnum-conductor-heat-notifications",
        help="Listener pool shared by conductors (with RabbitMQ, the name of the queue they "
        "share: it must differ from every RPC topic).",
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
