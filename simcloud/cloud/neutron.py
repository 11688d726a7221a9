"""Simulated Neutron: networks, subnets, ports (with addresses), routers, floating IPs,
security groups.

Addresses come from the subnet's CIDR (allocation pool: the CIDR without the network,
gateway and broadcast addresses); floating IPs from the subnet of the external network
seeded from ``[simulation] public_network``/``public_subnet_cidr``. Neutron's refusals
are kept: a network with ports cannot be deleted (409), a floating IP needs a router
between its external network and the port's subnet.

    neutron = NeutronService(ctx)
    net = neutron.create_net('private')
    subnet = neutron.create_subnet(net['id'], '10.0.0.0/24')
    port = neutron.create_port(net['id'])
    port['fixed_ips']      # [{'subnet_id': subnet['id'], 'ip_address': '10.0.0.2'}]
"""

import ipaddress
import random

from simcloud.cloud import base, security_groups
from simcloud.common import exception
from simcloud.conf import CONF
from simcloud.db import objects as db

ACTIVE, DOWN = "ACTIVE", "DOWN"
ROUTER_INTERFACE, ROUTER_GATEWAY = "network:router_interface", "network:router_gateway"
FLOATINGIP_OWNER = "network:floatingip"

# entity -> (Neutron's name in messages, the NeutronError type of its "not found")
_NOT_FOUND = {
    "net": ("Network", "NetworkNotFound"),
    "subnet": ("Subnet", "SubnetNotFound"),
    "port": ("Port", "PortNotFound"),
    "router": ("Router", "RouterNotFound"),
    "floatingip": ("Floating IP", "FloatingIPNotFound"),
    "security_group": ("Security group", "SecurityGroupNotFound"),
    "security_group_rule": ("Security group rule", "SecurityGroupRuleNotFound"),
}


def _mac():
    return "fa:16:3e:%02x:%02x:%02x" % tuple(random.randint(0, 255) for _ in range(3))


