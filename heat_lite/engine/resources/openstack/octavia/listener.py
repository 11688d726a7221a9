"""OS::Octavia::Listener: a protocol port of a load balancer."""

from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.resources.openstack.octavia import octavia_base

P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint

PROTOCOLS = ["TCP", "HTTP", "HTTPS", "TERMINATED_HTTPS", "PROXY", "UDP", "SCTP", "PROMETHEUS"]


class Listener(octavia_base.OctaviaBase):
    entity = "listener"
    protocols = PROTOCOLS
    loadbalancer_constraint = "octavia.loadbalancer"

    api_props = {
        "name": "name",
        "description": "description",
        "admin_state_up": "admin_state_up",
        "protocol": "protocol",
        "protocol_port": "protocol_port",
        "connection_limit": "connection_limit",
        "default_tls_container_ref": "default_tls_container_ref",
        "sni_container_refs": "sni_container_refs",
        "allowed_cidrs": "allowed_cidrs",
    }

    properties_schema = {
        "protocol_port": P(
            P.INTEGER,
            "TCP or UDP port on which to listen for client traffic.",
            required=True,
            constraints=[constraints.Range(1, 65535)],
        ),
        "protocol": P(
            P.STRING,
            "Protocol on which to listen for the client traffic.",
            required=True,
            constraints=[constraints.AllowedValues(PROTOCOLS)],
        ),
        "loadbalancer": P(
            P.STRING,
            "ID or name of the load balancer with which listener is associated.",
            required=True,
            constraints=[C("octavia.loadbalancer")],
        ),
        "default_pool": P(
            P.STRING,
            "ID or name of the default pool for the listener.",
            update_allowed=True,
            constraints=[C("octavia.pool")],
        ),
        "name": P(P.STRING, "Name of this listener.", update_allowed=True),
        "admin_state_up": P(
            P.BOOLEAN,
            "The administrative state of this listener.",
            default=True,
            update_allowed=True,
        ),
        "description": P(
            P.STRING, "Description of this listener.", default="", update_allowed=True
        ),
        "default_tls_container_ref": P(
            P.STRING, "Default TLS container reference.", update_allowed=True
        ),
        "sni_container_refs": P(
            P.LIST, "A list of references to TLS secrets.", update_allowed=True
        ),
        "connection_limit": P(
            P.INTEGER,
            "The maximum number of connections permitted for "
            "this load balancer. Defaults to -1, which is infinite.",
            default=-1,
            update_allowed=True,
            constraints=[constraints.Range(min=-1)],
        ),
        "tenant_id": P(P.STRING, "The ID of the tenant who owns the listener."),
        "allowed_cidrs": P(
            P.LIST,
            "A list of IPv4, IPv6 or mix of both CIDRs.",
            update_allowed=True,
            schema=P(P.STRING, constraints=[C("net_cidr")]),
        ),
    }
    attributes_schema = {
        "loadbalancers": A("ID of the load balancer this listener is associated to.", type=A.LIST),
        "default_pool_id": A(
            "ID of the default pool this listener is associated to.", type=A.STRING
        ),
    }

    def _loadbalancer_id(self):
        lb = self.properties["loadbalancer"]
        if not lb:
            raise ValueError("Property loadbalancer not assigned")
        return self.find("loadbalancer", lb)

    def _values(self, keys=None):
        values = super()._values(keys)
        if keys is None or "default_pool" in keys:
            values["default_pool_id"] = self.find("pool", self.properties["default_pool"])
        return values

    def _resolve_attribute(self, name, listener):
        if name == "loadbalancers":
            return [{"id": listener["loadbalancer_id"]}]
        return listener.get(name)


def resource_mapping():
    return {"OS::Octavia::Listener": Listener}
