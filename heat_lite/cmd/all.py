"""heat-lite-all: API, engine and a worker in one process (as Heat has heat-all).

With no arguments it runs on the embedded default: SQLite in ./heat.sqlite and an
in-process transport, the API on 127.0.0.1:8004. With ``--config-file`` it uses what the
file says (PostgreSQL, RabbitMQ). The code paths are those of the separate processes.
"""

import eventlet

eventlet.monkey_patch()

import sys  # noqa: E402
import uuid  # noqa: E402

from heat_lite.cmd import api, common, manage  # noqa: E402
from heat_lite.engine import clients, resources, service, worker  # noqa: E402


@common.console_script
def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    embedded = not any(a.startswith("--config-file") or a.startswith("--config-dir") for a in argv)
    conf = common.prepare(
        argv, "heat-lite-all", __doc__, transport_url="fake://" if embedded else None
    )
    manage.db_sync()
    engine_id = str(uuid.uuid4())
    engine = service.EngineService(conf.host, engine_id)
    workers = worker.WorkerService(conf.host, engine_id)
    clients.load_plugins()
    resources.initialise()
    engine.start()
    workers.start()
    server = api.start_server(conf)
    common.serve_forever([server.kill, workers.stop, engine.stop])


if __name__ == "__main__":
    main()
