"""simcloud's own admin endpoint: failure and latency injection at run time.

    GET    /simcloud/v1/injection       the settings in force
    PUT    /simcloud/v1/injection       {"build_time": 2, "fail_objects": ["nova.server:*"],
                                         "fail_marker": "sim-fail",
                                         "api_latency": {"compute": 0.2}}
                                        (only the keys given change; null: back to config)
    DELETE /simcloud/v1/injection       every setting back to the config file

Admin role required. Kinds of ``fail_objects``: nova.server, cinder.volume,
octavia.loadbalancer, neutron.net, neutron.port, ... (``<service>.<entity>``); services of
``api_latency``: identity, compute, image, network, volume, load-balancer.
"""

from simcloud.api import router
from simcloud.cloud import injection
from simcloud.common import exception


def _admin(req):
    if not req.context.is_admin:
        raise exception.Forbidden("Only an admin may change the simulation.")


def show(req):
    _admin(req)
    return 200, {"injection": injection.current()}


def update(req):
    _admin(req)
    return 200, {"injection": injection.update(req.member("injection"))}


def reset(req):
    _admin(req)
    return 200, {"injection": injection.reset()}


service = router.Service(
    "admin",
    routes=[
        ("GET", "v1/injection", show),
        ("PUT", "v1/injection", update),
        ("DELETE", "v1/injection", reset),
    ],
    render_error=router.keystone_error,
)
