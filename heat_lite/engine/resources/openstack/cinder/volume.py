"""OS::Cinder::Volume: a block storage volume (creating -> available).

``size`` grows in place (extend); shrinking is refused as Heat refuses it.
"""

from heat_lite.common import exception
from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.resources.openstack import client_resource

P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint


class Volume(client_resource.ClientResource):
    default_client_name, entity = "cinder", "volume"
    replace_failed_in = ("error", "deleting")  # as Heat's needs_replace_failed

    properties_schema = {
        "availability_zone": P(
            P.STRING, "The availability zone in which the volume will be created."
        ),
        "size": P(
            P.INTEGER,
            "The size of the volume in GB. On update only increase in size is "
            "supported. This property is required unless property backup_id or "
            "source_volid or snapshot_id is specified.",
            update_allowed=True,
            constraints=[constraints.Range(min=1)],
        ),
        "snapshot_id": P(P.STRING, "If specified, the snapshot to create the volume from."),
        "backup_id": P(
            P.STRING, "If specified, the backup to create the volume from.", update_allowed=True
        ),
        "name": P(P.STRING, "A name used to distinguish the volume.", update_allowed=True),
        "description": P(P.STRING, "A description of the volume.", update_allowed=True),
        "volume_type": P(
            P.STRING,
            "If specified, the type of volume to use, mapping to a specific backend.",
            update_allowed=True,
        ),
        "metadata": P(
            P.MAP, "Key/value pairs to associate with the volume.", default={}, update_allowed=True
        ),
        "imageRef": P(P.STRING, "The ID of the image to create the volume from."),
        "image": P(
            P.STRING,
            "If specified, the name or ID of the image to create the volume from.",
            constraints=[C("glance.image")],
        ),
        "source_volid": P(
            P.STRING, "If specified, the volume to use as source.", constraints=[C("cinder.volume")]
        ),
        "scheduler_hints": P(
            P.MAP,
            "Arbitrary key-value pairs specified by the client "
            "to help the Cinder scheduler creating a volume.",
        ),
        "read_only": P(
            P.BOOLEAN, "Enables or disables read-only access mode of volume.", update_allowed=True
        ),
    }
    attributes_schema = {
        "availability_zone": A(
            "The availability zone in which the volume is located.", type=A.STRING
        ),
        "size": A("The size of the volume in GB.", type=A.STRING),
        "snapshot_id": A("The snapshot the volume was created from, if any.", type=A.STRING),
        "display_name": A("Name of the volume.", type=A.STRING),
        "display_description": A("Description of the volume.", type=A.STRING),
        "volume_type": A("The type of the volume mapping to a backend, if any.", type=A.STRING),
        "metadata": A("Key/value pairs associated with the volume.", type=A.STRING),
        "source_volid": A("The volume used as source, if any.", type=A.STRING),
        "status": A("The current status of the volume.", type=A.STRING),
        "created_at": A("The timestamp indicating volume creation.", type=A.STRING),
        "bootable": A("Boolean indicating if the volume can be booted or not.", type=A.STRING),
        "metadata_values": A(
            "Key/value pairs associated with the volume in raw dict form.", type=A.MAP
        ),
        "encrypted": A("Boolean indicating if the volume is encrypted or not.", type=A.STRING),
        "attachments": A(
            "A string representation of the list of attachments of the volume.", type=A.STRING
        ),
        "attachments_list": A("The list of attachments of the volume.", type=A.LIST),
        "multiattach": A(
            "Boolean indicating whether allow the volume to be attached more than once.",
            type=A.BOOLEAN,
        ),
    }

    check_states = ["available", "in-use"]

    def validate(self):
        """Heat's: a size, or exactly one source to take it from."""
        if self.given("backup_id", "size"):
            return
        sources = self.given("source_volid", "snapshot_id")
        if len(sources) != 1:
            raise exception.StackValidationFailed(
                message='If neither "backup_id" nor "size" is provided, one and only one of '
                '"source_volid", "snapshot_id" must be specified, but currently specified '
                "options: %s." % sources
            )

    def handle_create(self):
        props = self.properties
        image = props["image"] or props["imageRef"]
        image_id = self.client_plugin("glance").find_image_by_name_or_id(image) if image else None
        volume = self.client_plugin().create_volume(
            self.created_name(),
            props["size"] or 1,
            description=props["description"],
            volume_type=props["volume_type"] or "lvmdriver-1",
            availability_zone=props["availability_zone"] or "nova",
            metadata=props["metadata"] or {},
            imageRef=image_id,
            snapshot_id=props["snapshot_id"],
            source_volid=props["source_volid"],
            multiattach=False,
            created_at=self.stack.created_time.isoformat() if self.stack.created_time else None,
        )
        self.resource_id_set(volume["id"])
        return volume["id"]

    def check_create_complete(self, volume_id):
        return self.wait_for_status("available")

    def handle_update(self, new_defn, prop_diff):
        plugin = self.client_plugin()
        volume = plugin.show("volume", self.resource_id)
        changes = {}
        if "size" in prop_diff and self.properties["size"] is not None:
            if self.properties["size"] < volume["size"]:
                raise exception.NotSupported(feature="Shrinking volume")
            changes["size"] = self.properties["size"]
        for key in ("description", "volume_type", "metadata", "read_only"):
            if key in prop_diff:
                changes[key] = self.properties[key]
        name = self.created_name()
        plugin.update("volume", self.resource_id, name=name, **changes)

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_volume(resource_id)

    def _resolve_attribute(self, name, volume):
        if name == "display_name":
            return volume["name"]
        if name == "display_description":
            return volume.get("description")
        if name == "metadata_values":
            return volume.get("metadata") or {}
        if name == "metadata":
            return str(volume.get("metadata") or {})
        if name == "attachments_list":
            return volume.get("attachments") or []
        if name == "attachments":
            return str(volume.get("attachments") or [])
        if name in ("bootable", "encrypted", "size"):
            return str(volume.get(name)).lower() if name != "size" else str(volume["size"])
        return volume.get(name)


def resource_mapping():
    return {"OS::Cinder::Volume": Volume}
