"""Simulated Nova: flavors, keypairs, server groups and servers.

A server is BUILD, then ACTIVE (or ERROR with a ``fault``); its ``addresses`` are read
from its ports, with floating IPs, as Nova shows them:

    nova = NovaService(ctx)
    srv = nova.create_server('vm1', image_id, '2', networks=[{'port': port_id}])
    nova.show_server(srv['id'])['addresses']
    # {'private': [{'addr': '10.0.0.5', 'version': 4, 'OS-EXT-IPS:type': 'fixed',
    #               'OS-EXT-IPS-MAC:mac_addr': 'fa:16:3e:..'}]}
"""

import hashlib

from simcloud.cloud import base, cinder, neutron
from simcloud.common import exception
from simcloud.conf import CONF

BUILD, ACTIVE, ERROR, RESIZE, REBUILD = "BUILD", "ACTIVE", "ERROR", "RESIZE", "REBUILD"
SUSPENDED, SHUTOFF, VERIFY_RESIZE = "SUSPENDED", "SHUTOFF", "VERIFY_RESIZE"


class NovaService(base.SimService):
    service = "nova"
    entity_names = {
        "server": "Instance",
        "keypair": "Keypair",
        "server_group": "Instance group",
        "flavor": "Flavor",
    }

    def shared(self, obj):
        return obj.get("kind") == "nova.flavor" or "vcpus" in obj

    def not_found(self, entity, name_or_id):
        if entity == "keypair":
            message = "Keypair %s not found for user %s" % (
                name_or_id,
                getattr(self.context, "user_id", None),
            )
        elif entity == "flavor":
            message = "Flavor %s could not be found." % name_or_id
        else:
            message = "%s %s could not be found." % (self.entity_names[entity], name_or_id)
        return exception.NotFound(message, kind=entity)

    # -- flavors --------------------------------------------------------------------------

    def seed_flavors(self):
        for entry in CONF.simulation.flavors:
            name, flavor_id, vcpus, ram, disk = entry.split(":")
            if self.get("flavor", flavor_id) is None:
                self.create_flavor(name, flavor_id, int(vcpus), int(ram), int(disk))

    def create_flavor(self, name, flavor_id, vcpus, ram, disk, is_public=True, **props):
        if self.list("flavor", name=name):
            raise exception.Conflict("Flavor with name %s already exists." % name)
        values = dict(props, vcpus=vcpus, ram=ram, disk=disk, is_public=is_public)
        values.setdefault("ephemeral", 0)
        values.setdefault("swap", 0)
        values.setdefault("rxtx_factor", 1.0)
        values.setdefault("extra_specs", {})
        values.setdefault("description", None)
        return self.create("flavor", name, values, obj_id=flavor_id)

    def get_flavor(self, flavor):
        """The flavor with that id (or name)."""
        found = self.get("flavor", flavor)
        if found is None:
            by_name = self.list("flavor", name=flavor)
            if not by_name:
                raise self.not_found("flavor", flavor)
            found = by_name[0]
        return found

    # -- keypairs (a user's own) ----------------------------------------------------------

    def keypairs(self):
        user_id = getattr(self.context, "user_id", None)
        return self.list("keypair", user_id=user_id)

    def get_keypair(self, key_name):
        for key in self.keypairs():
            if key["name"] == key_name:
                return key
        raise self.not_found("keypair", key_name)

    def seed_keypair(self, name):
        """The context's user's keypair ``name``, made once (its id derived from the
        user and the name, so any process may seed)."""
        key_id = base.seeded_id("nova.keypair", "%s:%s" % (self.context.user_id, name))
        if self.get("keypair", key_id) is None:
            self.create_keypair(name, key_id=key_id)

    def create_keypair(self, name, public_key=None, key_type="ssh", key_id=None):
        if any(k["name"] == name for k in self.keypairs()):
            raise exception.Conflict("Key pair '%s' already exists." % name)
        private_key = None
        if not public_key:
            public_key, private_key = _generate_keypair(name)
        digest = hashlib.md5(public_key.encode(), usedforsecurity=False).hexdigest()
        fingerprint = ":".join(digest[i : i + 2] for i in range(0, 32, 2))
        key = self.create(
            "keypair",
            name,
            {
                "public_key": public_key,
                "fingerprint": fingerprint,
                "type": key_type,
                "user_id": getattr(self.context, "user_id", None),
            },
            obj_id=key_id,
        )
        if private_key:
            key["private_key"] = private_key
        return key

    def delete_keypair(self, name):
        self.delete("keypair", self.get_keypair(name)["id"])

    # -- servers ----------------------------------------------------------------------------

    def create_server(self, name, image_id, flavor_id, networks=(), security_group_ids=(), **extra):
        """Boot a server; ``networks``: [{'port': id} | {'uuid': net_id, 'fixed_ip': ip}];
        the ports made for it get ``security_group_ids``."""
        flavor = self.get_flavor(flavor_id)
        props = dict(
            extra,
            flavor={"id": flavor["id"], "original_name": flavor["name"]},
            image={"id": image_id} if image_id else "",
            accessIPv4="",
            accessIPv6="",
            user_id=getattr(self.context, "user_id", None),
        )
        server = self.create("server", name, props, building=BUILD, ready=ACTIVE, failed=ERROR)
        try:
            self._plug(server["id"], networks, security_group_ids)
        except Exception:
            self.delete_server(server["id"])
            raise
        return server

    def show_server(self, server_id):
        server = self.show("server", server_id)
        server["addresses"] = neutron.NeutronService(self.context).addresses_of(server_id)
        server["volumes_attached"] = [
            {"id": v["id"], "delete_on_termination": False}
            for v in cinder.CinderService(self.context).list("volume")
            if any(a["server_id"] == server_id for a in v.get("attachments") or [])
        ]
        server["OS-EXT-SRV-ATTR:instance_name"] = "instance-%08x" % (
            int(server["id"].replace("-", "")[:8], 16)
        )
        return server

    def resize_server(self, server_id, flavor_id):
        """RESIZE, then VERIFY_RESIZE with the new flavor, until confirmed or reverted."""
        server = self._require_status(server_id, (ACTIVE, SHUTOFF), "resize")
        try:
            flavor = self.get_flavor(flavor_id)
        except exception.NotFound:
            raise exception.BadRequest("Unable to find flavor %s" % flavor_id)
        if flavor["id"] == server["flavor"]["id"]:
            raise exception.BadRequest("When resizing, instances must change flavor!")
        return self.transition(
            "server",
            server_id,
            RESIZE,
            VERIFY_RESIZE,
            flavor={"id": flavor["id"], "original_name": flavor["name"]},
            old_flavor=server["flavor"],
        )

    def confirm_resize(self, server_id):
        self._require_status(server_id, (VERIFY_RESIZE,), "confirmResize")
        self.set_status("server", server_id, ACTIVE)

    def revert_resize(self, server_id):
        server = self._require_status(server_id, (VERIFY_RESIZE,), "revertResize")
        return self.transition(
            "server", server_id, "REVERT_RESIZE", ACTIVE, flavor=server["old_flavor"]
        )

    def _require_status(self, server_id, statuses, action):
        server = self.show("server", server_id)
        if server["status"] not in statuses:
            raise exception.Conflict(
                "Cannot '%s' instance %s while it is in vm_state %s"
                % (action, server_id, server["status"].lower())
            )
        return server

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
        net = neutron.NeutronService(self.context)
        net.release_device(server_id)
        self._plug(server_id, networks)

    def _plug(self, server_id, networks, security_group_ids=()):
        net = neutron.NeutronService(self.context)
        for nic in networks:
            if nic.get("port"):
                net.bind_port(nic["port"], server_id)
            else:
                net.create_port(
                    nic["uuid"],
                    fixed_ip=nic.get("fixed_ip"),
                    device_id=server_id,
                    device_owner="compute:nova",
                    security_groups=list(security_group_ids),
                )

    def delete_server(self, server_id):
        """Delete a server: its own ports go, given ports and volumes are released."""
        self.show("server", server_id)
        neutron.NeutronService(self.context).release_device(server_id)
        cinder.CinderService(self.context).release_server(server_id)
        self.delete("server", server_id)

    # -- server groups ------------------------------------------------------------------

    def create_server_group(self, name, policies, rules=None):
        return self.create(
            "server_group", name, {"policies": list(policies), "rules": rules or {}, "members": []}
        )

    def stop_server(self, server_id):
        """ACTIVE -> SHUTOFF."""
        return self.transition("server", server_id, ACTIVE, SHUTOFF)

    def start_server(self, server_id):
        """SHUTOFF -> ACTIVE."""
        return self.transition("server", server_id, SHUTOFF, ACTIVE)

    def attach_interface(self, server_id, port_id=None, net_id=None, fixed_ip=None):
        """Plug a port (given, or made on ``net_id``); the port."""
        self.show("server", server_id)
        net = neutron.NeutronService(self.context)
        if port_id:
            return net.bind_port(port_id, server_id)
        return net.create_port(
            net_id, fixed_ip=fixed_ip, device_id=server_id, device_owner="compute:nova"
        )

    def detach_interface(self, server_id, port_id):
        net = neutron.NeutronService(self.context)
        port = net.show("port", port_id)
        if port["device_id"] != server_id:
            raise exception.NotFound(
                "Port %s is not attached to instance %s" % (port_id, server_id), kind="port"
            )
        net.release_port(port_id)


def _generate_keypair(name):
    """A new RSA key pair, as Nova makes one: (OpenSSH public key, PEM private key)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import rsa

    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    public = key.public_key().public_bytes(
        serialization.Encoding.OpenSSH, serialization.PublicFormat.OpenSSH
    )
    private = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.TraditionalOpenSSL,
        serialization.NoEncryption(),
    )
    return "%s Generated-by-Nova" % public.decode(), private.decode()
