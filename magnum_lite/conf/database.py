"""[database]: magnum's own database (PostgreSQL, or a SQLite file as the embedded default)."""

from oslo_config import cfg

group = cfg.OptGroup("database", title="Database options")

opts = [
    cfg.StrOpt(
        "connection",
        default="sqlite:///magnum.sqlite",
        secret=True,
        help="SQLAlchemy URL of magnum's database.",
    ),
    cfg.IntOpt("max_pool_size", default=16, help="Connections kept open to PostgreSQL."),
    cfg.IntOpt("max_overflow", default=8, help="Extra connections allowed over the pool size."),
    # transient errors (lost connection, too many clients, deadlock, serialization
    # failure) are retried as oslo.db's wrap_db_retry does (same option names)
    cfg.IntOpt("db_max_retries", default=10, min=0, help="Retries of a transient DB error."),
    cfg.FloatOpt("db_retry_interval", default=0.25, min=0, help="Seconds before the first retry."),
    cfg.FloatOpt(
        "db_max_retry_interval", default=10, min=0, help="Longest wait between two retries."
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
