"""heat-lite's configuration options, registered on ``oslo_config.cfg.CONF``.

Defaults are Heat 27's (docs/limits-and-config.md). Importing this module registers
the options; ``heat_lite.conf.opts.list_opts`` feeds oslo-config-generator.

    from heat_lite.conf import CONF
    CONF(['--config-file', 'heat.conf'], project='heat')
    CONF.max_resources_per_stack
"""

from oslo_cache import core as cache_core
from oslo_config import cfg

CONF = cfg.CONF

default_opts = [
    cfg.StrOpt("host", default="heat-lite", help="Name of this engine; the RPC server name."),
    cfg.IntOpt(
        "max_stacks_per_tenant",
        default=512,
        help="Maximum number of top-level stacks a project may have; negative is unlimited.",
    ),
    cfg.IntOpt(
        "max_resources_per_stack",
        default=1000,
        help="Maximum resources allowed per top-level stack; -1 is unlimited.",
    ),
    cfg.IntOpt("max_template_size", default=524288, help="Maximum raw byte size of any template."),
    cfg.IntOpt(
        "max_json_body_size", default=1048576, help="Maximum raw byte size of a JSON request body."
    ),
    cfg.IntOpt(
        "max_nested_stack_depth", default=5, help="Maximum depth allowed when using nested stacks."
    ),
    cfg.IntOpt(
        "max_resolved_value_size",
        default=1048576,
        help="Maximum size of any value a template function resolves to (a string counts its "
        "length, a list or map 1 plus its items and keys); -1 is unlimited.",
    ),
    cfg.IntOpt(
        "max_events_per_stack",
        default=1000,
        help="Rough number of events kept per stack; older ones are purged. 0 disables.",
    ),
    cfg.IntOpt(
        "max_snapshots_per_stack",
        default=32,
        help="Maximum number of snapshots per stack (admins are not limited); negative is "
        "unlimited.",
    ),
    cfg.IntOpt(
        "event_purge_batch_size", default=200, min=1, help="Events deleted per purge batch."
    ),
    cfg.IntOpt(
        "stack_action_timeout", default=3600, help="Stack timeout in seconds when none is given."
    ),
    cfg.IntOpt(
        "action_retry_limit", default=5, help="Retries of a resource action in an error state."
    ),
    cfg.IntOpt("client_retry_limit", default=2, help="Retries of a resource lock acquisition."),
    cfg.IntOpt(
        "engine_life_check_timeout",
        default=2,
        help="RPC timeout of the engine liveness check used for stealing resource locks.",
    ),
    cfg.IntOpt("periodic_interval", default=60, help="Seconds between engine service heartbeats."),
    cfg.IntOpt(
        "convergence_watchdog_interval",
        default=5,
        min=1,
        help="Seconds between the engine's checks of running traversals: stack timeouts, "
        "resources held by dead engines or workers, traversals that stopped making progress.",
    ),
    cfg.IntOpt(
        "convergence_stall_timeout",
        default=60,
        min=1,
        help="Seconds a traversal may go without progress (no sync point or resource "
        "change) before the watchdog re-sends the check of its ready nodes.",
    ),
    cfg.IntOpt(
        "graceful_shutdown_timeout",
        default=5,
        min=0,
        help="Seconds a stopping worker lets its running resource actions finish; those "
        "still running are then stopped and handed back to the other workers.",
    ),
    cfg.BoolOpt("enable_stack_abandon", default=False, help="Enable stack abandon."),
    cfg.BoolOpt("enable_stack_adopt", default=False, help="Enable stack adopt."),
    cfg.BoolOpt(
        "observe_on_update",
        default=False,
        help="On update, compare a resource's live state (not only its stored properties) "
        "with the template, and replace it if it is gone.",
    ),
    cfg.StrOpt(
        "auth_strategy",
        default="noauth",
        choices=["noauth", "keystone"],
        help="noauth takes identity from request headers; keystone validates the request's "
        "token with keystonemiddleware ([keystone_authtoken]). The client plugins act with "
        "that token in keystone mode, as [clients_keystone]'s user in noauth mode.",
    ),
]

