"""heat-lite-worker: a convergence worker (topic ``engine_worker``); run as many as you like."""

import eventlet

eventlet.monkey_patch()

import sys  # noqa: E402
import uuid  # noqa: E402

from heat_lite.cmd import common  # noqa: E402
from heat_lite.engine import clients, resources, worker  # noqa: E402


@common.console_script
def main(argv=None):
    conf = common.prepare(sys.argv[1:] if argv is None else argv, "heat-lite-worker", __doc__)
    service = worker.WorkerService(conf.host, str(uuid.uuid4()))
    clients.load_plugins()
    resources.initialise()
    service.start()
    common.serve_forever([service.stop])


if __name__ == "__main__":
    main()
