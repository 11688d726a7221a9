"""simcloud-api: the simulated cloud's services on one port (default 8080)."""

import eventlet

eventlet.monkey_patch()

import logging  # noqa: E402
import signal  # noqa: E402
import sys  # noqa: E402

import eventlet.wsgi  # noqa: E402
from sqlalchemy import exc as sa_exc  # noqa: E402

from simcloud.api import app as wsgi_app  # noqa: E402
from simcloud.cmd import common  # noqa: E402

LOG = logging.getLogger(__name__)


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
    server = eventlet.spawn(
        eventlet.wsgi.server, sock, application, log_output=False, max_size=1024
    )

    def stop(signum, frame):
        server.kill()

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        server.wait()
    except eventlet.greenlet.GreenletExit:
        pass
    LOG.info("simcloud-api stopped")


if __name__ == "__main__":
    main()
