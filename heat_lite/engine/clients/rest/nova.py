"""Nova over REST: flavors, keypairs, server groups, servers and their interfaces.

nova = NovaClientPlugin(ctx)
srv = nova.create_server('vm1', image_id, 'm1.small', networks=[{'port': port_id}])
nova.show_server(srv['id'])['addresses']
# {'private': [{'addr': '10.0.0.5', 'version': 4, 'OS-EXT-IPS:type': 'fixed', ...}]}
"""

import base64

from heat_lite.common import exception
from heat_lite.engine.clients import client_exception
from heat_lite.engine.clients.rest import base, session

S = "/servers/%s"


class NovaClientPlugin(base.RestService):
    proxy_name = "compute"
    microversion = session.COMPUTE_MICROVERSION
    entities = {
        "server": base.Entity("/servers", "server", "servers"),
        "keypair": base.Entity("/os-keypairs", "keypair", "keypairs"),
        "server_group": base.Entity("/os-server-groups", "server_group", "server_groups"),
        "flavor": base.Entity("/flavors", "flavor", "flavors"),
    }
    entity_names = {"server": "Server", "keypair": "Keypair", "server_group": "Server group"}

    # -- flavors and keypairs (the custom constraints use these) --------------------------

    def get_flavor(self, flavor):
        """The flavor with that id or name; EntityNotFound('Flavor ID') as Heat's plugin."""
        obj = self.get("flavor", flavor)
        if obj is not None:
            return obj
        for f in self.request("GET", "/flavors/detail")["flavors"]:
            if f["name"] == flavor:
                return f
        raise exception.EntityNotFound(entity="Flavor ID", name=flavor)

    def find_flavor_by_name_or_id(self, flavor):
        """The id of the flavor with that id or name, remembered per project as Heat's
        nova plugin remembers it (``_find_flavor_id``)."""
        return self.remembered_id("flavor", flavor, lambda: self.get_flavor(flavor)["id"])

    def get_keypair(self, key_name):
        """The keypair (``id`` is its name, as Nova's API addresses it)."""
        try:
            key = self.show("keypair", key_name)
        except client_exception.NotFound:
            raise exception.EntityNotFound(entity="Key", name=key_name)
        return dict(key, id=key["name"])

    def create_keypair(self, name, public_key=None):
        values = {"name": name}
        if public_key:
            values["public_key"] = public_key
        key = self.create("keypair", **values)
        return dict(key, id=key["name"])

    def get_server(self, server):
        """The server with that id or name; EntityNotFound('Server') as Heat's plugin."""
        try:
            return self.find("server", server)
        except client_exception.NotFound:
            raise exception.EntityNotFound(entity="Server", name=server)

    # -- servers ----------------------------------------------------------------------------

    def create_server(self, name, image_id, flavor_id, networks=(), security_groups=(), **extra):
        """Boot a server; ``networks``: [{'port': id} | {'uuid': net_id, 'fixed_ip': ip}],
        'auto' or 'none'; ``security_groups``: [{'name': name or id}]."""
        tags = extra.pop("tags", None)
        hints = extra.pop("scheduler_hints", None)
        body = {k: v for k, v in extra.items() if v not in (None, [], {})}
        if body.get("user_data"):
            body["user_data"] = base64.b64encode(body["user_data"].encode()).decode()
        body.update(
            name=name,
            imageRef=image_id or "",
            flavorRef=self.find_flavor_by_name_or_id(flavor_id),
            networks=networks if isinstance(networks, str) else list(networks),
        )
        if security_groups:
            body["security_groups"] = list(security_groups)
        request = {"server": body}
        if hints:
            request["OS-SCH-HNT:scheduler_hints"] = hints
        server = self.request("POST", "/servers", request)["server"]
        if tags:
            self.request("PUT", S % server["id"] + "/tags", {"tags": list(tags)})
        return server

    def show_server(self, server_id):
        """Nova's view of the server; its flavor carries ``original_name`` too."""
        server = self.show("server", server_id)
        flavor = server.get("flavor") or {}
        if flavor.get("id") and "original_name" not in flavor:
            found = self.get("flavor", flavor["id"])
            server["flavor"] = dict(flavor, original_name=found["name"] if found else None)
        server.setdefault(
            "OS-EXT-SRV-ATTR:instance_name",
            "instance-%08x" % int(server["id"].replace("-", "")[:8], 16),
        )
        return server

    def update(self, entity, obj_id, name=None, **props):
        if entity != "server":
            return super().update(entity, obj_id, name=name, **props)
        metadata, tags = props.pop("metadata", None), props.pop("tags", None)
        if name is not None or props:
            super().update("server", obj_id, name=name, **props)
        if metadata is not None:
            self.request("PUT", S % obj_id + "/metadata", {"metadata": metadata})
        if tags is not None:
            self.request("PUT", S % obj_id + "/tags", {"tags": list(tags)})
        return self.show_server(obj_id)

    def _action(self, server_id, action, args=None):
        self.request("POST", S % server_id + "/action", {action: args})

    def resize_server(self, server_id, flavor_id):
        """Resize: RESIZE, then VERIFY_RESIZE until confirm_resize (-> ACTIVE)."""
        self._action(server_id, "resize", {"flavorRef": self.find_flavor_by_name_or_id(flavor_id)})

    def confirm_resize(self, server_id):
        self._action(server_id, "confirmResize")

    def suspend_server(self, server_id):
        self._action(server_id, "suspend")

    def resume_server(self, server_id):
        self._action(server_id, "resume")

    def rebuild_server(self, server_id, image_id):
        self._action(server_id, "rebuild", {"imageRef": image_id})

    # -- interfaces (os-interface) ----------------------------------------------------------

    def interface_list(self, server_id):
        """The server's interfaces: [{'port_id', 'net_id', 'fixed_ips', ...}]."""
        return self.request("GET", S % server_id + "/os-interface")["interfaceAttachments"]

    def interface_attach(self, server_id, port_id=None, net_id=None, fip=None, security_groups=()):
        """Attach a port, or a new port of ``net_id`` (of the project's only network when
        neither is given)."""
        body = {}
        if port_id:
            body["port_id"] = port_id
        elif net_id:
            body["net_id"] = net_id
            if fip:
                body["fixed_ips"] = [{"ip_address": fip}]
        self.request("POST", S % server_id + "/os-interface", {"interfaceAttachment": body})

    def interface_detach(self, server_id, port_id):
        self.request("DELETE", S % server_id + "/os-interface/%s" % port_id)

    def delete_server(self, server_id):
        self.delete("server", server_id)

    # -- server groups ------------------------------------------------------------------

    def create_server_group(self, name, policies, rules=None):
        values = {"name": name, "policies": list(policies)}
        return self.create("server_group", **values)
