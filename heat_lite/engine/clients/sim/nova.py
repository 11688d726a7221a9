"""Simulated Nova: flavors (seeded from config), keypairs, server groups and servers.

A server is BUILD, then ACTIVE (or ERROR with a ``fault``); its ``addresses`` are read
from its ports, with floating IPs, as Nova shows them:

    nova = NovaClientPlugin(ctx)
    srv = nova.create_server('vm1', image_id, '2', networks=[{'port': port_id}])
    nova.show('server', srv['id'])['addresses']
    # {'private': [{'addr': '10.0.0.5', 'version': 4, 'OS-EXT-IPS:type': 'fixed',
    #               'OS-EXT-IPS-MAC:mac_addr': 'fa:16:3e:..'}]}
"""

import hashlib

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.engine.clients import client_exception
from heat_lite.engine.clients.sim import base, cinder, neutron

BUILD, ACTIVE, ERROR, RESIZE, REBUILD = "BUILD", "ACTIVE", "ERROR", "RESIZE", "REBUILD"
SUSPENDED = "SUSPENDED"


def flavors():
    result = []
    for entry in CONF.simulated_cloud.flavors:
        name, flavor_id, vcpus, ram, disk = entry.split(":")
        result.append(
            {"id": flavor_id, "name": name, "vcpus": int(vcpus), "ram": int(ram), "disk": int(disk)}
        )
    return result


def _group_names(net, server_id):
    """The names of the security groups of the server's ports (Nova's server view)."""
    names = []
    for port in net.list("port", device_id=server_id):
        for group_id in port.get("security_groups") or []:
            group = net.get("security_group", group_id)
            if group is not None and group["name"] not in names:
                names.append(group["name"])
    return names


def _only_network(net):
    """The network Nova picks when none is asked for: the only one the project has."""
    nets = [n for n in net.list("net") if n["project_id"] == net.project_id]
    if len(nets) != 1:
        raise client_exception.Conflict(
            "More than one possible network found. Specify network ID(s) to select "
            "which one(s) to connect to."
            if nets
            else "No network is available to attach the interface to."
        )
    return nets[0]["id"]


