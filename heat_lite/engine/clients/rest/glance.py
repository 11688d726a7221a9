"""Glance over REST: images, found by id or name.

GlanceClientPlugin(ctx).get_image('fedora-coreos-40')
# {'id': ..., 'name': 'fedora-coreos-40', 'os_distro': 'fedora-coreos', 'status': 'active'}
GlanceClientPlugin(ctx).find_image_by_name_or_id('fedora-coreos-40')   # its id
"""

from heat_lite.common import exception
from heat_lite.engine.clients import client_exception
from heat_lite.engine.clients.rest import base


class GlanceClientPlugin(base.RestService):
    proxy_name = "image"

    def show(self, entity, obj_id):
        return self.request("GET", "/images/%s" % obj_id)

    def list_images(self, **filters):
        return self.request("GET", "/images", params=filters or None)["images"]

    def find_image_by_name_or_id(self, image):
        """The id of the image with that id or name, remembered per project as Heat's
        glance plugin remembers it (``_find_image_id``)."""
        return self.remembered_id("image", image, lambda: self.get_image(image)["id"])

    def get_image(self, image):
        """The image with that id or name; EntityNotFound('Image') as Heat's glance plugin."""
        try:
            return self.show("image", image)
        except client_exception.NotFound:
            pass
        matches = self.list_images(name=image)
        if len(matches) > 1:
            raise client_exception.Conflict(
                "Multiple image matches found for name '%s', use an ID to be more specific." % image
            )
        if not matches:
            raise exception.EntityNotFound(entity="Image", name=image)
        return matches[0]
