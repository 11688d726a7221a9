"""OS::Nova::Server's ``networks``, as Heat 27's ServerNetworkMixin.

At create, an entry with ``port`` attaches that port; one with ``subnet`` (or
``port_extra_properties``) gets a port Heat makes itself (an *internal* port, named
``<server>-port-<n>``, its id kept in the resource data ``internal_ports``); one with only
``network`` lets Nova make the port.

An update of ``networks`` changes only what changed: the old entries are matched with
the server's interfaces (port, network, first fixed IP and subnet), the new entries with
the old ones; an entry that matches keeps its port, the old ones left over are detached
(internal ports deleted), the new ones left over attached. So swapping
``{network: net}`` for ``{subnet: sub}`` of the same network, or adding an entry, keeps
the existing port; ``{subnet: a}`` -> ``{subnet: b}`` moves the server to a new port.
"""

import json

from heat_lite.common import exception
from heat_lite.engine.resources.openstack.neutron.port import Port

KEYS = (
    "network",
    "fixed_ip",
    "port",
    "subnet",
    "port_extra_properties",
    "floating_ip",
    "allocate_network",
    "tag",
)
# what an interface tells about itself
IFACE_MANAGED_KEYS = ("port", "network", "fixed_ip", "subnet")
INTERNAL_PORTS = "internal_ports"


def _is_subset(subset, superset):
    return all(k in superset and superset[k] == v for k, v in subset.items())


def _matching_items(spec, candidate):
    return sum(1 for k, v in spec.items() if k in candidate and candidate[k] == v)


def find_best_match(candidates, spec):
    """Heat's _find_best_match: the same port, else the same fixed IP, else the candidate
    that holds the most of ``spec`` (all of it, at least one item)."""
    for key in ("port", "fixed_ip"):
        if spec.get(key) is not None:
            return next(
                (c for c in candidates if c[key] == spec[key] and _is_subset(spec, c)), None
            )
    best, most = None, 0
    for candidate in candidates:
        if _is_subset(spec, candidate):
            count = _matching_items(spec, candidate)
            if count > most:
                best, most = candidate, count
    return best


def str_network(networks):
    """The ``allocate_network`` value ('auto'/'none') of the first entry that has one."""
    return next((n["allocate_network"] for n in networks or [] if n.get("allocate_network")), None)


