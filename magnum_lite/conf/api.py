"""[api]: where magnum-lite-api listens and how big a page may be."""

from oslo_config import cfg

group = cfg.OptGroup("api", title="Options for the magnum-lite-api service")

opts = [
    cfg.HostAddressOpt("host", default="127.0.0.1", help="The listen IP for the Magnum API."),
    cfg.PortOpt("port", default=9511, help="The port for the Magnum API server."),
    cfg.IntOpt(
        "max_limit", default=1000, help="The maximum number of items returned in one collection."
    ),
    cfg.IntOpt("workers", default=1, help="Unused: one process serves with green threads."),
    cfg.IntOpt(
        "rpc_call_timeout",
        default=60,
        help="Seconds the API waits for a synchronous conductor call (certificates, upgrade).",
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
