"""OS::Neutron::LBaaS::Pool: as OS::Octavia::Pool, with LBaaS v2's algorithms/protocols."""

from heat_lite.engine.resources.openstack.neutron import lbaas
from heat_lite.engine.resources.openstack.octavia import pool


class Pool(pool.Pool):
    support_status = lbaas.SUPPORT_STATUS
    properties_schema = pool.pool_schema(
        ["ROUND_ROBIN", "LEAST_CONNECTIONS", "SOURCE_IP"],
        ["TCP", "HTTP", "HTTPS"],
        prefix="neutron.lbaas",
    )


def resource_mapping():
    return {"OS::Neutron::LBaaS::Pool": Pool}
