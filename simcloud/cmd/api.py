"""simcloud-api: the simulated cloud's services on one port (default 8080)."""

import eventlet

eventlet.monkey_patch()

import logging  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402
import threading  # noqa: E402

import eventlet.wsgi  # noqa: E402
from sqlalchemy import exc as sa_exc  # noqa: E402

from simcloud.api import app as wsgi_app  # noqa: E402
from simcloud.cmd import common  # noqa: E402

LOG = logging.getLogger(__name__)

# how soon a SIGTERM is acted on: the signal handler only sets an event, which a
# green wait does not always notice before its timeout (1 s made every stop ~1 s longer)
SIGNAL_POLL_S = 0.1


def main(argv=None):
    conf = common.prepare(sys.argv[1:] if argv is None else argv, "simcloud-api")
    try:
        application = wsgi_app.setup_app()
    except sa_exc.SQLAlchemyError as exc:
        LOG.error(
            "simcloud's database is not ready (run simcloud-manage db_sync): %s",
            str(exc).splitlines()[0],
        )
        sys.exit(1)
    sock = eventlet.listen((conf.api.bind_host, conf.api.bind_port))
    LOG.info("simcloud-api listening on %s:%s", conf.api.bind_host, conf.api.bind_port)
    # debug=False: an error that escapes the application is a bare 500, not eventlet's
    # default answer of the Python traceback as the body
    server = eventlet.spawn(
        eventlet.wsgi.server, sock, application, log_output=False, max_size=1024, debug=False
    )

    # the handler only sets the event: a green thread killed from a signal handler (which
    # runs in the hub) is not always woken, and the process then ignored SIGTERM
    stopping = threading.Event()

    def stop(signum, frame):
        stopping.set()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    while not stopping.wait(SIGNAL_POLL_S) and not server.dead:
        pass
    server.kill()
    LOG.info("simcloud-api stopped")


if __name__ == "__main__":
    main()
