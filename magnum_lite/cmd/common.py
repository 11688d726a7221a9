"""What every magnum-lite console script does before it starts its services.

Each script monkey-patches eventlet as its very first statement (every thread below is a
green thread), then ``prepare`` reads magnum.conf, sets up logging, the database and the
RPC transport, and ``serve_forever`` runs until SIGTERM/SIGINT.

    conf = common.prepare(sys.argv[1:], 'magnum-lite-conductor')
    ...start services...
    common.serve_forever([server.stop])
"""

import logging
import signal
import threading

from magnum_lite.common import rpc
from magnum_lite.conf import CONF
from magnum_lite.db import api as db_api

# how soon a SIGTERM is acted on: the signal handler only sets an event, which a
# green wait does not always notice before its timeout (1 s made every stop ~1 s longer)
SIGNAL_POLL_S = 0.1


def prepare(argv, prog):
    CONF(argv, project="magnum", prog=prog, default_config_files=[])
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(process)d %(levelname)s %(name)s %(message)s",
    )
    for noisy in ("oslo_messaging", "kombu", "amqp", "oslo.messaging", "keystoneauth", "urllib3"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    if CONF.database.connection.startswith("postgresql"):
        from psycogreen.eventlet import patch_psycopg

        patch_psycopg()
    db_api.configure(
        CONF.database.connection, CONF.database.max_pool_size, CONF.database.max_overflow
    )
    rpc.init(CONF)
    return CONF


def serve_forever(on_stop=()):
    """Block until SIGTERM or SIGINT, then run each stop callback in order."""
    done = threading.Event()

    def handler(signum, frame):
        done.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    while not done.wait(SIGNAL_POLL_S):
        pass
    for stop in on_stop:
        try:
            stop()
        except Exception:
            logging.getLogger(__name__).exception("Error while stopping")
    rpc.cleanup()
