"""What simcloud's console scripts do first: read the config, set up logging and the
database (psycopg2 made green for eventlet)."""

import logging

from simcloud.conf import CONF
from simcloud.db import api as db_api


def prepare(argv, prog):
    CONF(argv, project="simcloud", prog=prog, default_config_files=[])
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(process)d %(levelname)s %(name)s %(message)s",
    )
    if CONF.database.connection.startswith("postgresql"):
        from psycogreen.eventlet import patch_psycopg

        patch_psycopg()
    db_api.configure(
        CONF.database.connection, CONF.database.max_pool_size, CONF.database.max_overflow
    )
    return CONF
