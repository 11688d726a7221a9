"""OS::Neutron::LBaaS::LoadBalancer: Neutron LBaaS v2's load balancer (``vip_subnet``
required), served by the same load-balancing service as OS::Octavia::LoadBalancer."""

from heat_lite.engine.resources.openstack.neutron import lbaas
from heat_lite.engine.resources.openstack.octavia import loadbalancer

_OCTAVIA_ONLY = ("vip_network", "vip_qos_policy", "flavor", "availability_zone")


class LoadBalancer(loadbalancer.LoadBalancer):
    support_status = lbaas.SUPPORT_STATUS
    properties_schema = {
        k: v
        for k, v in loadbalancer.LoadBalancer.properties_schema.items()
        if k not in _OCTAVIA_ONLY
    }
    properties_schema["vip_subnet"] = loadbalancer.P(
        loadbalancer.P.STRING,
        "The name or ID of the subnet on which to allocate the VIP address.",
        required=True,
        constraints=[loadbalancer.C("neutron.subnet")],
    )
    attributes_schema = {
        k: v
        for k, v in loadbalancer.LoadBalancer.attributes_schema.items()
        if k in ("vip_address", "vip_port_id", "vip_subnet_id", "pools", "listeners")
    }


def resource_mapping():
    return {"OS::Neutron::LBaaS::LoadBalancer": LoadBalancer}