class NeutronService(security_groups.SecurityGroups, base.SimService):
    service = "neutron"
    entity_names = {k: v[0] for k, v in _NOT_FOUND.items()}

    def not_found(self, entity, name_or_id):
        label, error_type = _NOT_FOUND.get(entity, (entity, "NotFound"))
        return exception.NotFound(
            "%s %s could not be found." % (label, name_or_id), kind=entity, neutron_type=error_type
        )

    def shared(self, obj):
        """Shared and external networks, and their subnets, are every project's."""
        if obj.get("kind") == "neutron.subnet" or "network_id" in obj and "cidr" in obj:
            net = db.get(obj["network_id"])
            return bool(net and (net.get("shared") or net.get("router:external")))
        return bool(obj.get("shared") or obj.get("router:external"))

    # -- the seeded external network ----------------------------------------------------

    def ensure_public(self):
        """Create the external network and its subnet once (fixed ids: any process may)."""
        name = CONF.simulation.public_network
        net_id = base.seeded_id("neutron.net", name)
        if db.get(net_id) is not None:
            return net_id
        subnet_id = base.seeded_id("neutron.subnet", name)
        self._store_net(name, net_id, external=True, shared=False)
        self._store_subnet(net_id, CONF.simulation.public_subnet_cidr, name + "-subnet", subnet_id)
        return net_id

    # -- networks and subnets -------------------------------------------------------------

    def _store_net(self, name, net_id=None, external=False, shared=False, **props):
        values = dict(
            props,
            subnets=[],
            shared=shared,
            mtu=1450,
            admin_state_up=props.get("admin_state_up", True),
        )
        values["router:external"] = external
        return self.create("net", name, values, obj_id=net_id)

    def create_net(self, name, shared=False, **props):
        return self._store_net(name, shared=shared, **props)

    def _store_subnet(self, network_id, cidr, name=None, subnet_id=None, **props):
        try:
            network = ipaddress.ip_network(cidr, strict=False)
        except ValueError:
            raise exception.BadRequest(
                "Invalid input for cidr. Reason: '%s' is not a valid IP subnet." % cidr
            )
        hosts = network.hosts() if network.num_addresses > 2 else iter(network)
        first = next(hosts, network.network_address)
        gateway = props.pop("gateway_ip", None)
        gateway = str(first) if gateway is None else gateway or None
        pools = props.pop("allocation_pools", None) or [
            {"start": str(first + (1 if gateway == str(first) else 0)), "end": str(network[-2])}
        ]
        values = dict(
            props,
            network_id=network_id,
            cidr=str(network),
            ip_version=network.version,
            gateway_ip=gateway,
            allocation_pools=pools,
            _next_ip=0,
        )
        values.setdefault("enable_dhcp", True)
        values.setdefault("dns_nameservers", [])
        subnet = self.create("subnet", name or "", values, obj_id=subnet_id)
        net = db.get(network_id)
        if subnet["id"] not in net["subnets"]:
            db.update(network_id, properties={"subnets": net["subnets"] + [subnet["id"]]})
        return subnet

    def create_subnet(self, network_id, cidr, name=None, **props):
        self.show("net", network_id)
        return self._store_subnet(network_id, cidr, name, **props)

    def delete_subnet(self, subnet_id):
        subnet = self.show("subnet", subnet_id)
        if any(self._ports_on_subnet(subnet, owner_not=ROUTER_INTERFACE)):
            raise exception.Conflict(
                "Unable to complete operation on subnet %s: One or more ports have an IP "
                "allocation from this subnet." % subnet_id,
                neutron_type="SubnetInUse",
            )
        for port in self._ports_on_subnet(subnet):
            self.delete("port", port["id"])
        net = db.get(subnet["network_id"])
        if net is not None:
            subnets = [s for s in net["subnets"] if s != subnet_id]
            db.update(net["id"], properties={"subnets": subnets})
        self.delete("subnet", subnet_id)

    def delete_net(self, net_id):
        self.show("net", net_id)
        if self.list("port", network_id=net_id):
            raise exception.Conflict(
                "Unable to complete operation on network %s. There are one or more ports "
                "still in use on the network." % net_id,
                neutron_type="NetworkInUse",
            )
        for subnet in self.list("subnet", network_id=net_id):
            self.delete("subnet", subnet["id"])
        self.delete("net", net_id)

    # -- addresses ------------------------------------------------------------------------

    def _ports_on_subnet(self, subnet, owner_not=None):
        subnet_id = subnet["id"]
        for port in self.list("port", network_id=subnet["network_id"]):
            if owner_not is not None and port["device_owner"] == owner_not:
                continue
            if any(ip["subnet_id"] == subnet_id for ip in port["fixed_ips"]):
                yield port

    def _allocate(self, subnet, ip_address=None):
        used = {ip["ip_address"] for p in self._ports_on_subnet(subnet) for ip in p["fixed_ips"]}
        if ip_address is not None:
            if ip_address in used:
                raise exception.Conflict(
                    "IP address %s already allocated in subnet %s" % (ip_address, subnet["id"]),
                    neutron_type="IpAddressAlreadyAllocated",
                )
            return ip_address
        pool = subnet["allocation_pools"][0]
        start, end = ipaddress.ip_address(pool["start"]), ipaddress.ip_address(pool["end"])
        size = int(end) - int(start) + 1
        for _ in range(size):
            n = db.next_counter(subnet["id"], "_next_ip") % size
            candidate = str(start + n)
            if candidate not in used:
                return candidate
        raise exception.Conflict(
            "No more IP addresses available on network %s." % subnet["network_id"],
            neutron_type="IpAddressGenerationFailure",
        )

    def _fixed_ips(self, network_id, fixed_ips):
        """Allocate ``fixed_ips`` ([{subnet_id?, ip_address?}]; None: one from the first
        subnet, if any)."""
        net = self.show("net", network_id)
        if fixed_ips is None:
            fixed_ips = [{}] if net["subnets"] else []
        result = []
        for want in fixed_ips:
            subnet_id = want.get("subnet_id") or want.get("subnet")
            if subnet_id:
                subnet = self.show("subnet", subnet_id)
            elif want.get("ip_address"):
                subnet = self._subnet_for_ip(net, want["ip_address"])
            elif net["subnets"]:
                subnet = self.show("subnet", net["subnets"][0])
            else:
                raise exception.BadRequest("Network %s has no subnet." % network_id)
            address = self._allocate(subnet, want.get("ip_address"))
            result.append({"subnet_id": subnet["id"], "ip_address": address})
        return result

    def _subnet_for_ip(self, net, ip_address):
        for subnet_id in net["subnets"]:
            subnet = self.show("subnet", subnet_id)
            if ip_address and ipaddress.ip_address(ip_address) in ipaddress.ip_network(
                subnet["cidr"]
            ):
                return subnet
        raise exception.BadRequest(
            "IP address %s is not a valid IP for any of the subnets on network %s."
            % (ip_address, net["id"])
        )

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
        values = dict(
            props,
            network_id=network_id,
            fixed_ips=self._fixed_ips(network_id, fixed_ips),
            device_id=device_id,
            device_owner=device_owner,
        )
        values.setdefault("mac_address", None)
        values["mac_address"] = values["mac_address"] or _mac()
        values.setdefault("admin_state_up", True)
        values.setdefault("security_groups", [])
        values.setdefault("allowed_address_pairs", [])
        values["_auto"] = device_owner == "compute:nova"
        port = self.create("port", name or "", values, ready=ACTIVE if device_id else DOWN)
        return port

    def update_port(self, port_id, fixed_ips=None, **props):
        """Change a port; ``fixed_ips`` given: its addresses are allocated again."""
        port = self.show("port", port_id)
        if fixed_ips is not None:
            self.update("port", port_id, fixed_ips=[])
            try:
                props["fixed_ips"] = self._fixed_ips(port["network_id"], fixed_ips)
            except Exception:
                self.update("port", port_id, fixed_ips=port["fixed_ips"])
                raise
        if "device_id" in props:
            # bound to a device: ACTIVE; let go: DOWN
            self.set_status("port", port_id, ACTIVE if props["device_id"] else DOWN)
        return self.update("port", port_id, **props)

    def bind_port(self, port_id, device_id, device_owner="compute:nova"):
        port = self.show("port", port_id)
        if port["device_id"] and port["device_id"] != device_id:
            raise exception.Conflict("Port %s is still in use." % port_id, neutron_type="PortInUse")
        return self.set_status(
            "port", port_id, ACTIVE, device_id=device_id, device_owner=device_owner
        )

    def unbind_ports(self, device_id):
        """Free the ports a device was given (not those Nova made for it)."""
        for port in db.get_all(self.kind("port"), device_id=device_id):
            if not port.get("_auto"):
                self.set_status("port", port["id"], DOWN, device_id="", device_owner="")

    def release_port(self, port_id):
        """A server let go of one port: gone if Nova made it, unbound otherwise."""
        row = db.get(port_id, self.kind("port"))
        if row is not None and row.get("_auto"):
            self._disassociate_port(port_id)
            db.delete(port_id)
        elif row is not None:
            self.set_status("port", port_id, DOWN, device_id="", device_owner="")

    def release_device(self, device_id):
        """A server went: ports Nova made go, others are unbound (and their FIPs stay)."""
        self.unbind_ports(device_id)
        for port in db.get_all(self.kind("port"), device_id=device_id):
            self._disassociate_port(port["id"])
            db.delete(port["id"])

    def delete_port(self, port_id):
        self.show("port", port_id)
        self._disassociate_port(port_id)
        self.delete("port", port_id)

    def _disassociate_port(self, port_id):
        for fip in self.list("floatingip", port_id=port_id):
            self.update_floatingip(fip["id"], None)

    def addresses_of(self, server_id):
        """Nova's ``addresses`` of a server: network name -> fixed and floating IPs."""
        addresses = {}
        for port in self.list("port", device_id=server_id):
            net = self.get("net", port["network_id"])
            entries = addresses.setdefault(net["name"] if net else port["network_id"], [])
            for ip in port["fixed_ips"]:
                entries.append(self._address(ip["ip_address"], "fixed", port["mac_address"]))
            for fip in self.list("floatingip", port_id=port["id"]):
                entries.append(
                    self._address(fip["floating_ip_address"], "floating", port["mac_address"])
                )
        return addresses

    @staticmethod
    def _address(addr, kind, mac):
        return {
            "addr": addr,
            "version": ipaddress.ip_address(addr).version,
            "OS-EXT-IPS:type": kind,
            "OS-EXT-IPS-MAC:mac_addr": mac,
        }

    # -- routers --------------------------------------------------------------------------

    def create_router(self, name, external_gateway_info=None, **props):
        router = self.create("router", name or "", dict(props, external_gateway_info=None))
        if external_gateway_info:
            router = self.set_gateway(router["id"], external_gateway_info)
        return router

    def set_gateway(self, router_id, gateway):
        self.clear_gateway(router_id)
        if not gateway:
            return self.show("router", router_id)
        net_id = self.show("net", gateway["network_id"])["id"]
        port = self.create_port(net_id, device_id=router_id, device_owner=ROUTER_GATEWAY)
        info = {
            "network_id": net_id,
            "enable_snat": gateway.get("enable_snat", True),
            "external_fixed_ips": port["fixed_ips"],
        }
        return self.update("router", router_id, external_gateway_info=info)

    def clear_gateway(self, router_id):
        for port in self.list("port", device_id=router_id, device_owner=ROUTER_GATEWAY):
            self.delete("port", port["id"])
        return self.update("router", router_id, external_gateway_info=None)

    def add_interface(self, router_id, subnet_id=None, port_id=None):
        self.show("router", router_id)
        if port_id:
            port = self.bind_port(port_id, router_id, ROUTER_INTERFACE)
            subnet_id = port["fixed_ips"][0]["subnet_id"]
        else:
            subnet = self.show("subnet", subnet_id)
            for port in self.list("port", device_id=router_id, device_owner=ROUTER_INTERFACE):
                if any(ip["subnet_id"] == subnet_id for ip in port["fixed_ips"]):
                    raise exception.BadRequest(
                        "Router already has a port on subnet %s." % subnet_id
                    )
            port = self.create_port(
                subnet["network_id"],
                fixed_ips=[{"subnet_id": subnet_id, "ip_address": subnet["gateway_ip"]}],
                device_id=router_id,
                device_owner=ROUTER_INTERFACE,
            )
        return {"id": router_id, "port_id": port["id"], "subnet_id": subnet_id}

    def remove_interface(self, router_id, subnet_id=None, port_id=None):
        for port in self.list("port", device_id=router_id, device_owner=ROUTER_INTERFACE):
            if port["id"] == port_id or any(
                ip["subnet_id"] == subnet_id for ip in port["fixed_ips"]
            ):
                self.delete("port", port["id"])
                return
        raise exception.NotFound(
            "Router %s has no interface on subnet %s" % (router_id, subnet_id or port_id),
            neutron_type="RouterInterfaceNotFoundForSubnet",
        )

    def delete_router(self, router_id):
        self.show("router", router_id)
        if self.list("port", device_id=router_id, device_owner=ROUTER_INTERFACE):
            raise exception.Conflict(
                "Router %s still has ports" % router_id, neutron_type="RouterInUse"
            )
        self.clear_gateway(router_id)
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
        net = self.show("net", floating_network_id)
        net_id = net["id"]
        if not net["router:external"]:
            raise exception.BadRequest(
                "Bad floatingip request: Network %s is not a valid external network." % net_id
            )
        # an association that cannot be made fails the request before anything is stored
        associated = self._association(net_id, port_id, fixed_ip_address) if port_id else {}
        # the address is held by a port of the external network, as in Neutron
        wanted = [{"ip_address": floating_ip_address}] if floating_ip_address else None
        port = self.create_port(net_id, fixed_ips=wanted, device_owner=FLOATINGIP_OWNER)
        if not port["fixed_ips"]:
            self.delete("port", port["id"])
            raise exception.Conflict("No more IP addresses available on network %s." % net_id)
        values = dict(
            props,
            floating_network_id=net_id,
            floating_ip_address=port["fixed_ips"][0]["ip_address"],
            port_id=None,
            fixed_ip_address=None,
            router_id=None,
        )
        values.update(associated)
        fip = self.create("floatingip", "", values, ready=ACTIVE if associated else DOWN)
        self.update("port", port["id"], device_id=fip["id"])
        return fip

    def _router_between(self, ext_net_id, subnet_id):
        """The router with an interface on ``subnet_id`` and its gateway on ``ext_net_id``."""
        for port in self.list_mentioning("port", subnet_id):
            if port["device_owner"] != ROUTER_INTERFACE or not any(
                ip["subnet_id"] == subnet_id for ip in port["fixed_ips"]
            ):
                continue
            router = self.get("router", port["device_id"])
            gateway = (router or {}).get("external_gateway_info") or {}
            if gateway.get("network_id") == ext_net_id:
                return router["id"]
        return None

    def update_floatingip(self, fip_id, port_id, fixed_ip_address=None):
        """Associate with ``port_id`` (None: disassociate)."""
        fip = self.show("floatingip", fip_id)
        if not port_id:
            return self.set_status(
                "floatingip", fip_id, DOWN, port_id=None, fixed_ip_address=None, router_id=None
            )
        associated = self._association(fip["floating_network_id"], port_id, fixed_ip_address)
        return self.set_status("floatingip", fip_id, ACTIVE, **associated)

    def _association(self, ext_net_id, port_id, fixed_ip_address):
        """The port_id, fixed_ip_address and router_id of a floating IP of ``ext_net_id``
        associated with ``port_id``; Neutron's errors when it cannot be."""
        port = self.show("port", port_id)
        if not port["fixed_ips"]:
            raise exception.BadRequest("Port %s does not have an IP address." % port_id)
        fixed = next(
            (ip for ip in port["fixed_ips"] if ip["ip_address"] == fixed_ip_address),
            port["fixed_ips"][0],
        )
        router_id = self._router_between(ext_net_id, fixed["subnet_id"])
        if router_id is None:
            raise exception.NotFound(
                "External network %s is not reachable from subnet %s.  Therefore, cannot "
                "associate Port %s with a Floating IP." % (ext_net_id, fixed["subnet_id"], port_id),
                neutron_type="ExternalGatewayForFloatingIPNotFound",
            )
        return {"port_id": port_id, "fixed_ip_address": fixed["ip_address"], "router_id": router_id}

    def delete_floatingip(self, fip_id):
        self.show("floatingip", fip_id)
        for port in self.list("port", device_id=fip_id, device_owner=FLOATINGIP_OWNER):
            self.delete("port", port["id"])
        self.delete("floatingip", fip_id)
