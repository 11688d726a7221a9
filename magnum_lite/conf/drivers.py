"""[drivers]: cluster driver selection."""

from oslo_config import cfg

group = cfg.OptGroup("drivers", title="Options for the cluster drivers")

opts = [
    cfg.StrOpt(
        "default_driver",
        help="Driver of a template that names none and whose image has no magnum_driver.",
    ),
    cfg.ListOpt(
        "disabled_drivers",
        default=[],
        help="Names of drivers (magnum_lite/drivers/registry.py) not to load.",
    ),
    cfg.BoolOpt("verify_ca", default=True, help="Verify TLS of the cluster API endpoints."),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
