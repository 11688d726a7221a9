"""OS::Neutron::FloatingIP: an address of an external network, optionally on a port.

The address comes from the external network's subnet; associating it needs a router
between that network and the port's subnet (Neutron's rule).
"""

import logging

from heat_lite.engine import attributes, clients, constraints, properties
from heat_lite.engine.resources.openstack import implicit
from heat_lite.engine.resources.openstack.neutron import neutron, port, router

LOG = logging.getLogger(__name__)
P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint


class FloatingIP(neutron.NeutronResource):
    entity = "floatingip"
    one_of = (("floating_network", "floating_network_id"),)

    properties_schema = {
        "floating_network_id": P(
            P.STRING,
            "ID of network to allocate floating IP from.",
            constraints=[C("neutron.network")],
        ),
        "floating_network": P(
            P.STRING, "Network to allocate floating IP from.", constraints=[C("neutron.network")]
        ),
        "floating_subnet": P(
            P.STRING, "Subnet to allocate floating IP from.", constraints=[C("neutron.subnet")]
        ),
        "value_specs": P(
            P.MAP,
            'Extra parameters to include in the "floatingip" object in the creation request.',
            default={},
        ),
        "port_id": P(
            P.STRING,
            "ID of an existing port with at least one IP address to "
            "associate with this floating IP.",
            update_allowed=True,
            constraints=[C("neutron.port")],
        ),
        "fixed_ip_address": P(
            P.STRING,
            "IP address to use if the port has multiple addresses.",
            update_allowed=True,
            constraints=[C("ip_addr")],
        ),
        "floating_ip_address": P(
            P.STRING, "IP address of the floating IP.", constraints=[C("ip_addr")]
        ),
        "dns_name": P(
            P.STRING,
            "DNS name associated with floating ip.",
            update_allowed=True,
            constraints=[C("rel_dns_name")],
        ),
        "dns_domain": P(
            P.STRING,
            "DNS domain associated with floating ip.",
            update_allowed=True,
            constraints=[C("dns_domain")],
        ),
    }
    attributes_schema = {
        "router_id": A(
            "ID of the router used as gateway, set when associated with a port.", type=A.STRING
        ),
        "tenant_id": A("The tenant owning this floating IP.", type=A.STRING),
        "floating_network_id": A("ID of the network in which this IP is allocated.", type=A.STRING),
        "fixed_ip_address": A("IP address of the associated port, if specified.", type=A.STRING),
        "floating_ip_address": A("The allocated address of this IP.", type=A.STRING),
        "port_id": A("ID of the port associated with this IP.", type=A.STRING),
    }

    @classmethod
    def implied_dependencies(cls, defn, stack):
        """As Heat's FloatingIP.add_dependencies: a router of the stack whose gateway is on
        the floating network, and a router interface on the subnet of a port this floating
        IP requires, come first (Neutron associates only through such a router)."""
        props = implicit.properties_of(defn, cls, stack)
        floating_network = implicit.value(props, "floating_network", "floating_network_id")
        for name, router_props in implicit.resources_of(stack, router.Router, but=defn.name):
            gateway = implicit.value(router_props, "external_gateway_info")
            if floating_network is implicit.UNREADABLE or gateway is implicit.UNREADABLE:
                continue
            if gateway and gateway.get("network") == floating_network:
                yield name
        required = defn.explicit_resource_names()
        for name, iface in implicit.resources_of(stack, router.RouterInterface, but=defn.name):
            subnet = implicit.value(iface, "subnet", "subnet_id")
            if subnet is not implicit.UNREADABLE and any(
                _port_on_subnet(stack, port_name, subnet) for port_name in sorted(required)
            ):
                yield name

    def handle_create(self):
        props = self.properties
        network = props["floating_network"] or props["floating_network_id"]
        fip = self.client_plugin().create_floatingip(
            network,
            port_id=self.find("port", props["port_id"]),
            fixed_ip_address=props["fixed_ip_address"],
            floating_ip_address=props["floating_ip_address"],
            dns_name=props["dns_name"],
            dns_domain=props["dns_domain"],
            **self.value_specs(),
        )
        self.resource_id_set(fip["id"])

    def unrecorded_object_filters(self):
        """A floating IP has no name: the port it is made on, or its address, single it out."""
        props = self.properties
        if props["port_id"]:
            return {"port_id": self.find("port", props["port_id"])}
        if props["floating_ip_address"]:
            return {"floating_ip_address": props["floating_ip_address"]}
        return None

    def handle_update(self, new_defn, prop_diff):
        if "port_id" in prop_diff or "fixed_ip_address" in prop_diff:
            self.client_plugin().update_floatingip(
                self.resource_id,
                self.find("port", self.properties["port_id"]),
                self.properties["fixed_ip_address"],
            )
        if "dns_name" in prop_diff or "dns_domain" in prop_diff:
            self.client_plugin().update(
                "floatingip",
                self.resource_id,
                dns_name=self.properties["dns_name"],
                dns_domain=self.properties["dns_domain"],
            )

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_floatingip(resource_id)


def _port_on_subnet(stack, name, subnet):
    """Whether resource ``name`` is a port with an address on ``subnet`` (Heat's test: a
    port without fixed_ips counts when the interface names no subnet, or when its
    network, looked up in Neutron, holds the subnet)."""
    props = implicit.resource_properties(stack, name, port.Port)
    if props is None:
        return False
    fixed_ips = implicit.value(props, "fixed_ips")
    if fixed_ips is implicit.UNREADABLE:
        return False
    if fixed_ips:
        return any((ip.get("subnet") or ip.get("subnet_id")) == subnet for ip in fixed_ips)
    if subnet is None:
        return True
    network = implicit.value(props, "network", "network_id")
    if network is implicit.UNREADABLE or not network:
        return False
    try:
        return (
            subnet
            in clients.client_plugin(stack.context, "neutron").show("net", network)["subnets"]
        )
    except Exception as exc:  # noqa: BLE001 - as Heat, any Neutron error means "no"
        LOG.info("Ignoring Neutron error while getting FloatingIP dependencies: %s", exc)
        return False


def resource_mapping():
    return {"OS::Neutron::FloatingIP": FloatingIP}
