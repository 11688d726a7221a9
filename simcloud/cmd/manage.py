"""simcloud-manage: database management (``db_sync`` runs alembic up to head, then seeds
the identity and the cloud: admin, demo, flavors, images, the public network)."""

import argparse
import pathlib
import sys

from alembic.config import Config

from alembic import command
from simcloud.conf import CONF
from simcloud.db import api as db_api
from simcloud.identity import bootstrap

ALEMBIC_DIR = pathlib.Path(__file__).resolve().parents[2] / "alembic"


def alembic_config(url=None):
    config = Config(str(ALEMBIC_DIR / "alembic.ini"), ini_section="simcloud")
    config.set_main_option("script_location", str(ALEMBIC_DIR / "simcloud"))
    config.set_main_option("sqlalchemy.url", url or CONF.database.connection)
    return config


def db_sync(url=None, revision="head"):
    command.upgrade(alembic_config(url), revision)
    db_api.configure(url or CONF.database.connection)
    bootstrap.run()


def db_version(url=None):
    command.current(alembic_config(url))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="simcloud-manage")
    parser.add_argument("--config-file", action="append", default=[])
    parser.add_argument("command", choices=["db_sync", "db_version"])
    args = parser.parse_args(argv)
    conf_args = [x for f in args.config_file for x in ("--config-file", f)]
    CONF(conf_args, project="simcloud", prog="simcloud-manage", default_config_files=[])
    {"db_sync": db_sync, "db_version": db_version}[args.command]()


if __name__ == "__main__":
    main()
