"""heat-lite-engine: the stack lifecycle RPC server (topic ``engine``), serving the
engine's endpoints (heat_lite.engine.service.endpoints), and the convergence watchdog."""

import eventlet

eventlet.monkey_patch()

import sys  # noqa: E402
import uuid  # noqa: E402

from heat_lite.cmd import common  # noqa: E402
from heat_lite.engine import clients, resources, service  # noqa: E402


@common.console_script
def main(argv=None):
    conf = common.prepare(sys.argv[1:] if argv is None else argv, "heat-lite-engine", __doc__)
    engine_id = str(uuid.uuid4())
    engine = service.EngineService(conf.host, engine_id, endpoints=service.endpoints(engine_id))
    clients.load_plugins()
    resources.initialise()
    engine.start()
    common.serve_forever([engine.stop])


if __name__ == "__main__":
    main()
