"""Option lists for oslo-config-generator (entry point ``oslo.config.opts: simcloud``)."""

from simcloud import conf


def list_opts():
    return [
        ("api", conf.api_opts),
        ("database", conf.database_opts),
        ("identity", conf.identity_opts),
        ("catalog", conf.catalog_opts),
        ("simulation", conf.simulation_opts),
    ]
