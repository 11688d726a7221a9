"""OS::Octavia::LoadBalancer: PENDING_CREATE -> ACTIVE; its VIP is a port on ``vip_subnet``."""

from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.resources.openstack.octavia import octavia_base

P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint


class LoadBalancer(octavia_base.OctaviaBase):
    entity = "loadbalancer"

    properties_schema = {
        "name": P(P.STRING, "Name of this Load Balancer.", update_allowed=True),
        "description": P(
            P.STRING, "Description of this Load Balancer.", default="", update_allowed=True
        ),
        "admin_state_up": P(
            P.BOOLEAN,
            "The administrative state of this Load Balancer.",
            default=True,
            update_allowed=True,
        ),
        "vip_subnet": P(
            P.STRING,
            "The name or ID of the subnet on which to allocate the VIP address.",
            required=True,
            constraints=[C("neutron.subnet")],
        ),
        "vip_address": P(P.STRING, "IP address for the VIP.", constraints=[C("ip_addr")]),
        "provider": P(P.STRING, "Provider for this Load Balancer."),
        "tenant_id": P(P.STRING, "The ID of the tenant who owns the Load Balancer."),
        "flavor": P(P.STRING, "The name or ID of the flavor of the Load Balancer."),
        "availability_zone": P(P.STRING, "The availability zone of the Load Balancer."),
    }
    attributes_schema = {
        "vip_address": A("The VIP address of the LoadBalancer.", type=A.STRING),
        "vip_port_id": A("The VIP port of the LoadBalancer.", type=A.STRING),
        "vip_subnet_id": A("The VIP subnet of the LoadBalancer.", type=A.STRING),
        "pools": A("Pools this LoadBalancer is associated with.", type=A.LIST),
        "flavor_id": A("The flavor ID of the LoadBalancer.", type=A.STRING),
    }

    def handle_create(self):
        props = self.properties
        neutron = self.client_plugin("neutron")
        lb = self.client_plugin().create_loadbalancer(
            self.created_name(),
            vip_subnet_id=neutron.find_resourceid_by_name_or_id("subnet", props["vip_subnet"]),
            vip_address=props["vip_address"],
            description=props["description"],
            admin_state_up=props["admin_state_up"],
            provider=props["provider"] or "amphora",
            flavor_id=props.get("flavor"),
            availability_zone=props.get("availability_zone"),
        )
        self.resource_id_set(lb["id"])

    def handle_update(self, new_defn, prop_diff):
        self.client_plugin().update(
            "loadbalancer",
            self.resource_id,
            name=self.properties["name"],
            description=self.properties["description"],
            admin_state_up=self.properties["admin_state_up"],
        )

    def _resolve_attribute(self, name, lb):
        plugin = self.client_plugin()
        if name == "pools":
            return [{"id": o["id"]} for o in plugin.list("pool", loadbalancer_id=lb["id"])]
        return lb.get(name)

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_loadbalancer(resource_id)


def resource_mapping():
    return {"OS::Octavia::LoadBalancer": LoadBalancer}
