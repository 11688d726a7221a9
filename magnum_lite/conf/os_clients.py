"""[glance_client], [nova_client], [neutron_client]: where in the catalog magnum-lite finds
the cloud's image, compute and network APIs (Magnum's groups of the same names).

    CONF.nova_client.endpoint_type      # 'publicURL' (or internalURL, adminURL)
"""

from oslo_config import cfg

# group -> the service type of its endpoints in the catalog
SERVICE_TYPES = {"glance_client": "image", "nova_client": "compute", "neutron_client": "network"}


def _opts(service):
    return [
        cfg.StrOpt("region_name", help="Region of the %s endpoint (default: any)." % service),
        cfg.StrOpt(
            "endpoint_type",
            default="publicURL",
            choices=["publicURL", "internalURL", "adminURL"],
            help="Interface of the %s endpoint in the catalog." % service,
        ),
    ]


OPTS = {group: _opts(service) for group, service in SERVICE_TYPES.items()}


def register_opts(conf):
    for group, opts in OPTS.items():
        conf.register_opts(opts, group=group)


def list_opts():
    return list(OPTS.items())
