"""[quotas]: default per-project limits."""

from oslo_config import cfg

group = cfg.OptGroup("quotas", title="Options for quota configuration")

opts = [
    cfg.IntOpt(
        "max_clusters_per_project",
        default=20,
        help="Max number of clusters allowed per project. Admin can override this default "
        "quota for a project by setting explicit limit in quotas DB table (using /quotas "
        "REST API endpoint).",
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
