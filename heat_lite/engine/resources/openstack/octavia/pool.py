"""OS::Octavia::Pool: the members behind a listener (or a load balancer)."""

from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.resources.openstack.octavia import octavia_base

P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint

ALGORITHMS = ["ROUND_ROBIN", "LEAST_CONNECTIONS", "SOURCE_IP", "SOURCE_IP_PORT"]
PROTOCOLS = ["TCP", "HTTP", "HTTPS", "TERMINATED_HTTPS", "PROXY", "UDP", "SCTP"]


def pool_schema(algorithms, protocols, prefix="octavia"):
    return {
        "admin_state_up": P(
            P.BOOLEAN, "The administrative state of this pool.", default=True, update_allowed=True
        ),
        "description": P(P.STRING, "Description of this pool.", default="", update_allowed=True),
        "session_persistence": P(
            P.MAP,
            "Configuration of session persistence.",
            update_allowed=True,
            schema={
                "type": P(
                    P.STRING,
                    "Method of implementation of session persistence feature.",
                    required=True,
                    constraints=[
                        constraints.AllowedValues(["SOURCE_IP", "HTTP_COOKIE", "APP_COOKIE"])
                    ],
                ),
                "cookie_name": P(P.STRING, "Name of the cookie, required if type is APP_COOKIE."),
            },
        ),
        "name": P(P.STRING, "Name of this pool.", update_allowed=True),
        "lb_algorithm": P(
            P.STRING,
            "The algorithm used to distribute load between the members of the pool.",
            required=True,
            update_allowed=True,
            constraints=[constraints.AllowedValues(algorithms)],
        ),
        "listener": P(
            P.STRING,
            "Listener name or ID to be associated with this pool.",
            constraints=[C(prefix + ".listener")],
        ),
        "loadbalancer": P(
            P.STRING,
            "Loadbalancer name or ID to be associated with this pool.",
            constraints=[C(prefix + ".loadbalancer")],
        ),
        "protocol": P(
            P.STRING,
            "Protocol of the pool.",
            required=True,
            constraints=[constraints.AllowedValues(protocols)],
        ),
    }


class Pool(octavia_base.OctaviaBase):
    entity = "pool"

    api_props = {
        "name": "name",
        "description": "description",
        "admin_state_up": "admin_state_up",
        "lb_algorithm": "lb_algorithm",
        "protocol": "protocol",
        "session_persistence": "session_persistence",
        "tls_enabled": "tls_enabled",
    }
    properties_schema = dict(
        pool_schema(ALGORITHMS, PROTOCOLS),
        tls_enabled=P(
            P.BOOLEAN, "Enable backend member re-encryption.", default=False, update_allowed=True
        ),
    )
    attributes_schema = {
        "healthmonitor_id": A("ID of the health monitor associated with this pool.", type=A.STRING),
        "listeners": A("Listener associated with this pool.", type=A.STRING),
        "members": A("Members associated with this pool.", type=A.LIST),
    }

    def _loadbalancer_id(self):
        listener, lb = self.properties["listener"], self.properties["loadbalancer"]
        if not listener and not lb:
            raise ValueError(
                "At least one of the following properties must be specified: "
                "listener, loadbalancer."
            )
        if lb:
            return self.find("loadbalancer", lb)
        return self.loadbalancer_of("listener", listener)

    def _values(self, keys=None):
        values = super()._values(keys)
        if keys is None:
            values["listener_id"] = self.find("listener", self.properties["listener"])
        return values

    def handle_create(self):
        super().handle_create()
        listener_id = self.find("listener", self.properties["listener"])
        if listener_id:
            self.client_plugin().update("listener", listener_id, default_pool_id=self.resource_id)

    def _resolve_attribute(self, name, pool):
        plugin = self.client_plugin()
        if name == "healthmonitor_id":
            monitors = plugin.list("healthmonitor", pool_id=pool["id"])
            return monitors[0]["id"] if monitors else None
        if name == "listeners":
            return [{"id": pool["listener_id"]}] if pool.get("listener_id") else []
        if name == "members":
            return [m["id"] for m in plugin.list("member", pool_id=pool["id"])]
        return pool.get(name)


def resource_mapping():
    return {"OS::Octavia::Pool": Pool}