class NovaClientPlugin(base.SimService):
    service = "nova"
    entity_names = {"server": "Server", "keypair": "Keypair", "server_group": "Server group"}

    # -- flavors and keypairs (the custom constraints use these) --------------------------

    def get_flavor(self, flavor):
        """The flavor with that id or name; EntityNotFound('Flavor ID') as Heat's plugin."""
        for f in flavors():
            if flavor in (f["id"], f["name"]):
                return f
        raise exception.EntityNotFound(entity="Flavor ID", name=flavor)

    def get_keypair(self, key_name):
        for key in self.list("keypair", name=key_name):
            if key["project_id"] == self.project_id or self.project_id is None:
                return key
        raise exception.EntityNotFound(entity="Key", name=key_name)

    def create_keypair(self, name, public_key=None):
        if self.list("keypair", name=name, project_id=self.project_id):
            raise client_exception.Conflict("Key pair '%s' already exists." % name)
        public_key = public_key or "ssh-rsa AAAAB3NzaC1yc2EAAAADAQAB%s sim" % name
        digest = hashlib.md5(public_key.encode(), usedforsecurity=False).hexdigest()
        fingerprint = ":".join(digest[i : i + 2] for i in range(0, 32, 2))
        return self.create(
            "keypair", name, {"public_key": public_key, "fingerprint": fingerprint, "type": "ssh"}
        )

    def get_server(self, server):
        """The server with that id or name; EntityNotFound('Server') as Heat's plugin."""
        try:
            return self.find("server", server)
        except client_exception.NotFound:
            raise exception.EntityNotFound(entity="Server", name=server)

    # -- servers ----------------------------------------------------------------------------

    def create_server(self, name, image_id, flavor_id, networks=(), security_groups=(), **extra):
        """Boot a server; ``networks``: [{'port': id} | {'uuid': net_id, 'fixed_ip': ip}],
        or 'auto' (a port on the project's only network) or 'none';
        ``security_groups``: [{'name': name or id}], given to the ports Nova makes."""
        flavor = self.get_flavor(flavor_id)
        if networks == "auto":
            networks = [{"uuid": _only_network(neutron.NeutronClientPlugin(self.context))}]
        elif networks == "none":
            networks = []
        group_ids = self._security_group_ids(security_groups)
        props = dict(
            extra,
            flavor={"id": flavor["id"], "original_name": flavor["name"]},
            image={"id": image_id} if image_id else "",
            accessIPv4="",
            accessIPv6="",
        )
        server = self.create("server", name, props, building=BUILD, ready=ACTIVE, failed=ERROR)
        try:
            for nic in networks:
                self._attach(server["id"], nic, group_ids)
        except Exception:
            self.delete_server(server["id"])
            raise
        return server

    def _security_group_ids(self, security_groups):
        net = neutron.NeutronClientPlugin(self.context)
        return [net.find("security_group", group["name"])["id"] for group in security_groups or ()]

    def show_server(self, server_id):
        """Nova's view: ``addresses`` and ``security_groups`` (by name) come from the
        server's ports."""
        server = self.show("server", server_id)
        net = neutron.NeutronClientPlugin(self.context)
        server["addresses"] = net.addresses_of(server_id)
        server["security_groups"] = [{"name": name} for name in _group_names(net, server_id)]
        server["OS-EXT-SRV-ATTR:instance_name"] = "instance-%08x" % (
            int(server["id"].replace("-", "")[:8], 16)
        )
        return server

    def resize_server(self, server_id, flavor_id):
        """Resize in place: RESIZE, then ACTIVE with the new flavor (confirmed at once)."""
        flavor = self.get_flavor(flavor_id)
        return self.transition(
            "server",
            server_id,
            RESIZE,
            ACTIVE,
            flavor={"id": flavor["id"], "original_name": flavor["name"]},
        )

    def suspend_server(self, server_id):
        """ACTIVE -> SUSPENDED (after the build time)."""
        return self.transition("server", server_id, ACTIVE, SUSPENDED)

    def resume_server(self, server_id):
        """SUSPENDED -> ACTIVE (after the build time)."""
        return self.transition("server", server_id, SUSPENDED, ACTIVE)

    def rebuild_server(self, server_id, image_id):
        """Rebuild with another image: REBUILD, then ACTIVE."""
        return self.transition("server", server_id, REBUILD, ACTIVE, image={"id": image_id})

    # -- interfaces (os-interface) ----------------------------------------------------------

    def interface_list(self, server_id):
        """The server's interfaces: [{'port_id', 'net_id', 'fixed_ips'}]."""
        self.show("server", server_id)
        net = neutron.NeutronClientPlugin(self.context)
        return [
            {"port_id": p["id"], "net_id": p["network_id"], "fixed_ips": p["fixed_ips"]}
            for p in net.list("port", device_id=server_id)
        ]

    def interface_attach(self, server_id, port_id=None, net_id=None, fip=None, security_groups=()):
        """Attach a port, or a new port of ``net_id`` (Nova's: of the only network the
        project can use when neither is given)."""
        self.show("server", server_id)
        if port_id is None and net_id is None:
            net_id = _only_network(neutron.NeutronClientPlugin(self.context))
        nic = {"port": port_id} if port_id else {"uuid": net_id, "fixed_ip": fip}
        self._attach(server_id, nic, list(security_groups or ()))

    def interface_detach(self, server_id, port_id):
        """Detach a port: one Nova made for the server goes, another is unbound."""
        self.show("server", server_id)
        neutron.NeutronClientPlugin(self.context).release_port(port_id, server_id)

    def _attach(self, server_id, nic, group_ids):
        net = neutron.NeutronClientPlugin(self.context)
        if nic.get("port"):
            net.bind_port(nic["port"], server_id)
        else:
            net.create_port(
                nic["uuid"],
                fixed_ip=nic.get("fixed_ip"),
                device_id=server_id,
                device_owner="compute:nova",
                security_groups=group_ids,
            )

    def delete_server(self, server_id):
        """Delete a server: its own ports go, given ports and volumes are released."""
        self.show("server", server_id)
        neutron.NeutronClientPlugin(self.context).release_device(server_id)
        cinder.CinderClientPlugin(self.context).release_server(server_id)
        self.delete("server", server_id)

    # -- server groups ------------------------------------------------------------------

    def create_server_group(self, name, policies, rules=None):
        return self.create(
            "server_group", name, {"policies": list(policies), "rules": rules or {}, "members": []}
        )
