"""[heat_client]: where python-heatclient finds Heat (no Keystone catalog in noauth mode)."""

from oslo_config import cfg

group = cfg.OptGroup("heat_client", title="Options for the Heat client")

opts = [
    cfg.StrOpt(
        "url",
        default="http://127.0.0.1:8004/v1/%(project_id)s",
        help="Heat endpoint; %(project_id)s is replaced by the caller's project.",
    ),
    cfg.StrOpt("region_name", help="Region of the Heat endpoint."),
    cfg.StrOpt("endpoint_type", default="publicURL", help="Catalog endpoint type."),
    cfg.StrOpt("api_version", default="1", help="Version of the Heat API to use."),
    cfg.BoolOpt("insecure", default=False, help="Skip TLS verification."),
    cfg.StrOpt("ca_file", help="CA bundle for TLS verification."),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
