"""magnum-lite-db-manage: ``upgrade`` (alembic to head) and ``version`` of magnum's database.

``upgrade`` is the setup step: without ``[x509] encryption_key`` it also makes the random
secret that encrypts private keys at rest (``[x509] encryption_key_file``), once."""

import argparse
import sys

from magnum_lite.common import x509
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
        written = x509.setup_encryption_key()
        if written is not None:
            print("Made the key encrypting private keys at rest: %s" % written)
    else:
        migration.version(CONF.database.connection)


if __name__ == "__main__":
    main()
