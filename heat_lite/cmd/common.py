"""What every heat-lite console script does before it starts its services.

Each script monkey-patches eventlet as its very first statement (so every thread below is
a green thread), then calls ``prepare`` to read the config, set up logging, the database
and the message transport, and ``serve_forever`` to run until SIGTERM/SIGINT.

    conf = common.prepare(sys.argv[1:], 'heat-lite-worker', __doc__)
    ...start services...
    common.serve_forever(stop_callbacks)

``main`` functions are wrapped in ``console_script``: a start-up failure whose cause is known
(a missing database or schema, a missing RabbitMQ vhost, a taken port) is one line on
stderr saying what is wrong and how to fix it, and exit status 1; ``--debug`` shows the
traceback as well.
"""

import functools
import gc
import logging
import signal
import sys
import threading

from oslo_config import cfg

from heat_lite.cmd import startup_errors
from heat_lite.common import messaging
from heat_lite.conf import CONF
from heat_lite.db import api as db_api

CONF.register_cli_opt(
    cfg.BoolOpt("debug", short="d", default=False, help="Log at DEBUG level; show tracebacks.")
)


def prepare(argv, prog, description=None, default_config_files=None, transport_url=None):
    messaging.set_defaults()
    CONF(
        argv,
        project="heat",
        prog=prog,
        description=description,
        default_config_files=default_config_files or [],
    )
    logging.basicConfig(
        level=logging.DEBUG if CONF.debug else logging.INFO,
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
    tune_gc()
    return CONF


# Python's cyclic garbage collector, as tuned for a long-running service: the objects
# of start-up (modules, configuration, plugins) are frozen out of its scans, and a young
# collection waits for 50,000 new container objects instead of 700. With the defaults a
# worker decoding a 1000-layer graph (2.5 MB of JSON, 270,000 small lists) spent 0.27 s
# in json.loads, 0.04 s of it decoding (the rest was collections scanning the heap
# again and again); over a 1000-layer create and delete the workers' CPU went 15.4 ->
# 12.6 s, the 1000 chain's 11.2-11.6 -> 8.3-10.8 s, and the API's p99 under 10
# polling clients 243/288/470 -> 179/204/378 ms (list/show/resources).
GC_THRESHOLDS = (50000, 20, 100)

# how soon a SIGTERM is acted on: the signal handler only sets an event, which a
# green wait does not always notice before its timeout (1 s made every stop ~1 s longer)
SIGNAL_POLL_S = 0.1


def tune_gc():
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


def serve_forever(on_stop=()):
    """Block until SIGTERM or SIGINT, then run each stop callback in order."""
    done = threading.Event()

    def handler(signum, frame):
        done.set()

    signal.signal(signal.SIGTERM, handler)
    signal.signal(signal.SIGINT, handler)
    while not done.wait(SIGNAL_POLL_S):
        pass
    log = logging.getLogger(__name__)
    for stop in on_stop:
        try:
            stop()
        except Exception:
            log.exception("Error while stopping")
    messaging.cleanup()
    log.info("%s stopped", CONF.prog or "heat-lite")


def console_script(main):
    """Run ``main``; a known start-up failure becomes one line on stderr and exit status 1."""

    @functools.wraps(main)
    def run(argv=None):
        try:
            return main(argv)
        except Exception as exc:
            message = startup_errors.explain(exc, CONF)
            if message is None or _debug_requested(argv):
                raise
            prog = main.__module__.rsplit(".", 1)[-1]
            sys.stderr.write("heat-lite-%s: %s\n" % (prog, message))
            sys.exit(1)

    return run


def _debug_requested(argv):
    args = sys.argv[1:] if argv is None else argv
    try:
        return bool(CONF.debug) or "--debug" in args or "-d" in args
    except cfg.Error:
        return "--debug" in args or "-d" in args
