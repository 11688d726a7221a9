"""heat-lite-api: the orchestration REST API (python-heatclient compatible) on port 8004."""

import eventlet

eventlet.monkey_patch()

import logging  # noqa: E402
import sys  # noqa: E402

import eventlet.wsgi  # noqa: E402

from heat_lite.api import app as wsgi_app  # noqa: E402
from heat_lite.cmd import common  # noqa: E402

LOG = logging.getLogger(__name__)


def start_server(conf):
    """Serve the API in a green thread; returns the green thread."""
    # reuse_port=False: a second API on a taken port must fail, not share it silently
    sock = eventlet.listen((conf.heat_api.bind_host, conf.heat_api.bind_port), reuse_port=False)
    LOG.info("heat-lite-api listening on %s:%s", conf.heat_api.bind_host, conf.heat_api.bind_port)
    application = wsgi_app.setup_app(conf)
    # debug=False: an error that escapes the application is a bare 500, not eventlet's
    # default answer of the Python traceback as the body
    return eventlet.spawn(
        eventlet.wsgi.server, sock, application, log_output=False, max_size=1024, debug=False
    )


@common.console_script
def main(argv=None):
    conf = common.prepare(sys.argv[1:] if argv is None else argv, "heat-lite-api", __doc__)
    server = start_server(conf)
    common.serve_forever([server.kill])


if __name__ == "__main__":
    main()
