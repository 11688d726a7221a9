"""OS::Neutron::Port: a port of a network; its ``fixed_ips`` come from the subnet's CIDR.

kube_master_eth0:
  type: OS::Neutron::Port
  properties: {network: private, fixed_ips: [{subnet: private-subnet}]}
# get_attr: [kube_master_eth0, fixed_ips, 0, ip_address]  ->  '10.0.0.5'
"""

import json

from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.resources.openstack import implicit
from heat_lite.engine.resources.openstack.neutron import neutron
from heat_lite.engine.resources.openstack.neutron.subnet import Subnet

P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint


class Port(neutron.NeutronResource):
    entity = "port"
    one_of = (("network", "network_id"),)

    properties_schema = {
        "network_id": P(
            P.STRING, "ID of network to create a port on.", constraints=[C("neutron.network")]
        ),
        "network": P(P.STRING, "Network this port belongs to.", constraints=[C("neutron.network")]),
        "name": P(P.STRING, "A symbolic name for this port.", update_allowed=True),
        "value_specs": neutron.value_specs_schema(),
        "admin_state_up": P(
            P.BOOLEAN, "The administrative state of this port.", default=True, update_allowed=True
        ),
        "fixed_ips": P(
            P.LIST,
            "Desired IPs for this port.",
            schema=P(
                P.MAP,
                schema={
                    "subnet_id": P(
                        P.STRING,
                        "Subnet in which to allocate the IP address for this port.",
                        constraints=[C("neutron.subnet")],
                    ),
                    "subnet": P(
                        P.STRING,
                        "Subnet in which to allocate the IP address for this port.",
                        constraints=[C("neutron.subnet")],
                    ),
                    "ip_address": P(
                        P.STRING,
                        "IP address desired in the subnet for this port.",
                        constraints=[C("ip_addr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        "security_groups": P(
            P.LIST, "Security group IDs to associate with this port.", update_allowed=True
        ),
        "replacement_policy": P(
            P.STRING,
            "Policy on how to respond to a stack-update for this resource.",
            default="AUTO",
            constraints=[constraints.AllowedValues(["REPLACE_ALWAYS", "AUTO"])],
            update_allowed=True,
        ),
        "device_id": P(P.STRING, "Device ID of this port.", default="", update_allowed=True),
        "device_owner": P(
            P.STRING, "Name of the network owning the port.", default="", update_allowed=True
        ),
        "mac_address": P(
            P.STRING, "MAC address to give to this port.", constraints=[C("mac_addr")]
        ),
        "allowed_address_pairs": P(
            P.LIST,
            "Additional MAC/IP address pairs allowed to pass through the port.",
            schema=P(
                P.MAP,
                schema={
                    "mac_address": P(
                        P.STRING,
                        "MAC address to allow through this port.",
                        constraints=[C("mac_addr")],
                    ),
                    "ip_address": P(
                        P.STRING,
                        "IP address to allow through this port.",
                        required=True,
                        constraints=[C("ip_or_cidr")],
                    ),
                },
            ),
            update_allowed=True,
        ),
        "binding:vnic_type": P(
            P.STRING,
            "The vnic type to be bound on the neutron port.",
            default="normal",
            constraints=[
                constraints.AllowedValues(
                    [
                        "normal",
                        "direct",
                        "macvtap",
                        "direct-physical",
                        "baremetal",
                        "virtio-forwarder",
                        "smart-nic",
                    ]
                )
            ],
            update_allowed=True,
        ),
        "port_security_enabled": P(
            P.BOOLEAN, "Flag to enable/disable port security on the port.", update_allowed=True
        ),
        "qos_policy": P(
            P.STRING, "The name or ID of QoS policy to attach to this port.", update_allowed=True
        ),
        "dns_name": P(
            P.STRING,
            "DNS name associated with the port.",
            update_allowed=True,
            constraints=[C("dns_name")],
        ),
        "tags": P(
            P.LIST, "The tags to be added to the port.", schema=P(P.STRING), update_allowed=True
        ),
        "no_fixed_ips": P(
            P.BOOLEAN,
            "Flag to remove the fixed ips of the port.",
            default=False,
            update_allowed=True,
        ),
        "propagate_uplink_status": P(
            P.BOOLEAN,
            "Flag to enable/disable propagate uplink status on the port.",
            update_allowed=True,
        ),
    }
    attributes_schema = {
        "admin_state_up": A("The administrative state of this port.", type=A.STRING),
        "device_id": A("Unique identifier for the device.", type=A.STRING),
        "device_owner": A("Name of the network owning the port.", type=A.STRING),
        "fixed_ips": A("Fixed IP addresses.", type=A.LIST),
        "mac_address": A("MAC address of the port.", type=A.STRING),
        "name": A("Friendly name of the port.", type=A.STRING),
        "network_id": A("Unique identifier for the network owning the port.", type=A.STRING),
        "security_groups": A("A list of security groups for the port.", type=A.LIST),
        "status": A("The status of the port.", type=A.STRING),
        "tenant_id": A("Tenant owning the port.", type=A.STRING),
        "allowed_address_pairs": A(
            "Additional MAC/IP address pairs allowed to pass through a port.", type=A.LIST
        ),
        "subnets": A("A list of all subnet attributes for the port.", type=A.LIST),
        "port_security_enabled": A("Port security enabled of the port.", type=A.BOOLEAN),
        "qos_policy_id": A("The QoS policy ID attached to this port.", type=A.STRING),
        "dns_assignment": A("The DNS assigned to this port.", type=A.MAP),
        "propagate_uplink_status": A(
            "Enable/Disable propagate uplink status for the port.", type=A.BOOLEAN
        ),
        "network": A("The attributes of the network owning the port.", type=A.MAP),
    }

    @classmethod
    def implied_dependencies(cls, defn, stack):
        """As Heat's Port.add_dependencies: every subnet of the port's network comes first
        (which subnet gives the address is not known), so it goes after the port too."""
        network = implicit.value(implicit.properties_of(defn, cls, stack), "network", "network_id")
        if network is implicit.UNREADABLE:
            return
        for name, props in implicit.resources_of(stack, Subnet, but=defn.name):
            if implicit.value(props, "network", "network_id") == network:
                yield name

    def _fixed_ips(self):
        if self.properties["no_fixed_ips"]:
            return []
        wanted = []
        for ip in self.properties["fixed_ips"] or []:
            item = {}
            subnet = ip.get("subnet") or ip.get("subnet_id")
            if subnet:
                item["subnet_id"] = self.find("subnet", subnet)
            if ip.get("ip_address"):
                item["ip_address"] = ip["ip_address"]
            wanted.append(item)
        return wanted or None

    def _attrs(self):
        props = self.properties
        return dict(
            self.value_specs(),
            admin_state_up=props["admin_state_up"],
            security_groups=[
                self.find("security_group", g) for g in props["security_groups"] or []
            ],
            allowed_address_pairs=[
                {"ip_address": p["ip_address"], "mac_address": p.get("mac_address")}
                for p in props["allowed_address_pairs"] or []
            ],
            port_security_enabled=props["port_security_enabled"] is not False,
            dns_name=props["dns_name"] or "",
            tags=props["tags"] or [],
            qos_policy_id=props["qos_policy"],
        )

    def handle_create(self):
        props = self.properties
        network = props["network"] or props["network_id"]
        attrs = self._attrs()
        if props["mac_address"]:
            attrs["mac_address"] = props["mac_address"]
        if props["binding:vnic_type"]:
            attrs["binding:vnic_type"] = props["binding:vnic_type"]
        port = self.client_plugin().create_port(
            self.find("net", network),
            name=self.created_name(),
            fixed_ips=self._fixed_ips(),
            device_id=props["device_id"] or "",
            device_owner=props["device_owner"] or "",
            **attrs,
        )
        self.resource_id_set(port["id"])

    def needs_replace_with_prop_diff(self, prop_diff, after):
        return after.get("replacement_policy") == "REPLACE_ALWAYS"

    def prepare_for_replace(self):
        """As Heat's Port.prepare_for_replace: the old port gives up its fixed IPs (kept
        in its data as ``port_fip``), so the replacement can take the same addresses."""
        if self.resource_id is None:
            return
        port = self.client_plugin().get("port", self.resource_id)
        if port is None:
            return
        self.data_set("port_fip", json.dumps(port["fixed_ips"]))
        self.client_plugin().update_port(self.resource_id, fixed_ips=[])

    def restore_prev_rsrc(self, replacement_id):
        """As Heat's Port.restore_prev_rsrc: the replacement gives up its fixed IPs and
        this port takes back the ones it had (``port_fip``)."""
        plugin = self.client_plugin()
        if replacement_id and plugin.get("port", replacement_id) is not None:
            plugin.update_port(replacement_id, fixed_ips=[])
        fixed_ips = self.data().get("port_fip")
        if fixed_ips and self.resource_id:
            plugin.update_port(self.resource_id, fixed_ips=json.loads(fixed_ips))

    def handle_update(self, new_defn, prop_diff):
        changes = self._attrs()
        changes["name"] = self.created_name()
        if "fixed_ips" in prop_diff or "no_fixed_ips" in prop_diff:
            wanted = self._fixed_ips()
            changes["fixed_ips"] = [{}] if wanted is None else wanted
        for key in ("device_id", "device_owner"):
            if key in prop_diff:
                changes[key] = self.properties[key] or ""
        self.client_plugin().update_port(self.resource_id, **changes)

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_port(resource_id)

    def _resolve_attribute(self, name, port):
        plugin = self.client_plugin()
        if name == "subnets":
            return [plugin.get("subnet", ip["subnet_id"]) for ip in port["fixed_ips"]]
        if name == "network":
            return plugin.get("net", port["network_id"])
        if name == "dns_assignment":
            return {"hostname": port.get("dns_name") or "", "ip_address": "", "fqdn": ""}
        return super()._resolve_attribute(name, port)


def resource_mapping():
    return {"OS::Neutron::Port": Port}
