"""OS::Neutron::LBaaS::Pool: as OS::Octavia::Pool, with LBaaS v2's algorithms/protocols."""

from heat_lite.engine.resources.openstack.octavia import pool


class Pool(pool.Pool):
    properties_schema = pool.pool_schema(
        ["ROUND_ROBIN", "LEAST_CONNECTIONS", "SOURCE_IP"],
        ["TCP", "HTTP", "HTTPS"],
        prefix="neutron.lbaas",
    )


def resource_mapping():
    return {"OS::Neutron::LBaaS::Pool": Pool}
