"""Simulated Cinder: volumes (creating -> available) and their attachments to servers
(attaching -> in-use, detaching -> available).

    cinder = CinderService(ctx)
    vol = cinder.create_volume('data', 10)
    cinder.attach(vol['id'], server_id, '/dev/vdb')
    cinder.show('volume', vol['id'])['attachments']   # [{'server_id': ..., 'device': ...}]
"""

import uuid

from simcloud.cloud import base
from simcloud.common import exception
from simcloud.db import objects as db

CREATING, AVAILABLE, IN_USE, ERROR = "creating", "available", "in-use", "error"
ATTACHING, DETACHING = "attaching", "detaching"


class CinderService(base.SimService):
    service = "cinder"
    entity_names = {"volume": "Volume"}

    def create_volume(self, name, size, **props):
        values = dict(props, size=size, attachments=[], encrypted=False, multiattach=False)
        values["bootable"] = "true" if props.get("imageRef") else "false"
        return self.create(
            "volume", name or "", values, building=CREATING, ready=AVAILABLE, failed=ERROR
        )

    def delete_volume(self, volume_id):
        volume = self.show("volume", volume_id)
        if volume["status"] not in (AVAILABLE, ERROR):
            raise exception.BadRequest(
                "Invalid volume: Volume status must be available or error or error_restoring "
                "or error_extending or error_managing and must not be migrating, attached, "
                "belong to a group, have snapshots or be disassociated from snapshots after "
                "volume transfer."
            )
        self.delete("volume", volume_id)

    def attach(self, volume_id, server_id, device=None):
        """Attach (the server must exist); the attachment id is returned."""
        volume = self.show("volume", volume_id)
        if volume["status"] != AVAILABLE:
            raise exception.BadRequest(
                "Invalid volume: volume %s status must be available, but current status is: %s."
                % (volume_id, volume["status"])
            )
        if db.get(server_id, "nova.server") is None:
            raise exception.NotFound("Instance %s could not be found." % server_id, kind="server")
        attachment = {
            "id": str(uuid.uuid4()),
            "attachment_id": str(uuid.uuid4()),
            "server_id": server_id,
            "volume_id": volume_id,
            "device": device or "/dev/vdb",
        }
        self.transition("volume", volume_id, ATTACHING, IN_USE, attachments=[attachment])
        return attachment["id"]

    def detach(self, volume_id, attachment_id=None):
        volume = self.show("volume", volume_id)
        remaining = [a for a in volume["attachments"] if attachment_id not in (None, a["id"])]
        self.transition(
            "volume",
            volume_id,
            DETACHING,
            IN_USE if remaining else AVAILABLE,
            attachments=remaining,
        )

    def release_server(self, server_id):
        """A server went: its volumes are detached at once."""
        for volume in self.list("volume"):
            attachments = [a for a in volume["attachments"] if a["server_id"] != server_id]
            if len(attachments) != len(volume["attachments"]):
                if attachments:
                    self.update("volume", volume["id"], attachments=attachments)
                else:
                    self.set_status("volume", volume["id"], AVAILABLE, attachments=attachments)
