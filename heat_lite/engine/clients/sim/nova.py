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

    def create_server(self, name, image_id, flavor_id, networks=(), **extra):
        """Boot a server; ``networks``: [{'port': id} | {'uuid': net_id, 'fixed_ip': ip}]."""
        flavor = self.get_flavor(flavor_id)
        props = dict(
            extra,
            flavor={"id": flavor["id"], "original_name": flavor["name"]},
            image={"id": image_id} if image_id else "",
            accessIPv4="",
            accessIPv6="",
        )
        server = self.create("server", name, props, building=BUILD, ready=ACTIVE, failed=ERROR)
        try:
            self._plug(server["id"], networks)
        except Exception:
            self.delete_server(server["id"])
            raise
        return server

    def show_server(self, server_id):
        server = self.show("server", server_id)
        server["addresses"] = neutron.NeutronClientPlugin(self.context).addresses_of(server_id)
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

    def replace_nics(self, server_id, networks):
        """Detach every interface, then attach ``networks`` (create_server's form)."""
        self.show("server", server_id)
        net = neutron.NeutronClientPlugin(self.context)
        net.release_device(server_id)
        self._plug(server_id, networks)

    def _plug(self, server_id, networks):
        net = neutron.NeutronClientPlugin(self.context)
        for nic in networks:
            if nic.get("port"):
                net.bind_port(nic["port"], server_id)
            else:
                net.create_port(
                    nic["uuid"],
                    fixed_ip=nic.get("fixed_ip"),
                    device_id=server_id,
                    device_owner="compute:nova",
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
