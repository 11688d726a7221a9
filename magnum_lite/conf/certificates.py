"""[certificates]: where cluster certificates are kept."""

from oslo_config import cfg

group = cfg.OptGroup("certificates", title="Certificate manager options")

opts = [
    cfg.StrOpt(
        "cert_manager_type",
        default="x509keypair",
        help="Certificate storage; x509keypair keeps them in magnum's database.",
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
