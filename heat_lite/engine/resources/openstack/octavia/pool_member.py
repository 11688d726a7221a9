"""OS::Octavia::PoolMember: one backend address of a pool."""

from heat_lite.engine import constraints, properties
from heat_lite.engine.clients import client_exception
from heat_lite.engine.resources.openstack.octavia import octavia_base

P = properties.Schema
C = constraints.CustomConstraint


def member_schema(prefix="octavia"):
    return {
        "pool": P(
            P.STRING,
            "Name or ID of the load balancing pool.",
            required=True,
            constraints=[C(prefix + ".pool")],
        ),
        "address": P(
            P.STRING,
            "IP address of the pool member on the pool network.",
            required=True,
            constraints=[C("ip_addr")],
        ),
        "protocol_port": P(
            P.INTEGER,
            "Port on which the pool member listens for requests or connections.",
            required=True,
            constraints=[constraints.Range(1, 65535)],
        ),
        "weight": P(
            P.INTEGER,
            "Weight of pool member in the pool (default to 1).",
            default=1,
            update_allowed=True,
            constraints=[constraints.Range(0, 256)],
        ),
        "admin_state_up": P(
            P.BOOLEAN,
            "The administrative state of the pool member.",
            default=True,
            update_allowed=True,
        ),
        "subnet": P(
            P.STRING, "Subnet name or ID of this member.", constraints=[C("neutron.subnet")]
        ),
    }


class PoolMember(octavia_base.PoolChild):
    entity = "member"

    api_props = {
        "address": "address",
        "protocol_port": "protocol_port",
        "weight": "weight",
        "admin_state_up": "admin_state_up",
        "monitor_address": "monitor_address",
        "monitor_port": "monitor_port",
    }
    properties_schema = dict(
        member_schema(),
        monitor_address=P(
            P.STRING,
            "Alternate IP address which health monitor can use for health check.",
            constraints=[C("ip_addr")],
        ),
        monitor_port=P(
            P.INTEGER,
            "Alternate Port which health monitor can use for health check.",
            constraints=[constraints.Range(1, 65535)],
        ),
        tags=P(P.LIST, "A list of simple strings assigned to the resource.", update_allowed=True),
    )

    def _values(self, keys=None):
        values = super()._values(keys)
        if keys is None:
            subnet = self.properties["subnet"]
            values["subnet_id"] = (
                self.client_plugin("neutron").find_resourceid_by_name_or_id("subnet", subnet)
                if subnet
                else None
            )
        return values

    def handle_create(self):
        values = self._values()
        obj = self.client_plugin().create_child("member", "", self._loadbalancer_id(), **values)
        self.resource_id_set(obj["id"])

    # a member is reached through its pool, as Heat's member_show(pool_id, member_id)

    def _show_resource(self):
        return self.client_plugin().show_member(self._pool_id(), self.resource_id)

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_member(self._pool_id(), resource_id)

    def check_delete_complete(self, resource_id):
        if resource_id is None:
            return True
        try:
            self.client_plugin().show_member(self._pool_id(), resource_id)
        except client_exception.NotFound:
            return True
        return False


def resource_mapping():
    return {"OS::Octavia::PoolMember": PoolMember}
