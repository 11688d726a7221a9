"""OS::Neutron::LBaaS::LoadBalancer: Neutron LBaaS v2's load balancer, served by the same
load-balancing service as OS::Octavia::LoadBalancer (without flavors and zones)."""

from heat_lite.engine.resources.openstack.neutron import lbaas
from heat_lite.engine.resources.openstack.octavia import loadbalancer


class LoadBalancer(loadbalancer.LoadBalancer):
    support_status = lbaas.SUPPORT_STATUS
    properties_schema = {
        k: v
        for k, v in loadbalancer.LoadBalancer.properties_schema.items()
        if k not in ("flavor", "availability_zone")
    }
    attributes_schema = {
        k: v for k, v in loadbalancer.LoadBalancer.attributes_schema.items() if k != "flavor_id"
    }


def resource_mapping():
    return {"OS::Neutron::LBaaS::LoadBalancer": LoadBalancer}