class ServerNetworkMixin:
    # -- the entries, as Heat's translation rules leave them ------------------------------

    def resolved_networks(self, networks, ignore_errors=False):
        """Every key present, ``uuid`` folded into ``network``, names of networks, subnets
        and ports turned into ids (an old entry whose object is gone keeps its value)."""
        neutron = self.client_plugin("neutron")
        result = []
        for net in networks or []:
            entry = {key: net.get(key) or None for key in KEYS}
            entry["network"] = net.get("network") or net.get("uuid") or None
            for key, entity in (("network", "net"), ("subnet", "subnet"), ("port", "port")):
                if entry[key]:
                    try:
                        entry[key] = neutron.find_resourceid_by_name_or_id(entity, entry[key])
                    except Exception:
                        if not ignore_errors:
                            raise
            result.append(entry)
        return result

    def validate_networks(self, networks, security_groups):
        """Heat's checks of the entries (_validate_network and Server.validate)."""
        for net in networks:
            self._validate_network(net)
        if str_network(networks) and len(networks) != 1:
            raise exception.StackValidationFailed(
                message='Property "allocate_network" can not be specified if multiple '
                "network interfaces set for server."
            )
        if security_groups and any(net.get("port") is not None for net in networks):
            raise exception.ResourcePropertyConflict("security_groups", "networks/port")

    def _validate_network(self, net):
        network = net.get("network") or net.get("uuid")
        if (
            network is None
            and not net.get("allocate_network")
            and all(net.get(k) is None for k in ("port", "subnet"))
        ):
            raise exception.StackValidationFailed(
                message='One of the properties "network", "port", "allocate_network" or '
                '"subnet" should be set for the specified network of server "%s".' % self.name
            )
        if net.get("allocate_network") and len([v for v in net.values() if v is not None]) != 1:
            raise exception.StackValidationFailed(
                message='Can not specify "allocate_network" with other keys of networks at '
                "the same time."
            )
        if net.get("fixed_ip") and net.get("port") is not None:
            raise exception.ResourcePropertyConflict("networks/fixed_ip", "networks/port")
        only_network = all(net.get(k) is None for k in ("port", "subnet", "port_extra_properties"))
        if net.get("floating_ip") is not None and network is not None and only_network:
            raise exception.StackValidationFailed(
                message='Property "floating_ip" is not supported if only "network" is '
                "specified, because the corresponding port can not be retrieved."
            )

    def network_id(self, net):
        """The entry's network, else its subnet's."""
        if not net.get("network") and net.get("subnet"):
            return self.client_plugin("neutron").show("subnet", net["subnet"])["network_id"]
        return net.get("network")

    # -- create ---------------------------------------------------------------------------

    def build_nics(self, networks, security_groups):
        """The nics of the boot request (internal ports made, floating IPs associated);
        'auto' or 'none' as they are (Nova picks the network, or gives none)."""
        nics = str_network(networks)
        if nics:
            return nics
        nics = []
        for idx, net in enumerate(networks):
            self._check_subnet_in_network(net)
            if net["port"]:
                nic = {"port": net["port"]}
            elif net["subnet"] or net["port_extra_properties"]:
                nic = {"port": self.create_internal_port(net, idx, security_groups)}
            else:
                nic = {"uuid": self.network_id(net), "fixed_ip": net["fixed_ip"]}
            if net["floating_ip"] and nic.get("port"):
                self.associate_floating_ip(net["floating_ip"], nic["port"], net["fixed_ip"])
            nics.append(nic)
        return nics

    def _check_subnet_in_network(self, net):
        if net["port"] is None and net["subnet"] and net["network"]:
            subnet_net = self.network_id(dict(net, network=None))
            if subnet_net != net["network"]:
                raise exception.StackValidationFailed(
                    message="Specified subnet %s does not belongs to network %s."
                    % (net["subnet"], net["network"])
                )

    def create_internal_port(self, net, idx, security_groups):
        fixed_ip = {}
        if net["fixed_ip"]:
            fixed_ip["ip_address"] = net["fixed_ip"]
        if net["subnet"]:
            fixed_ip["subnet_id"] = net["subnet"]
        extra = dict(net["port_extra_properties"] or {})
        if extra.pop("no_fixed_ips", False):
            fixed_ips = []
        else:
            fixed_ips = [fixed_ip] if fixed_ip else None
        neutron = self.client_plugin("neutron")
        port = neutron.create_port(
            self.network_id(net),
            name="%s-port-%s" % (self.name, idx),
            fixed_ips=fixed_ips,
            security_groups=self.security_group_ids(security_groups),
            **self.port_extra_kwargs(extra),
        )
        self._update_internal_ports(port["id"], add=True)
        return port["id"]

    @staticmethod
    def port_extra_kwargs(extra):
        kwargs = dict(extra.pop("value_specs", None) or {})
        pairs = extra.pop("allowed_address_pairs", None)
        kwargs.update({k: v for k, v in extra.items() if v is not None})
        if pairs is not None:
            kwargs["allowed_address_pairs"] = [
                {k: v for k, v in pair.items() if v is not None} for pair in pairs
            ]
        return kwargs

    def security_group_ids(self, security_groups):
        neutron = self.client_plugin("neutron")
        return [neutron.find("security_group", g)["id"] for g in security_groups or []]

    def associate_floating_ip(self, floating_ip, port_id, fixed_ip=None):
        self.client_plugin("neutron").update_floatingip(floating_ip, port_id, fixed_ip)

    # -- the internal ports (resource data) ----------------------------------------------

    def internal_ports(self):
        data = self.data().get(INTERNAL_PORTS) if self.id else None
        return [p["id"] for p in json.loads(data)] if data else []

    def _update_internal_ports(self, port_id, add):
        ports = [p for p in self.internal_ports() if p != port_id]
        if add:
            ports.append(port_id)
        if self.id:
            self.data_set(INTERNAL_PORTS, json.dumps([{"id": p} for p in ports]))

    def given_ports(self, networks):
        """The ports this server was given or made itself (not those Nova made)."""
        entries = self.resolved_networks(networks, ignore_errors=True)
        given = [net["port"] for net in entries if net["port"]]
        return given + [p for p in self.internal_ports() if p not in given]

    def delete_internal_port(self, port_id):
        neutron = self.client_plugin("neutron")
        if neutron.get("port", port_id) is not None:
            neutron.delete_port(port_id)
        self._update_internal_ports(port_id, add=False)

    def delete_internal_ports(self):
        for port_id in self.internal_ports():
            self.delete_internal_port(port_id)

    # -- update ---------------------------------------------------------------------------

    def update_networks(self, old_networks, new_networks, security_groups):
        """Detach what no new entry keeps, attach what is new (Heat's _update_networks,
        then _delete_detached_internal_ports)."""
        nova = self.client_plugin()
        old = self.resolved_networks(old_networks, ignore_errors=True)
        new = self.resolved_networks(new_networks)
        ifaces = nova.interface_list(self.resource_id)
        remove_ports, add_nets = self.calculate_networks(old, new, ifaces, security_groups)
        internal = self.internal_ports()
        for port_id in remove_ports:
            nova.interface_detach(self.resource_id, port_id)
            if port_id in internal:
                self.delete_internal_port(port_id)
        for args in add_nets:
            nova.interface_attach(self.resource_id, **args)

    def calculate_networks(self, old_nets, new_nets, ifaces, security_groups):
        """(ports to detach, interfaces to attach)."""
        if str_network(new_nets):
            remove = [iface["port_id"] for iface in ifaces]
            if str_network(new_nets) == "auto":
                return remove, [{"security_groups": self.security_group_ids(security_groups)}]
            return remove, []
        if not new_nets and not old_nets:
            return [], []
        remove_ports, kept = self._calculate_remove_ports(old_nets, new_nets, ifaces)
        return remove_ports, self._calculate_add_nets(new_nets, kept, security_groups)

    def _calculate_remove_ports(self, old_nets, new_nets, ifaces):
        if not old_nets or str_network(old_nets):
            return [iface["port_id"] for iface in ifaces], []
        kept = self._exclude_not_updated_networks(old_nets, new_nets, ifaces)
        remove_ports = []
        for net in old_nets:
            if net.get("port"):
                remove_ports.append(net["port"])
            if net.get("floating_ip"):
                self.client_plugin("neutron").update_floatingip(net["floating_ip"], None)
        return remove_ports, kept

    def _exclude_not_updated_networks(self, old_nets, new_nets, ifaces):
        """Take the entries that stay out of both lists; returns them."""
        self._match_interfaces(old_nets, ifaces)
        for net in new_nets + old_nets:
            for key in KEYS:
                net[key] = net.get(key) or None
        kept = []
        for new_net in list(new_nets):
            spec = {
                k: v for k, v in new_net.items() if k not in IFACE_MANAGED_KEYS or v is not None
            }
            match = find_best_match(old_nets, spec)
            if match is None:
                match = self._updated_internal_port(old_nets, spec, new_net)
            if match is not None:
                kept.append(match)
                new_nets.remove(new_net)
                old_nets.remove(match)
        return kept

    def _updated_internal_port(self, old_nets, spec, new_net):
        """An internal port whose port_extra_properties changed only in what a port can
        update in place: updated, and kept (None otherwise)."""
        spec = {k: v for k, v in spec.items() if k != "port_extra_properties"}
        match = find_best_match(old_nets, spec)
        if match is None or match.get("port") not in self.internal_ports():
            return None
        old_extra, new_extra = match.get("port_extra_properties"), new_net["port_extra_properties"]
        if new_extra is None:
            return None
        old_extra = old_extra or {}
        for key in set(old_extra) | set(new_extra):
            schema = Port.properties_schema.get(key)
            if old_extra.get(key) != new_extra.get(key) and not (schema and schema.update_allowed):
                return None
        kwargs = self.port_extra_kwargs(dict(new_extra))
        if kwargs:
            self.client_plugin("neutron").update_port(match["port"], **kwargs)
        return match

    def _match_interfaces(self, old_nets, ifaces):
        """Fill each old entry with the interface it became (its port, network, address)."""
        props = [
            {
                "port": iface["port_id"],
                "network": iface["net_id"],
                "fixed_ip": iface["fixed_ips"][0]["ip_address"] if iface["fixed_ips"] else None,
                "subnet": iface["fixed_ips"][0]["subnet_id"] if iface["fixed_ips"] else None,
            }
            for iface in ifaces
        ]
        for old_net in old_nets:
            if old_net.get("port") is None:
                old_net["network"] = self.network_id(old_net)
            spec = {k: v for k, v in old_net.items() if k in IFACE_MANAGED_KEYS and v is not None}
            match = find_best_match(props, spec)
            if match is not None:
                old_net.update(match)
                props.remove(match)

    def _calculate_add_nets(self, new_nets, kept, security_groups):
        if not new_nets and not kept:
            return [{"security_groups": self.security_group_ids(security_groups)}]
        add = []
        for idx, net in enumerate(new_nets):
            args = {"port_id": None, "net_id": None, "fip": None}
            if net.get("port"):
                args["port_id"] = net["port"]
            elif net.get("subnet") or net.get("port_extra_properties"):
                args["port_id"] = self.create_internal_port(net, idx, security_groups)
            if not args["port_id"]:
                args["net_id"] = self.network_id(net)
                args["fip"] = net.get("fixed_ip")
                args["security_groups"] = self.security_group_ids(security_groups)
            if net.get("floating_ip") and args["port_id"]:
                self.associate_floating_ip(net["floating_ip"], args["port_id"], net.get("fixed_ip"))
            add.append(args)
        return add
