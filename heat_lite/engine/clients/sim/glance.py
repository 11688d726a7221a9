"""Simulated Glance: the images seeded from ``[simulated_cloud] images`` (read-only).

GlanceClientPlugin(ctx).find_image_by_name_or_id('fedora-coreos-40')
# {'id': '<uuid5 of the name>', 'name': 'fedora-coreos-40', 'os_distro': 'fedora-coreos',
#  'status': 'active', ...}
"""

import uuid

from heat_lite.common import exception
from heat_lite.conf import CONF

# ids of seeded objects are derived from their names: every process agrees on them
SIM_NAMESPACE = uuid.UUID("3f1c7d2e-5b8a-4c6f-9e21-6a0d4b8c2f11")


def seeded_id(kind, name):
    return str(uuid.uuid5(SIM_NAMESPACE, "%s:%s" % (kind, name)))


def images():
    result = []
    for entry in CONF.simulated_cloud.images:
        name, _, os_distro = entry.partition(":")
        result.append(
            {
                "id": seeded_id("glance.image", name),
                "name": name,
                "os_distro": os_distro or None,
                "status": "active",
                "visibility": "public",
                "disk_format": "qcow2",
                "container_format": "bare",
                "min_disk": 0,
                "min_ram": 0,
            }
        )
    return result


class GlanceClientPlugin:
    def __init__(self, context):
        self.context = context

    def list_images(self):
        return images()

    def find_image_by_name_or_id(self, image):
        """The image with that id or name; EntityNotFound('Image') as Heat's glance plugin."""
        for img in images():
            if image in (img["id"], img["name"]):
                return img
        raise exception.EntityNotFound(entity="Image", name=image)
