"""Neutron over REST: networks, subnets, ports, routers, floating IPs, security groups.

neutron = NeutronClientPlugin(ctx)
net = neutron.create_net('private')
subnet = neutron.create_subnet(net['id'], '10.0.0.0/24')
neutron.create_port(net['id'])['fixed_ips']
# [{'subnet_id': subnet['id'], 'ip_address': '10.0.0.2'}]
"""

from heat_lite.engine.clients import client_exception
from heat_lite.engine.clients.rest import base

ROUTER_INTERFACE = "network:router_interface"


class NeutronClientPlugin(base.RestService):
    proxy_name = "network"
    entities = {
        "net": base.Entity("/networks", "network", "networks"),
        "subnet": base.Entity("/subnets", "subnet", "subnets"),
        "port": base.Entity("/ports", "port", "ports"),
        "router": base.Entity("/routers", "router", "routers"),
        "floatingip": base.Entity("/floatingips", "floatingip", "floatingips"),
        "security_group": base.Entity("/security-groups", "security_group", "security_groups"),
        "security_group_rule": base.Entity(
            "/security-group-rules", "security_group_rule", "security_group_rules"
        ),
    }
    entity_names = {"net": "network"}

    def not_found(self, entity, name_or_id):
        label = self.entity_names.get(entity, entity)
        return client_exception.NotFound(
            "Unable to find %s with name or id '%s'" % (label, name_or_id)
        )

    def find_resourceid_by_name_or_id(self, entity, name_or_id):
        """Heat's lookup: the id of the ``entity`` ('net', 'subnet', ...) so named,
        remembered per project as Heat's MEMOIZE_FINDER does ([resource_finder_cache])."""
        return self.remembered_id(entity, name_or_id, lambda: self.find(entity, name_or_id)["id"])

    # -- networks and subnets -------------------------------------------------------------

    def create_net(self, name, shared=False, **props):
        return self.create("net", name=name, shared=shared, **props)

    def create_subnet(self, network_id, cidr, name=None, **props):
        values = dict(props, network_id=network_id, cidr=cidr)
        values.setdefault("ip_version", 6 if ":" in str(cidr) else 4)
        if name is not None:
            values["name"] = name
        return self.create("subnet", **values)

    def delete_subnet(self, subnet_id):
        self.delete("subnet", subnet_id)

    def delete_net(self, net_id):
        self.delete("net", net_id)

    # -- ports ----------------------------------------------------------------------------

    def create_port(
        self,
        network_id,
        name=None,
        fixed_ips=None,
        fixed_ip=None,
        device_id="",
        device_owner="",
        **props,
    ):
        if fixed_ip:
            fixed_ips = [{"ip_address": fixed_ip}]
        values = dict(props, network_id=network_id)
        if fixed_ips is not None:
            values["fixed_ips"] = [
                {k: v for k, v in ip.items() if v is not None} for ip in fixed_ips
            ]
        for key, value in (
            ("name", name),
            ("device_id", device_id),
            ("device_owner", device_owner),
        ):
            if value:
                values[key] = value
        return self.create("port", **values)

    def update_port(self, port_id, fixed_ips=None, **props):
        """Change a port; ``fixed_ips`` given: its addresses are allocated again."""
        if fixed_ips is not None:
            props["fixed_ips"] = [
                {k: v for k, v in ip.items() if v is not None} for ip in fixed_ips
            ]
        return self.update("port", port_id, **props)

    def unbind_ports(self, device_id, port_ids=None):
        """Free the ports ``port_ids`` (default: every port) of a device, as Heat's
        prepare_for_replace does for the ports a server was given."""
        for port in self.list("port", device_id=device_id):
            if port_ids is None or port["id"] in port_ids:
                self.update("port", port["id"], device_id="", device_owner="")

    def delete_port(self, port_id):
        self.delete("port", port_id)

    # -- routers --------------------------------------------------------------------------

    def _gateway(self, gateway):
        if not gateway:
            return None
        info = dict(gateway)
        info["network_id"] = self.find_resourceid_by_name_or_id("net", gateway["network_id"])
        return info

    def create_router(self, name, external_gateway_info=None, **props):
        values = dict(props, name=name or "")
        if external_gateway_info:
            values["external_gateway_info"] = self._gateway(external_gateway_info)
        return self.create("router", **values)

    def set_gateway(self, router_id, gateway):
        return self.update("router", router_id, external_gateway_info=self._gateway(gateway) or {})

    def add_interface(self, router_id, subnet_id=None, port_id=None):
        body = {"port_id": port_id} if port_id else {"subnet_id": subnet_id}
        return self.request("PUT", "/routers/%s/add_router_interface" % router_id, body)

    def remove_interface(self, router_id, subnet_id=None, port_id=None):
        body = {"port_id": port_id} if port_id else {"subnet_id": subnet_id}
        self.request("PUT", "/routers/%s/remove_router_interface" % router_id, body)

    def delete_router(self, router_id):
        self.delete("router", router_id)

    # -- floating IPs ---------------------------------------------------------------------

    def create_floatingip(
        self,
        floating_network_id,
        port_id=None,
        fixed_ip_address=None,
        floating_ip_address=None,
        **props,
    ):
        values = dict(
            {k: v for k, v in props.items() if v is not None},
            floating_network_id=self.find_resourceid_by_name_or_id("net", floating_network_id),
        )
        for key, value in (
            ("port_id", port_id),
            ("fixed_ip_address", fixed_ip_address),
            ("floating_ip_address", floating_ip_address),
        ):
            if value:
                values[key] = value
        return self.create("floatingip", **values)

    def update_floatingip(self, fip_id, port_id, fixed_ip_address=None):
        """Associate with ``port_id`` (None: disassociate)."""
        values = {"port_id": port_id or None}
        if port_id and fixed_ip_address:
            values["fixed_ip_address"] = fixed_ip_address
        return self.update("floatingip", fip_id, **values)

    def delete_floatingip(self, fip_id):
        self.delete("floatingip", fip_id)

    # -- security groups ------------------------------------------------------------------

    def create_security_group(self, name, description=""):
        return self.create("security_group", name=name, description=description or "")

    def show_security_group(self, group_id):
        return self.show("security_group", group_id)

    def create_security_group_rule(self, security_group_id, **rule):
        values = {k: v for k, v in rule.items() if v is not None}
        return self.create("security_group_rule", security_group_id=security_group_id, **values)

    def delete_security_group(self, group_id):
        self.delete("security_group", group_id)
