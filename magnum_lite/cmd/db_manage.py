"""magnum-lite-db-manage: ``upgrade`` (alembic to head) and ``version`` of magnum's database."""

import argparse
import sys

from magnum_lite.conf import CONF
from magnum_lite.db import migration


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(prog="magnum-lite-db-manage")
    parser.add_argument("--config-file", action="append", default=[])
    parser.add_argument("command", choices=["upgrade", "version"])
    parser.add_argument("revision", nargs="?", default="head")
    args = parser.parse_args(argv)
    conf_args = [x for f in args.config_file for x in ("--config-file", f)]
    CONF(conf_args, project="magnum", prog="magnum-lite-db-manage", default_config_files=[])
    if args.command == "upgrade":
        migration.upgrade(CONF.database.connection, args.revision)
    else:
        migration.version(CONF.database.connection)


if __name__ == "__main__":
    main()