database_opts = [
    cfg.StrOpt(
        "connection",
        default="sqlite:///heat.sqlite",
        secret=True,
        help="SQLAlchemy URL of heat's database (PostgreSQL, or SQLite for the embedded default).",
    ),
    # RPC handlers (executor_thread_pool_size, 64) take a connection per statement, so
    # 16 serve them, with a few for background work: four processes stay well below
    # PostgreSQL's default max_connections of 100; a handler waits for a connection only
    # while others run their statements. No overflow: a connection over the pool size is
    # closed when it is returned, so under load (64 handlers) the pool opened and closed
    # connections all along, each a PostgreSQL backend start-up and the prepared
    # statements made again (1000 wide: 168 connections instead of 44, PostgreSQL CPU
    # 1.7-2.1 s instead of 0.9-1.3 s).
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

heat_api_opts = [
    cfg.StrOpt("bind_host", default="127.0.0.1", help="Address the API listens on."),
    cfg.PortOpt("bind_port", default=8004, help="Port the API listens on."),
]

noauth_opts = [
    cfg.StrOpt("default_user", default="admin", help="User when a request names none."),
    cfg.StrOpt("default_project", default="admin", help="Project when a request names none."),
    cfg.ListOpt("default_roles", default=["admin"], help="Roles when a request names none."),
]

revision_opts = [
    cfg.StrOpt("heat_revision", default="unknown", help="Revision shown by build_info."),
]

yaql_opts = [
    cfg.IntOpt(
        "limit_iterators",
        default=200,
        help="The maximum number of elements in collection expression can take for its evaluation.",
    ),
    cfg.IntOpt(
        "memory_quota",
        default=10000,
        help="The maximum size of memory in bytes that expression can take for its evaluation.",
    ),
    cfg.FloatOpt(
        "time_limit",
        default=1.0,
        min=0.01,
        help="The maximum CPU time in seconds that an expression can take for its evaluation.",
    ),
]

simulated_cloud_opts = [
    cfg.BoolOpt(
        "signal_deployments",
        default=True,
        help="Software deployments (OS::Heat::SoftwareDeployment and its kin) are signalled "
        "at once as successful with empty outputs, as an agent in the server would; false "
        "makes them wait for a real signal (resource signal or a PUT of the deployment).",
    ),
]

clients_keystone_opts = [
    cfg.StrOpt(
        "auth_uri",
        default="http://127.0.0.1:8080/identity",
        help="Keystone v3 URL the client plugins authenticate at; every service endpoint "
        "(compute, network, volumev3, image, load-balancer) comes from its catalog.",
    ),
    cfg.StrOpt(
        "username",
        default="heat",
        help="Service user the client plugins act as when there is no request token "
        "(auth_strategy = noauth); in keystone mode the request's own token is used.",
    ),
    cfg.StrOpt("password", default="password", secret=True, help="Password of username."),
    cfg.StrOpt("project_name", default="service", help="Project of the service user."),
    cfg.StrOpt("user_domain_id", default="default", help="Domain of the service user."),
    cfg.StrOpt("project_domain_id", default="default", help="Domain of project_name."),
    cfg.StrOpt("region_name", help="Region of the endpoints to use (default: any)."),
    cfg.StrOpt(
        "endpoint_type",
        default="public",
        choices=["public", "internal", "admin"],
        help="Catalog interface of the endpoints to use.",
    ),
]

# Heat's [constraint_validation_cache] (heat/common/cache.py); oslo.cache's [cache]
# (enabled, backend...) is the global toggle and the store
constraint_validation_cache_opts = [
    cfg.BoolOpt(
        "caching",
        default=True,
        help="Remember, per project, the values that passed a custom constraint asking "
        "another service (glance.image, nova.flavor, neutron.network...) while stacks are "
        "validated; needs [cache] enabled = true.",
    ),
    cfg.IntOpt(
        "expiration_time",
        default=60,
        help="TTL, in seconds, of a remembered constraint validation.",
    ),
]

# Heat's [resource_finder_cache] (heat/engine/clients/os/__init__.py MEMOIZE_FINDER)
resource_finder_cache_opts = [
    cfg.BoolOpt(
        "caching",
        default=True,
        help="Remember, per project, the id a name or id was found to stand for (Neutron "
        "objects, Nova flavors, Glance images); needs [cache] enabled = true.",
    ),
    cfg.IntOpt(
        "expiration_time",
        default=3600,
        help="TTL, in seconds, of a remembered resource id.",
    ),
]

cache_core.configure(CONF)
CONF.register_opts(default_opts)
CONF.register_opts(clients_keystone_opts, group="clients_keystone")
CONF.register_opts(constraint_validation_cache_opts, group="constraint_validation_cache")
CONF.register_opts(database_opts, group="database")
CONF.register_opts(resource_finder_cache_opts, group="resource_finder_cache")
CONF.register_opts(heat_api_opts, group="heat_api")
CONF.register_opts(noauth_opts, group="noauth")
CONF.register_opts(revision_opts, group="revision")
CONF.register_opts(yaql_opts, group="yaql")
CONF.register_opts(simulated_cloud_opts, group="simulated_cloud")
