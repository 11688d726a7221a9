"""magnum-lite-api: the container-infra REST API (python-magnumclient compatible), port 9511."""

import eventlet

eventlet.monkey_patch()

import logging  # noqa: E402
import sys  # noqa: E402

import eventlet.wsgi  # noqa: E402

from magnum_lite.api import app as wsgi_app  # noqa: E402
from magnum_lite.cmd import common  # noqa: E402

LOG = logging.getLogger(__name__)


def start_server(conf):
    """Serve the API in a green thread; returns the green thread."""
    sock = eventlet.listen((conf.api.host, conf.api.port))
    LOG.info("magnum-lite-api listening on %s:%s", conf.api.host, conf.api.port)
    application = wsgi_app.setup_app()
    # debug=False: an error that escapes the application is a bare 500, not eventlet's
    # default answer of the Python traceback as the body
    return eventlet.spawn(
        eventlet.wsgi.server, sock, application, log_output=False, max_size=1024, debug=False
    )


def main(argv=None):
    conf = common.prepare(sys.argv[1:] if argv is None else argv, "magnum-lite-api")
    server = start_server(conf)
    common.serve_forever([server.kill])


if __name__ == "__main__":
    main()
