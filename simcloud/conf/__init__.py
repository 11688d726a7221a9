"""simcloud's configuration options, on a ConfigOpts of its own (not the global
``cfg.CONF``: simcloud is another program than heat-lite and magnum-lite, and its
``[database]`` options must not meet theirs when tests import them in one process).

    from simcloud.conf import CONF
    CONF(['--config-file', 'simcloud.conf'], project='simcloud')
    CONF.simulation.build_time

``simcloud.conf.opts.list_opts`` feeds oslo-config-generator
(etc/simcloud/simcloud-config-generator.conf).
"""

from oslo_config import cfg
from oslo_middleware import sizelimit

CONF = cfg.ConfigOpts()

api_opts = [
    cfg.StrOpt("bind_host", default="127.0.0.1", help="Address simcloud-api listens on."),
    cfg.PortOpt("bind_port", default=8080, help="The one port of every simulated service."),
    cfg.StrOpt(
        "public_url",
        help="Base URL clients reach simcloud-api at (version documents, the catalog); "
        "default http://<bind_host>:<bind_port>.",
    ),
    cfg.StrOpt(
        "internal_url",
        help="Base URL of the catalog's internal endpoints, for services on another network "
        "than the clients (containers: http://simcloud-api:8080); default public_url.",
    ),
]

database_opts = [
    cfg.StrOpt(
        "connection",
        default="sqlite:///simcloud.sqlite",
        secret=True,
        help="SQLAlchemy URL of simcloud's database (PostgreSQL, or SQLite).",
    ),
    # no overflow: a connection over the pool size is closed when returned, so bursts of
    # requests (a 10-cluster create) opened and closed PostgreSQL backends all along
    cfg.IntOpt("max_pool_size", default=16, help="Connections kept in the pool."),
    cfg.IntOpt("max_overflow", default=0, help="Connections allowed above max_pool_size."),
    # transient errors (lost connection, too many clients, deadlock, serialization
    # failure) are retried as oslo.db's wrap_db_retry does (same option names)
    cfg.IntOpt("db_max_retries", default=10, min=0, help="Retries of a transient DB error."),
    cfg.FloatOpt("db_retry_interval", default=0.25, min=0, help="Seconds before the first retry."),
    cfg.FloatOpt(
        "db_max_retry_interval", default=10, min=0, help="Longest wait between two retries."
    ),
]

identity_opts = [
    cfg.StrOpt("region", default="RegionOne", help="Region of every catalog endpoint."),
    cfg.StrOpt("admin_password", default="password", secret=True, help="Password of user admin."),
    cfg.StrOpt("demo_password", default="password", secret=True, help="Password of user demo."),
    cfg.ListOpt(
        "service_users",
        default=["heat", "magnum"],
        help="Service users seeded in project 'service' with roles admin and service "
        "(for keystonemiddleware and trusts); their password is service_password.",
    ),
    cfg.StrOpt(
        "service_password",
        default="password",
        secret=True,
        help="Password of the seeded service users.",
    ),
    cfg.IntOpt("token_expiration", default=3600, min=1, help="Token lifetime in seconds."),
    cfg.IntOpt(
        "password_hash_rounds",
        default=12,
        min=4,
        max=31,
        help="bcrypt cost factor of stored passwords (Keystone's password_hash_rounds).",
    ),
]

catalog_opts = [
    cfg.StrOpt(
        "orchestration_endpoint",
        default="http://127.0.0.1:8004/v1/%(project_id)s",
        help="heat-lite's endpoint; %(project_id)s is the token's project.",
    ),
    cfg.StrOpt(
        "container_infra_endpoint",
        default="http://127.0.0.1:9511/v1",
        help="magnum-lite's endpoint.",
    ),
    cfg.DictOpt(
        "endpoint_overrides",
        default={},
        help="service type -> URL replacing simcloud's own endpoint of that service "
        "(identity, compute, image, network, volumev3, load-balancer).",
    ),
]

simulation_opts = [
    cfg.FloatOpt(
        "build_time",
        default=0.0,
        min=0.0,
        help="Seconds a server, volume or load balancer stays in its building state "
        "(BUILD, creating, PENDING_CREATE) before it becomes ready.",
    ),
    cfg.ListOpt(
        "fail_objects",
        default=[],
        help="Objects that fail on purpose, as <kind>:<name glob> (e.g. "
        "nova.server:*master-0, cinder.volume:*).",
    ),
    cfg.StrOpt(
        "fail_marker",
        default="sim-fail",
        help="An object whose name contains this text fails on purpose; empty disables it.",
    ),
    cfg.DictOpt(
        "api_latency",
        default={},
        help="Seconds added to every request of a service, e.g. compute:0.2,network:0.1.",
    ),
    cfg.ListOpt(
        "flavors",
        default=[
            "m1.tiny:1:1:512:1",
            "m1.small:2:1:2048:20",
            "m1.medium:3:2:4096:40",
            "m1.large:4:4:8192:80",
            "m1.xlarge:5:8:16384:160",
        ],
        help="Seeded flavors, as <name>:<id>:<vcpus>:<ram MB>:<disk GB>.",
    ),
    cfg.ListOpt(
        "images",
        default=["fedora-coreos-40:fedora-coreos", "cirros-0.6.2:cirros"],
        help="Seeded public images, as <name>:<os_distro>; the id is derived from the name.",
    ),
    cfg.ListOpt(
        "keypairs",
        default=["admin:default"],
        help="Seeded Nova keypairs, as <user>:<name> (a keypair belongs to its user); the "
        "key is generated, its private half is not kept.",
    ),
    cfg.StrOpt("public_network", default="public", help="Name of the seeded external network."),
    cfg.StrOpt(
        "public_subnet_cidr",
        default="172.24.4.0/24",
        help="CIDR of the external network's subnet (floating IPs come from it).",
    ),
]

CONF.register_opts(api_opts, group="api")
CONF.register_opts(database_opts, group="database")
CONF.register_opts(identity_opts, group="identity")
CONF.register_opts(catalog_opts, group="catalog")
CONF.register_opts(simulation_opts, group="simulation")
# [oslo_middleware] max_request_body_size, which every service's API applies (api/router.py)
CONF.register_opts(sizelimit.OPTS, group="oslo_middleware")
