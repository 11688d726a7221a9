"""Cinder over REST: volumes; their attachments go through Nova, as Heat's do.

cinder = CinderClientPlugin(ctx)
vol = cinder.create_volume('data', 10)
cinder.attach(vol['id'], server_id, '/dev/vdb')
cinder.show('volume', vol['id'])['attachments']   # [{'server_id': ..., 'device': ...}]
"""

from heat_lite.common import exception
from heat_lite.engine.clients import client_exception
from heat_lite.engine.clients.rest import base, nova, session

ATTACHMENTS = "/servers/%s/os-volume_attachments"


class CinderClientPlugin(base.RestService):
    proxy_name = "block_storage"
    microversion = session.VOLUME_MICROVERSION
    entities = {"volume": base.Entity("/volumes", "volume", "volumes")}
    entity_names = {"volume": "Volume"}

    def get_volume(self, volume):
        """The volume with that id or name; EntityNotFound('Volume') as Heat's plugin."""
        try:
            return self.find("volume", volume)
        except client_exception.NotFound:
            raise exception.EntityNotFound(entity="Volume", name=volume)

    def list(self, entity, **filters):
        objs = self.request("GET", "/volumes/detail")["volumes"]
        return [o for o in objs if all(base.matches(o.get(k), v) for k, v in filters.items())]

    def create_volume(self, name, size, **props):
        values = {k: v for k, v in props.items() if v not in (None, "", {}) and k != "created_at"}
        return self.create("volume", name=name or "", size=size, **values)

    def update(self, entity, obj_id, name=None, **props):
        size, read_only = props.pop("size", None), props.pop("read_only", None)
        if size is not None:
            self._action(obj_id, "os-extend", {"new_size": size})
        if read_only is not None:
            self._action(obj_id, "os-update_readonly_flag", {"readonly": bool(read_only)})
        return super().update(entity, obj_id, name=name, **props)

    def _action(self, volume_id, action, args):
        self.request("POST", "/volumes/%s/action" % volume_id, {action: args})

    def delete_volume(self, volume_id):
        self.delete("volume", volume_id)

    def attach(self, volume_id, server_id, device=None):
        """Attach through Nova (the server must exist); the attachment id is returned."""
        body = {"volumeId": volume_id}
        if device:
            body["device"] = device
        compute = nova.NovaClientPlugin(self.context)
        reply = compute.request("POST", ATTACHMENTS % server_id, {"volumeAttachment": body})
        return reply["volumeAttachment"]["id"]

    def detach(self, volume_id, attachment_id=None):
        """Detach the volume from the server of attachment ``attachment_id`` (all: None)."""
        compute = nova.NovaClientPlugin(self.context)
        for attachment in self.show("volume", volume_id)["attachments"]:
            ids = (attachment.get("id"), attachment.get("attachment_id"))
            if attachment_id is None or attachment_id in ids:
                path = ATTACHMENTS % attachment["server_id"] + "/" + volume_id
                compute.request("DELETE", path)
