"""What every heat-lite console script does before it starts its services.

Each script monkey-patches eventlet as its very first statement (so every thread below is
a green thread), then calls ``prepare`` to read the config, set up logging, the database
and the message transport, and ``serve_forever`` to run until SIGTERM/SIGINT.

    conf = common.prepare(sys.argv[1:], 'heat-lite-worker')
    ...start services...
    common.serve_forever(stop_callbacks)
"""

import logging
import signal
import threading

from heat_lite.common import messaging
from heat_lite.conf import CONF
from heat_lite.db import api as db_api


def prepare(argv, prog, default_config_files=None, transport_url=None):
    messaging.set_defaults()
    CONF(argv, project="heat", prog=prog, default_config_files=default_config_files or [])
    logging.basicConfig(
        level=logging.INFO,
        format="%(asctime)s %(process)d %(levelname)s %(name)s %(message)s",
    )
    for noisy in ("oslo_messaging", "kombu", "amqp", "oslo.messaging"):
        logging.getLogger(noisy).setLevel(logging.WARNING)
    if CONF.database.connection.startswith("postgresql"):
        from psycogreen.eventlet import patch_psycopg

        patch_psycopg()
    db_api.configure(
        CONF.database.connection, CONF.database.max_pool_size, CONF.database.max_overflow
    )
    messaging.setup(transport_url)
    return CONF


def serve_forever(on_stop=()):
    """Block until SIGTERM or SIGINT, then run each stop callback in order."""
    done = threading.Event()

    def handler(signum, frame):
        done.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    while not done.wait(1):
        pass
    for stop in on_stop:
        try:
            stop()
        except Exception:
            logging.getLogger(__name__).exception("Error while stopping")
    messaging.cleanup()
