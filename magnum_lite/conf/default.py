"""[DEFAULT]: identity of this process, noauth identity, periodic tasks, OpenStack checks."""

from oslo_config import cfg

opts = [
    cfg.StrOpt(
        "host", default="magnum-lite", help="Name of this node; the conductor's RPC server."
    ),
    cfg.StrOpt(
        "auth_strategy",
        default="noauth",
        choices=["noauth", "keystone"],
        help="noauth takes identity from X-* request headers; keystone uses keystonemiddleware.",
    ),
    cfg.StrOpt("noauth_user", default="admin", help="User of a request with no identity headers."),
    cfg.StrOpt(
        "noauth_project", default="admin", help="Project of a request with no identity headers."
    ),
    cfg.ListOpt(
        "noauth_roles", default=["admin"], help="Roles of a request with no identity headers."
    ),
    cfg.BoolOpt("periodic_enable", default=True, help="Run the conductor's periodic tasks."),
    cfg.IntOpt(
        "periodic_interval_max", default=60, help="Longest sleep between periodic task runs."
    ),
    cfg.IntOpt(
        "sync_cluster_status_interval",
        default=10,
        min=1,
        help="Seconds between two polls of the cluster stacks still in progress.",
    ),
    cfg.IntOpt(
        "service_down_time",
        default=180,
        help="Seconds after the last heartbeat when a magnum service counts as down.",
    ),
    cfg.BoolOpt(
        "validate_os_resources",
        default=False,
        help="Check images, flavors, keypairs and networks against the cloud's OpenStack "
        "APIs (Glance, Nova, Neutron; as [keystone_auth]'s user) on template and cluster "
        "create, as Magnum does. Off: nothing is looked up (no cloud configured).",
    ),
    cfg.StrOpt(
        "unvalidated_image_os_distro",
        default="fedora-coreos",
        help="While validate_os_resources is off the image is not looked up: the os_distro "
        "a template's image is taken to have (becomes the template's cluster_distro).",
    ),
]


def register_opts(conf):
    conf.register_opts(opts)


def list_opts():
    return [("DEFAULT", opts)]
