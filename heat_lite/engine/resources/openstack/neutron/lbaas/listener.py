"""OS::Neutron::LBaaS::Listener: as OS::Octavia::Listener, without ``allowed_cidrs``."""

from heat_lite.engine import constraints
from heat_lite.engine.resources.openstack.neutron import lbaas
from heat_lite.engine.resources.openstack.octavia import listener

P, C = listener.P, listener.C
PROTOCOLS = ["TCP", "HTTP", "HTTPS", "TERMINATED_HTTPS"]


class Listener(listener.Listener):
    support_status = lbaas.SUPPORT_STATUS
    properties_schema = {
        k: v for k, v in listener.Listener.properties_schema.items() if k != "allowed_cidrs"
    }
    properties_schema.update(
        loadbalancer=P(
            P.STRING,
            "ID or name of the load balancer with which listener is associated.",
            required=True,
            constraints=[C("neutron.lbaas.loadbalancer")],
        ),
        protocol=P(
            P.STRING,
            "Protocol on which to listen for the client traffic.",
            required=True,
            constraints=[constraints.AllowedValues(PROTOCOLS)],
        ),
        default_pool=P(
            P.STRING,
            "ID or name of the default pool for the listener.",
            update_allowed=True,
            constraints=[C("neutron.lbaas.pool")],
        ),
    )


def resource_mapping():
    return {"OS::Neutron::LBaaS::Listener": Listener}
