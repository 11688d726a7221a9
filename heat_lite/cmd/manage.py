"""heat-lite-manage: database management (``db_sync`` runs alembic up to head)."""

import argparse
import pathlib
import sys

from alembic.config import Config

from alembic import command
from heat_lite.conf import CONF

ALEMBIC_DIR = pathlib.Path(__file__).resolve().parents[2] / "alembic"


def alembic_config(url=None):
    config = Config(str(ALEMBIC_DIR / "alembic.ini"), ini_section="heat")
    config.set_main_option("script_location", str(ALEMBIC_DIR / "heat"))
    config.set_main_option("sqlalchemy.url", url or CONF.database.connection)
    return config


def db_sync(url=None, revision="head"):
    command.upgrade(alembic_config(url), revision)


def db_version(url=None):
    command.current(alembic_config(url))


def purge_deleted(args):
    """Remove the stacks soft-deleted longer ago than ``age`` (heat-manage's command)."""
    from heat_lite.common import exception
    from heat_lite.db import purge

    try:
        purged = purge.purge_deleted(args.age, args.granularity, args.project_id, args.batch_size)
    except exception.Error as ex:
        sys.exit("heat-lite-manage purge_deleted: %s" % ex)
    print("Purged %d deleted stacks." % len(purged))


def _parser():
    parser = argparse.ArgumentParser(prog="heat-lite-manage")
    parser.add_argument("--config-file", action="append", default=[])
    commands = parser.add_subparsers(dest="command", required=True)
    commands.add_parser("db_sync", help="Sync the database up to the most recent version.")
    commands.add_parser("db_version", help="Print out the db schema version.")
    purge = commands.add_parser(
        "purge_deleted", help="Remove database records that have been previously soft deleted."
    )
    purge.add_argument("age", nargs="?", default="90", help="How long to preserve deleted data.")
    purge.add_argument(
        "-g",
        "--granularity",
        default="days",
        choices=["days", "hours", "minutes", "seconds"],
        help="Granularity to use for age argument, defaults to days.",
    )
    purge.add_argument("-p", "--project-id", help="Project ID to purge deleted stacks.")
    purge.add_argument(
        "-b",
        "--batch_size",
        default="20",
        help="Number of stacks to delete at a time (per transaction).",
    )
    return parser


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = _parser().parse_args(argv)
    conf_args = [x for f in args.config_file for x in ("--config-file", f)]
    CONF(conf_args, project="heat", prog="heat-lite-manage", default_config_files=[])
    if args.command == "purge_deleted":
        purge_deleted(args)
        return
    {"db_sync": db_sync, "db_version": db_version}[args.command]()


if __name__ == "__main__":
    main()
