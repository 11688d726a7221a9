"""OS::Octavia::HealthMonitor: how a pool checks its members."""

from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.resources.openstack.octavia import octavia_base

P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint

TYPES = ["PING", "TCP", "HTTP", "HTTPS", "UDP-CONNECT", "SCTP", "TLS-HELLO"]


def monitor_schema(types, prefix="octavia"):
    return {
        "admin_state_up": P(
            P.BOOLEAN,
            "The administrative state of the health monitor.",
            default=True,
            update_allowed=True,
        ),
        "delay": P(
            P.INTEGER,
            "The minimum time in milliseconds between regular connections of the member.",
            required=True,
            update_allowed=True,
            constraints=[constraints.Range(min=0)],
        ),
        "expected_codes": P(
            P.STRING,
            "The HTTP status codes expected in response from the member to declare it healthy.",
            update_allowed=True,
        ),
        "http_method": P(
            P.STRING,
            "The HTTP method used for requests by the monitor of type HTTP.",
            update_allowed=True,
        ),
        "max_retries": P(
            P.INTEGER,
            "Number of permissible connection failures before changing "
            "the member status to INACTIVE.",
            required=True,
            update_allowed=True,
            constraints=[constraints.Range(1, 10)],
        ),
        "pool": P(
            P.STRING,
            "ID or name of the load balancing pool.",
            required=True,
            constraints=[C(prefix + ".pool")],
        ),
        "timeout": P(
            P.INTEGER,
            "Maximum number of milliseconds for a monitor to wait for a "
            "connection to be established before it times out.",
            required=True,
            update_allowed=True,
            constraints=[constraints.Range(min=0)],
        ),
        "type": P(
            P.STRING,
            "One of predefined health monitor types.",
            required=True,
            constraints=[constraints.AllowedValues(types)],
        ),
        "url_path": P(
            P.STRING,
            "The HTTP path used in the HTTP request used by the monitor to test a member health.",
            update_allowed=True,
        ),
        "tenant_id": P(P.STRING, "ID of the tenant who owns the health monitor."),
    }


class HealthMonitor(octavia_base.PoolChild):
    entity = "healthmonitor"

    api_props = {
        "admin_state_up": "admin_state_up",
        "delay": "delay",
        "expected_codes": "expected_codes",
        "http_method": "http_method",
        "max_retries": "max_retries",
        "timeout": "timeout",
        "type": "type",
        "url_path": "url_path",
    }
    properties_schema = monitor_schema(TYPES)
    attributes_schema = {
        "pools": A("The list of Pools related to this monitor.", type=A.LIST),
    }

    def _resolve_attribute(self, name, monitor):
        if name == "pools":
            return [{"id": monitor["pool_id"]}]
        return monitor.get(name)


def resource_mapping():
    return {"OS::Octavia::HealthMonitor": HealthMonitor}
