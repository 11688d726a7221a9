"""Simulated Glance: images with their properties (os_distro, ...), seeded and created.

An image is ``queued`` until data is uploaded (then ``active``); seeded images
(``[simulation] images``) are public and active, their ids derived from their names.

    glance = GlanceService(ctx)
    img = glance.create_image('fcos', disk_format='qcow2', os_distro='fedora-coreos')
    glance.upload(img['id'], b'...')['status']           # 'active'
    glance.show('image', img['id'])['os_distro']       # 'fedora-coreos'
"""

import hashlib

from simcloud.cloud import base
from simcloud.common import exception
from simcloud.conf import CONF

QUEUED, ACTIVE = "queued", "active"
VISIBILITIES = ("public", "private", "shared", "community")
# what Glance itself sets: a caller may not set these (403 in Glance)
READ_ONLY = (
    "id",
    "status",
    "size",
    "virtual_size",
    "checksum",
    "os_hash_algo",
    "os_hash_value",
    "owner",
    "created_at",
    "updated_at",
    "file",
    "schema",
    "self",
    "direct_url",
    "locations",
)


class GlanceService(base.SimService):
    service = "glance"
    entity_names = {"image": "Image"}

    def not_found(self, entity, name_or_id):
        return exception.NotFound("No image found with ID %s" % name_or_id, kind=entity)

    def shared(self, obj):
        return obj.get("visibility") in ("public", "community")

    def seed_images(self):
        for entry in CONF.simulation.images:
            name, _, os_distro = entry.partition(":")
            image_id = base.seeded_id("glance.image", name)
            if self.get("image", image_id) is None:
                props = {"os_distro": os_distro} if os_distro else {}
                image = self.create_image(name, image_id=image_id, visibility="public", **props)
                self.upload(image["id"], name.encode())

    def create_image(self, name, image_id=None, **props):
        for key in READ_ONLY:
            if key in props and not (key == "id"):
                raise exception.Forbidden("Attribute '%s' is read-only." % key)
        visibility = props.pop("visibility", None) or "shared"
        if visibility not in VISIBILITIES:
            raise exception.BadRequest("Invalid visibility value: %s" % visibility)
        values = dict(
            props,
            visibility=visibility,
            protected=bool(props.get("protected", False)),
            disk_format=props.get("disk_format"),
            container_format=props.get("container_format"),
            min_disk=int(props.get("min_disk") or 0),
            min_ram=int(props.get("min_ram") or 0),
            tags=list(props.get("tags") or []),
            size=None,
            checksum=None,
            os_hidden=bool(props.get("os_hidden", False)),
        )
        return self.create("image", name, values, ready=QUEUED, obj_id=image_id)

    def upload(self, image_id, data):
        image = self.show("image", image_id)
        if image["status"] != QUEUED:
            raise exception.Conflict(
                "Image status transition from %s to saving is not allowed" % image["status"]
            )
        self.set_status(
            "image",
            image_id,
            ACTIVE,
            size=len(data),
            checksum=hashlib.md5(data, usedforsecurity=False).hexdigest(),
            os_hash_algo="sha512",
            os_hash_value=hashlib.sha512(data).hexdigest(),
        )
        return self.show("image", image_id)

    def update_image(self, image_id, name=None, remove=(), **props):
        image = self.show("image", image_id)
        self._check_owner(image)
        for key in READ_ONLY:
            if key in props or key in remove:
                raise exception.Forbidden("Attribute '%s' is read-only." % key)
        return self.update("image", image_id, name=name, remove=tuple(remove), **props)

    def delete_image(self, image_id):
        image = self.show("image", image_id)
        self._check_owner(image)
        if image.get("protected"):
            raise exception.Forbidden("Image %s is protected and cannot be deleted." % image_id)
        self.delete("image", image_id)

    def _check_owner(self, image):
        ctx = self.context
        if ctx is not None and not ctx.is_admin and image["project_id"] != ctx.project_id:
            raise exception.Forbidden("You are not permitted to modify this image.")
