"""Alembic for magnum's database: ``upgrade`` to head, ``version``.

The migrations live in alembic/magnum (section ``[magnum]`` of alembic/alembic.ini); the
package reaches them as ``magnum_lite/db/migrations`` (a link in a checkout, package data
in a wheel), so an installed magnum-lite-db-manage finds them too.

    migration.upgrade('postgresql+psycopg2://postgres@127.0.0.1/magnum')
"""

import pathlib

from alembic.config import Config

from alembic import command

SCRIPT_LOCATION = pathlib.Path(__file__).resolve().parent / "migrations"


def alembic_config(url):
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


def upgrade(url, revision="head"):
    command.upgrade(alembic_config(url), revision)


def version(url):
    command.current(alembic_config(url))
