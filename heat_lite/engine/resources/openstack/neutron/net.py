"""OS::Neutron::Net: a network (``subnets``, ``mtu``, ``status`` attributes)."""

from heat_lite.engine import attributes, properties
from heat_lite.engine.resources.openstack.neutron import neutron

P = properties.Schema
A = attributes.Schema


class Net(neutron.NeutronResource):
    entity = "net"

    properties_schema = {
        "name": P(
            P.STRING,
            "A string specifying a symbolic name for the network, which is "
            "not required to be unique.",
            update_allowed=True,
        ),
        "value_specs": neutron.value_specs_schema(),
        "admin_state_up": P(
            P.BOOLEAN,
            "A boolean value specifying the administrative status of the network.",
            default=True,
            update_allowed=True,
        ),
        "tenant_id": P(P.STRING, "The ID of the tenant which will own the network."),
        "availability_zone_hints": P(
            P.LIST,
            "Availability zone candidates for the network. It requires the availability_zone "
            "extension to be available.",
        ),
        "shared": P(
            P.BOOLEAN,
            "Whether this network should be shared across all tenants.",
            default=False,
            update_allowed=True,
        ),
        "dhcp_agent_ids": P(
            P.LIST, "The IDs of the DHCP agent to schedule the network.", update_allowed=True
        ),
        "port_security_enabled": P(
            P.BOOLEAN, "Flag to enable/disable port security on the network.", update_allowed=True
        ),
        "qos_policy": P(
            P.STRING, "The name or ID of QoS policy to attach to this network.", update_allowed=True
        ),
        "dns_domain": P(P.STRING, "DNS domain associated with this network.", update_allowed=True),
        "tags": P(
            P.LIST, "The tags to be added to the network.", schema=P(P.STRING), update_allowed=True
        ),
    }
    attributes_schema = {
        "status": A("The status of the network.", type=A.STRING),
        "name": A("The name of the network.", type=A.STRING),
        "subnets": A("Subnets of this network.", type=A.LIST),
        "admin_state_up": A("The administrative status of the network.", type=A.STRING),
        "tenant_id": A("The tenant owning this network.", type=A.STRING),
        "port_security_enabled": A("Port security enabled of the network.", type=A.BOOLEAN),
        "mtu": A("The maximum transmission unit size(in bytes) for the network.", type=A.INTEGER),
        "qos_policy_id": A("The QoS policy ID attached to this network.", type=A.STRING),
        "l2_adjacency": A("A boolean value for L2 adjacency.", type=A.BOOLEAN),
        "segments": A("The segments of this network.", type=A.LIST),
    }

    def _attrs(self):
        props = self.properties
        return dict(
            self.value_specs(),
            admin_state_up=props["admin_state_up"],
            port_security_enabled=props["port_security_enabled"] is not False,
            dns_domain=props["dns_domain"],
            tags=props["tags"] or [],
            qos_policy_id=props["qos_policy"],
        )

    def handle_create(self):
        net = self.client_plugin().create_net(
            self.created_name(),
            shared=self.properties["shared"],
            **self._attrs(),
        )
        self.resource_id_set(net["id"])

    def handle_update(self, new_defn, prop_diff):
        self.client_plugin().update(
            "net",
            self.resource_id,
            name=self.created_name(),
            shared=self.properties["shared"],
            **self._attrs(),
        )

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_net(resource_id)


def resource_mapping():
    return {"OS::Neutron::Net": Net}
