"""magnum-lite's API and conductor in one process (the magnum child of magnum-lite-all).

With the in-process transport (``fake://``) RPC reaches only the same process, so the API
and the conductor that serves it must share one: this is that process. Heat's
notifications cannot reach it from another process then; the conductor learns a stack's
end from its periodic sync (``sync_cluster_status_interval``). On RabbitMQ it serves the
same, and listens to Heat's notifications as magnum-lite-conductor does.

    python -m magnum_lite.cmd.api_conductor --config-file magnum.conf
"""

import eventlet

eventlet.monkey_patch()

import sys  # noqa: E402

from magnum_lite.cmd import api, common, conductor  # noqa: E402


def main(argv=None):
    conf = common.prepare(sys.argv[1:] if argv is None else argv, "magnum-lite-api-conductor")
    stops = conductor.start(conf)
    server = api.start_server(conf)
    common.serve_forever([server.kill, *stops])


if __name__ == "__main__":
    main()
