"""OS::Neutron::Subnet: an address range of a network; ports take addresses from it."""

from heat_lite.common import exception
from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.resources.openstack.neutron import neutron

P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint


class Subnet(neutron.NeutronResource):
    entity = "subnet"
    one_of = (("network", "network_id"), ("subnetpool", "cidr"))
    exclusive = (("subnetpool", "cidr"),)

    properties_schema = {
        "network_id": P(
            P.STRING, "The ID of the attached network.", constraints=[C("neutron.network")]
        ),
        "network": P(
            P.STRING, "The ID of the attached network.", constraints=[C("neutron.network")]
        ),
        "subnetpool": P(P.STRING, "The name or ID of the subnet pool."),
        "prefixlen": P(
            P.INTEGER,
            "Prefix length for subnet allocation from subnet pool.",
            constraints=[constraints.Range(min=0)],
        ),
        "cidr": P(P.STRING, "The CIDR.", constraints=[C("net_cidr")]),
        "ip_version": P(
            P.INTEGER,
            "The IP version, which is 4 or 6.",
            default=4,
            constraints=[constraints.AllowedValues([4, 6])],
        ),
        "dns_nameservers": P(
            P.LIST,
            "A specified set of DNS name servers to be used.",
            default=[],
            update_allowed=True,
        ),
        "gateway_ip": P(
            P.STRING,
            'The gateway IP address. Set to any of [ null | ~ | "" ] '
            "to create/update a subnet without a gateway. If omitted when "
            "creation, neutron will assign the first free IP address within the "
            "subnet to the gateway automatically.",
            update_allowed=True,
        ),
        "enable_dhcp": P(
            P.BOOLEAN,
            "Set to true if DHCP is enabled and false if DHCP is disabled.",
            default=True,
            update_allowed=True,
        ),
        "allocation_pools": P(
            P.LIST,
            "The start and end addresses for the allocation pools.",
            schema=P(
                P.MAP,
                schema={
                    "start": P(
                        P.STRING,
                        "Start address for the allocation pool.",
                        required=True,
                        constraints=[C("ip_addr")],
                    ),
                    "end": P(
                        P.STRING,
                        "End address for the allocation pool.",
                        required=True,
                        constraints=[C("ip_addr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        "tenant_id": P(P.STRING, "The ID of the tenant who owns the network."),
        "host_routes": P(
            P.LIST,
            "A list of host route dictionaries for the subnet.",
            schema=P(
                P.MAP,
                schema={
                    "destination": P(
                        P.STRING,
                        "The destination for static route.",
                        required=True,
                        constraints=[C("net_cidr")],
                    ),
                    "nexthop": P(
                        P.STRING,
                        "The next hop for the destination.",
                        required=True,
                        constraints=[C("ip_addr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        "ipv6_ra_mode": P(
            P.STRING,
            "IPv6 RA (Router Advertisement) mode.",
            constraints=[
                constraints.AllowedValues(["dhcpv6-stateful", "dhcpv6-stateless", "slaac"])
            ],
        ),
        "ipv6_address_mode": P(
            P.STRING,
            "IPv6 address mode.",
            constraints=[
                constraints.AllowedValues(["dhcpv6-stateful", "dhcpv6-stateless", "slaac"])
            ],
        ),
        "segment": P(P.STRING, "The name/ID of the segment to associate.", update_allowed=True),
        "value_specs": neutron.value_specs_schema(),
        "name": P(P.STRING, "The name of the subnet.", update_allowed=True),
        "tags": P(
            P.LIST, "The tags to be added to the subnet.", schema=P(P.STRING), update_allowed=True
        ),
    }
    attributes_schema = {
        "name": A("Friendly name of the subnet.", type=A.STRING),
        "network_id": A("Parent network of the subnet.", type=A.STRING),
        "tenant_id": A("Tenant owning the subnet.", type=A.STRING),
        "allocation_pools": A("Ip allocation pools and their ranges.", type=A.LIST),
        "gateway_ip": A("Ip of the subnet's gateway.", type=A.STRING),
        "host_routes": A("Additional routes for this subnet.", type=A.LIST),
        "ip_version": A("Ip version for the subnet.", type=A.STRING),
        "cidr": A("CIDR block notation for this subnet.", type=A.STRING),
        "dns_nameservers": A("List of dns nameservers.", type=A.LIST),
        "enable_dhcp": A(
            "'true' if DHCP is enabled for this subnet; 'false' otherwise.", type=A.STRING
        ),
    }

    def _attrs(self):
        props = self.properties
        attrs = dict(
            self.value_specs(),
            name=self.created_name(),
            dns_nameservers=props["dns_nameservers"] or [],
            enable_dhcp=props["enable_dhcp"],
            host_routes=props["host_routes"] or [],
            tags=props["tags"] or [],
            segment_id=props["segment"],
        )
        gateway = props["gateway_ip"]
        if "gateway_ip" in (self.t.properties_data or {}) and gateway != "auto":
            attrs["gateway_ip"] = gateway or ""  # "" (or null): no gateway; auto: Neutron's
        return attrs

    def handle_create(self):
        props = self.properties
        network = props["network"] or props["network_id"]
        if not props["cidr"]:
            raise exception.NotSupported(feature="Subnet pools in the simulated cloud")
        attrs = self._attrs()
        name = attrs.pop("name")
        if props["allocation_pools"]:
            attrs["allocation_pools"] = props["allocation_pools"]
        if props["ipv6_ra_mode"]:
            attrs.update(
                ipv6_ra_mode=props["ipv6_ra_mode"], ipv6_address_mode=props["ipv6_address_mode"]
            )
        subnet = self.client_plugin().create_subnet(
            self.find("net", network), props["cidr"], name, **attrs
        )
        self.resource_id_set(subnet["id"])

    def handle_update(self, new_defn, prop_diff):
        """As Heat's Subnet.handle_update: only what changed is sent; allocation_pools
        removed from the template is sent as [] and gateway_ip removed (or "") as None,
        so Neutron clears them; "auto" is refused (it only means something at create)."""
        diff = dict(prop_diff)
        if "allocation_pools" in diff and diff["allocation_pools"] is None:
            diff["allocation_pools"] = []
        if diff.get("gateway_ip") == "auto":
            raise exception.ResourceActionNotSupported(
                action='The value "auto" for gateway_ip cannot be used to update an existing '
                "subnet. It is only supported during subnet creation."
            )
        if "gateway_ip" in diff:
            diff["gateway_ip"] = diff["gateway_ip"] or None
        if "name" in diff:
            diff["name"] = diff["name"] or self.physical_resource_name()
        if "segment" in diff:
            diff["segment_id"] = diff.pop("segment")
        for key in ("dns_nameservers", "host_routes", "tags"):
            if key in diff:
                diff[key] = diff[key] or []
        if "value_specs" in diff:
            diff.update(diff.pop("value_specs") or {})
        name = diff.pop("name", None)
        self.client_plugin().update("subnet", self.resource_id, name=name, **diff)

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_subnet(resource_id)


def resource_mapping():
    return {"OS::Neutron::Subnet": Subnet}
