"""OS::Cinder::VolumeAttachment: a volume attached to a server at ``mountpoint``.

The physical id is the volume id (what Nova's attachment call returns); deleting
detaches and waits until the volume is ``available`` again.
"""

from heat_lite.engine import constraints, properties
from heat_lite.engine.resources.openstack import client_resource

P = properties.Schema
C = constraints.CustomConstraint


class VolumeAttachment(client_resource.ClientResource):
    default_client_name, entity = "cinder", "volume"

    properties_schema = {
        "instance_uuid": P(
            P.STRING,
            "The ID of the server to which the volume attaches.",
            required=True,
            update_allowed=True,
        ),
        "volume_id": P(
            P.STRING,
            "The ID of the volume to be attached.",
            required=True,
            update_allowed=True,
            constraints=[C("cinder.volume")],
        ),
        "mountpoint": P(
            P.STRING,
            "The location where the volume is exposed on the instance. "
            "This assignment may not be honored and it is advised that the path "
            "/dev/disk/by-id/virtio-<VolumeId> be used instead.",
            update_allowed=True,
        ),
    }

    def _attach(self):
        volume = self.client_plugin().get_volume(self.properties["volume_id"])
        server = self.client_plugin("nova").get_server(self.properties["instance_uuid"])
        self.client_plugin().attach(volume["id"], server["id"], self.properties["mountpoint"])
        self.resource_id_set(volume["id"])
        return volume["id"]

    def handle_create(self):
        return self._attach()

    def check_create_complete(self, volume_id):
        return self.wait_for_status("in-use")

    def handle_update(self, new_defn, prop_diff):
        """Detach from the old server/volume, then attach as the new properties say."""
        self._detach(self.resource_id)
        return {"detaching": self.resource_id}

    def check_update_complete(self, state):
        if state.get("detaching"):
            volume = self.client_plugin().show("volume", state["detaching"])
            if volume["status"] != "available":
                return False
            state["detaching"] = None
            self._attach()
            return False
        return self.wait_for_status("in-use")

    def _detach(self, volume_id):
        plugin = self.client_plugin()
        volume = plugin.show("volume", volume_id)
        for attachment in volume["attachments"]:
            plugin.detach(volume_id, attachment["id"])

    def _delete_resource(self, resource_id):
        self._detach(resource_id)

    def check_delete_complete(self, volume_id):
        if volume_id is None:
            return True
        volume = self.client_plugin().get("volume", volume_id)
        return volume is None or volume["status"] == "available"

    def get_reference_id(self):
        return self.resource_id if self.resource_id is not None else self.name


def resource_mapping():
    return {"OS::Cinder::VolumeAttachment": VolumeAttachment}
