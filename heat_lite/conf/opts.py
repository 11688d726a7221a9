"""Option lists for oslo-config-generator (entry point ``oslo.config.opts: heat_lite``)."""

from heat_lite import conf


def list_opts():
    return [
        ("DEFAULT", conf.default_opts),
        ("database", conf.database_opts),
        ("heat_api", conf.heat_api_opts),
        ("noauth", conf.noauth_opts),
        ("clients_keystone", conf.clients_keystone_opts),
        ("revision", conf.revision_opts),
        ("yaql", conf.yaql_opts),
        ("simulated_cloud", conf.simulated_cloud_opts),
        ("constraint_validation_cache", conf.constraint_validation_cache_opts),
        ("resource_finder_cache", conf.resource_finder_cache_opts),
    ]
