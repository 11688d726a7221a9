"""heat-lite-manage: create or upgrade heat-lite's schema (alembic), purge deleted stacks."""

import argparse
import pathlib
import sys

from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine
from sqlalchemy.engine import make_url

from alembic import command
from heat_lite.cmd import common
from heat_lite.conf import CONF

# alembic/heat, reached through the package (a link in a checkout, package data in a
# wheel), so an installed heat-lite-manage finds its migrations too
SCRIPT_LOCATION = pathlib.Path(__file__).resolve().parents[1] / "db" / "migrations"


def alembic_config(url=None):
    config = Config()
    config.set_main_option("script_location", str(SCRIPT_LOCATION))
    config.set_main_option("sqlalchemy.url", (url or CONF.database.connection).replace("%", "%%"))
    return config


def db_sync(url=None, revision="head"):
    command.upgrade(alembic_config(url), revision)


def current_revision(url=None):
    engine = create_engine(url or CONF.database.connection)
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def _shown_url():
    return make_url(CONF.database.connection).render_as_string(hide_password=True)


def _db_sync(args):
    before = current_revision()
    db_sync()
    after = current_revision()
    if before == after:
        print("heat database %s is up to date (revision %s)" % (_shown_url(), after))
    else:
        print("heat database %s upgraded from %s to %s" % (_shown_url(), before or "empty", after))


def _db_version(args):
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    revision = current_revision()
    print("%s (head: %s)" % (revision or "empty (run db_sync)", head))


def purge_deleted(args):
    """Remove the stacks soft-deleted longer ago than ``age`` (heat-manage's command)."""
    from heat_lite.common import exception
    from heat_lite.db import purge

    try:
        purged = purge.purge_deleted(args.age, args.granularity, args.project_id, args.batch_size)
    except exception.Error as ex:
        sys.exit("heat-lite-manage purge_deleted: %s" % ex)
    print("Purged %d deleted stacks." % len(purged))


COMMANDS = {
    "db_sync": (_db_sync, "create the schema, or upgrade it to the newest revision"),
    "db_version": (_db_version, "print the schema revision the database is at"),
    "purge_deleted": (purge_deleted, "remove stacks soft-deleted longer ago than AGE"),
}


def _parser():
    parser = argparse.ArgumentParser(
        prog="heat-lite-manage", description=__doc__.split(":", 1)[1].strip()
    )
    parser.add_argument("--config-file", action="append", default=[], help="heat.conf to read")
    commands = parser.add_subparsers(dest="command", required=True, metavar="command")
    for name, (_run, text) in COMMANDS.items():
        commands.add_parser(name, help=text, description=text)
    purge = commands.choices["purge_deleted"]
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


@common.console_script
def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    args = _parser().parse_args(argv)
    conf_args = [x for f in args.config_file for x in ("--config-file", f)]
    CONF(conf_args, project="heat", prog="heat-lite-manage", default_config_files=[])
    COMMANDS[args.command][0](args)


if __name__ == "__main__":
    main()
