"""OS::Nova::Server: a server of the compute service, with its ports and addresses.

Heat 27's properties; the ones Magnum's templates use (name, image, flavor, networks
with ports, scheduler_hints, user_data, block_device_mapping_v2, ...) behave as in
Heat. Updates: ``flavor`` resizes in place (``flavor_update_policy: REPLACE`` replaces),
``image`` rebuilds (``image_update_policy: REPLACE`` replaces), ``user_data`` replaces
(``user_data_update_policy: IGNORE`` keeps the server), ``name``/``metadata``/
``networks`` change in place (networks: only the entries that changed, see
server_network_mixin). The server waits for the subnets of its networks (Heat's implicit
dependency), so it gets an address and is deleted before them.

Attributes hold the addresses the cloud gave:
``networks = {'private': ['10.0.0.5'], '<net id>': ['10.0.0.5']}``,
``first_address = '10.0.0.5'``, ``addresses = {'private': [{'addr': ..., 'port': ...}]}``.
"""

from heat_lite.common import exception
from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.resources.openstack import client_resource, implicit
from heat_lite.engine.resources.openstack.neutron.subnet import Subnet
from heat_lite.engine.resources.openstack.nova import server_network_mixin

P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint

_BDM_V2 = {
    "device_name": P(P.STRING, "A device name where the volume will be attached."),
    "volume_id": P(
        P.STRING,
        "The volume_id can be boot or non-boot device to the server.",
        constraints=[C("cinder.volume")],
    ),
    "image": P(
        P.STRING,
        "The ID or name of the image to create a volume from.",
        constraints=[C("glance.image")],
    ),
    "snapshot_id": P(P.STRING, "The ID of the snapshot to create a volume from."),
    "swap_size": P(P.INTEGER, "The size of the swap, in MB."),
    "device_type": P(
        P.STRING, "Device type.", constraints=[constraints.AllowedValues(["cdrom", "disk"])]
    ),
    "disk_bus": P(
        P.STRING,
        "Bus of the device.",
        constraints=[constraints.AllowedValues(["ide", "lame_bus", "scsi", "usb", "virtio"])],
    ),
    "boot_index": P(P.INTEGER, "Integer used for ordering the boot disks."),
    "volume_size": P(P.INTEGER, "Size of the block device in GB."),
    "delete_on_termination": P(P.BOOLEAN, "Whether the volume is deleted with the server."),
}

_NETWORK = {
    "uuid": P(P.STRING, "ID of network to create a port on.", constraints=[C("neutron.network")]),
    "network": P(
        P.STRING, "Name or ID of network to create a port on.", constraints=[C("neutron.network")]
    ),
    "fixed_ip": P(
        P.STRING,
        "Fixed IP address to specify for the port created on the requested network.",
        constraints=[C("ip_addr")],
    ),
    "port": P(
        P.STRING,
        "ID of an existing port to associate with this server.",
        constraints=[C("neutron.port")],
    ),
    "subnet": P(P.STRING, "Subnet in which to allocate the IP address for port."),
    "port_extra_properties": P(P.MAP, "Dict, which has expand properties for port."),
    "floating_ip": P(P.STRING, "ID of the floating IP to associate."),
    "tag": P(P.STRING, "Port tag."),
    "allocate_network": P(
        P.STRING,
        "The special string values of network, auto: means "
        "either a network that is already available to the project "
        "will be used, or if one does not exist, will be automatically "
        "created for the project; none: means no networking will be "
        "allocated for the created server.",
        constraints=[constraints.AllowedValues(["none", "auto"])],
    ),
}


class Server(server_network_mixin.ServerNetworkMixin, client_resource.ClientResource):
    default_client_name, entity = "nova", "server"
    replace_failed_in = ("ERROR", "DELETED", "SOFT_DELETED")  # as Heat's needs_replace_failed

    properties_schema = {
        "name": P(P.STRING, "Server name.", update_allowed=True),
        "image": P(
            P.STRING,
            "The ID or name of the image to boot with.",
            constraints=[C("glance.image")],
            update_allowed=True,
        ),
        "block_device_mapping": P(
            P.LIST,
            "Block device mappings for this server.",
            schema=P(
                P.MAP,
                schema={
                    "device_name": P(P.STRING, "A device name.", required=True),
                    "volume_id": P(
                        P.STRING,
                        "The ID of the volume to boot from.",
                        constraints=[C("cinder.volume")],
                    ),
                    "snapshot_id": P(P.STRING, "The ID of the snapshot."),
                    "volume_size": P(P.INTEGER, "The size of the volume, in GB."),
                    "delete_on_termination": P(P.BOOLEAN, "Delete with server."),
                },
            ),
        ),
        "block_device_mapping_v2": P(
            P.LIST, "Block device mappings v2 for this server.", schema=P(P.MAP, schema=_BDM_V2)
        ),
        "flavor": P(
            P.STRING,
            "The ID or name of the flavor to boot onto.",
            required=True,
            update_allowed=True,
            constraints=[C("nova.flavor")],
        ),
        "flavor_update_policy": P(
            P.STRING,
            "Policy on how to apply a flavor update; either by requesting a server "
            "resize or by replacing the entire server.",
            default="RESIZE",
            constraints=[constraints.AllowedValues(["RESIZE", "REPLACE"])],
            update_allowed=True,
        ),
        "image_update_policy": P(
            P.STRING,
            "Policy on how to apply an image-id update; either by requesting a "
            "server rebuild or by replacing the entire server.",
            default="REBUILD",
            constraints=[
                constraints.AllowedValues(["REBUILD", "REPLACE", "REBUILD_PRESERVE_EPHEMERAL"])
            ],
            update_allowed=True,
        ),
        "key_name": P(
            P.STRING, "Name of keypair to inject into the server.", constraints=[C("nova.keypair")]
        ),
        "availability_zone": P(P.STRING, "Name of the availability zone for server placement."),
        "security_groups": P(P.LIST, "List of security group names or IDs.", default=[]),
        "networks": P(
            P.LIST,
            "An ordered list of nics to be added to this server.",
            schema=P(P.MAP, schema=_NETWORK),
            update_allowed=True,
        ),
        "scheduler_hints": P(
            P.MAP, "Arbitrary key-value pairs specified by the client to help boot a server."
        ),
        "metadata": P(
            P.MAP,
            "Arbitrary key/value metadata to store for this server.",
            default={},
            update_allowed=True,
        ),
        "user_data_format": P(
            P.STRING,
            "How the user_data should be formatted for the server.",
            default="HEAT_CFNTOOLS",
            constraints=[constraints.AllowedValues(["HEAT_CFNTOOLS", "RAW", "SOFTWARE_CONFIG"])],
        ),
        "software_config_transport": P(
            P.STRING,
            "How the server should receive the metadata required for software configuration.",
            default="POLL_SERVER_CFN",
            constraints=[
                constraints.AllowedValues(
                    ["POLL_SERVER_CFN", "POLL_SERVER_HEAT", "POLL_TEMP_URL", "ZAQAR_MESSAGE"]
                )
            ],
            update_allowed=True,
        ),
        "user_data_update_policy": P(
            P.STRING,
            "Policy on how to apply a user_data update; either by ignoring it or by "
            "replacing the entire server.",
            default="REPLACE",
            constraints=[constraints.AllowedValues(["REPLACE", "IGNORE"])],
            update_allowed=True,
        ),
        "user_data": P(
            P.STRING,
            "User data script to be executed by cloud-init.",
            default="",
            update_allowed=True,
        ),
        "reservation_id": P(P.STRING, "A UUID for the set of servers being requested."),
        "config_drive": P(P.BOOLEAN, "If True, enable config drive on the server."),
        "diskConfig": P(
            P.STRING,
            "Control how the disk is partitioned when the server is created.",
            constraints=[constraints.AllowedValues(["AUTO", "MANUAL"])],
        ),
        "personality": P(
            P.MAP, "A map of files to create/overwrite on the server upon boot.", default={}
        ),
        "admin_pass": P(
            P.STRING, "The administrator password for the server.", update_allowed=True
        ),
        "deployment_swift_data": P(
            P.MAP,
            "Swift container and object to use for storing "
            "deployment data for the server resource.",
            default={},
            update_allowed=True,
        ),
        "tags": P(P.LIST, "Server tags.", update_allowed=True),
    }

    attributes_schema = {
        "name": A("Name of the server.", type=A.STRING),
        "addresses": A(
            "A dict of all network addresses with corresponding port_id and subnets.", type=A.MAP
        ),
        "networks": A(
            "A dict of assigned network addresses of the form: "
            '{"public": [ip1, ip2...], "private": [ip3, ip4], '
            '"public_uuid": [ip1, ip2...], "private_uuid": [ip3, ip4]}.',
            type=A.MAP,
        ),
        "first_address": A(
            "Convenience attribute to fetch the first assigned network "
            "address, or an empty string if nothing has been assigned at this "
            "time.",
            type=A.STRING,
        ),
        "instance_name": A("AWS compatible instance name.", type=A.STRING),
        "accessIPv4": A(
            "The manually assigned alternative public IPv4 address of the server.", type=A.STRING
        ),
        "accessIPv6": A(
            "The manually assigned alternative public IPv6 address of the server.", type=A.STRING
        ),
        "console_urls": A("URLs of server's consoles.", type=A.MAP),
        "os_collect_config": A(
            "The os-collect-config configuration for the server's local "
            "agent to be configured to connect to Heat to retrieve "
            "deployment data.",
            type=A.MAP,
        ),
        "tags": A("Tags from the server.", type=A.LIST),
    }

    @classmethod
    def implied_dependencies(cls, defn, stack):
        """As Heat's Server.add_dependencies: the subnets of the server's networks come
        first (which one gives the address is not known); a subnet whose network is not
        known yet, or any subnet when an entry names no network, too."""
        nets = implicit.value(implicit.properties_of(defn, cls, stack), "networks")
        if nets is implicit.UNREADABLE or not nets:
            return
        net_ids = [net.get("network") or net.get("uuid") for net in nets]
        for name, props in implicit.resources_of(stack, Subnet, but=defn.name):
            subnet_net = implicit.value(props, "network", "network_id")
            if subnet_net is implicit.UNREADABLE:
                continue
            if not subnet_net or any(not net_id or net_id == subnet_net for net_id in net_ids):
                yield name

    # -- create -----------------------------------------------------------------------------

    def _image_id(self, image):
        return self.client_plugin("glance").find_image_by_name_or_id(image)

    def _boot_volume(self):
        for bdm in (self.properties["block_device_mapping_v2"] or []) + (
            self.properties["block_device_mapping"] or []
        ):
            if bdm.get("volume_id") and bdm.get("boot_index", 0) in (0, None):
                return bdm["volume_id"]
        return None

    def validate(self):
        super().validate()
        self.validate_networks(
            self.properties["networks"] or [], self.properties["security_groups"]
        )
        if not self.given("image") and self._boot_volume() is None:
            raise exception.StackValidationFailed(
                message="Neither image nor bootable volume is specified for instance %s" % self.name
            )

    def handle_create(self):
        props = self.properties
        image = props["image"]
        nova = self.client_plugin()
        server = nova.create_server(
            self.created_name(),
            self._image_id(image) if image else None,
            props["flavor"],
            networks=self.build_nics(
                self.resolved_networks(props["networks"]), props["security_groups"]
            ),
            key_name=props["key_name"],
            metadata=props["metadata"] or {},
            availability_zone=props["availability_zone"],
            scheduler_hints=props["scheduler_hints"] or {},
            user_data=props["user_data"],
            tags=props["tags"] or [],
            security_groups=[{"name": g} for g in props["security_groups"] or []],
            block_device_mapping_v2=props["block_device_mapping_v2"] or [],
        )
        self.resource_id_set(server["id"])
        return server["id"]

    def check_create_complete(self, server_id):
        return self.wait_for_status("ACTIVE")

    # -- update ---------------------------------------------------------------------------

    def needs_replace_with_prop_diff(self, prop_diff, after):
        policies = (
            ("flavor", "flavor_update_policy", "REPLACE"),
            ("image", "image_update_policy", "REPLACE"),
            ("user_data", "user_data_update_policy", "REPLACE"),
        )
        return any(
            key in prop_diff and after.get(policy) == value for key, policy, value in policies
        )

    def parse_live_resource_data(self, resource_properties, server):
        """Name, metadata, tags and the flavor (by the name or id the template used), as
        Heat's Server.parse_live_resource_data."""
        live = super().parse_live_resource_data(resource_properties, server)
        flavor = server.get("flavor") or {}
        given = resource_properties.get("flavor")
        live["flavor"] = (
            flavor.get("id") if given == flavor.get("id") else flavor.get("original_name")
        )
        return live

    def prepare_for_replace(self):
        """As Heat: free the ports the template gave, for the replacement server."""
        if self.resource_id is not None:
            self.client_plugin("neutron").unbind_ports(self.resource_id)

    def restore_prev_rsrc(self, replacement_id):
        """As Heat's restore_ports_after_rollback: the ports this server gave up are
        detached from the replacement and attached back to this server."""
        if self.resource_id is None:
            return
        nova, neutron = self.client_plugin(), self.client_plugin("neutron")
        for port_id in self.given_ports((self.properties_data or {}).get("networks")):
            port = neutron.get("port", port_id)
            if port is None or port["device_id"] not in ("", replacement_id):
                continue
            if port["device_id"]:
                nova.interface_detach(replacement_id, port_id)
            nova.interface_attach(self.resource_id, port_id=port_id)

    def handle_update(self, new_defn, prop_diff):
        nova = self.client_plugin()
        if "name" in prop_diff or "metadata" in prop_diff or "tags" in prop_diff:
            nova.update(
                "server",
                self.resource_id,
                name=self.created_name(),
                metadata=self.properties["metadata"] or {},
                tags=self.properties["tags"] or [],
            )
        if "networks" in prop_diff:
            self.update_networks(
                (self.properties_data or {}).get("networks"),
                self.properties["networks"],
                self.properties["security_groups"],
            )
        if "flavor" in prop_diff:
            nova.resize_server(self.resource_id, self.properties["flavor"])
        if "image" in prop_diff and self.properties["image"]:
            nova.rebuild_server(self.resource_id, self._image_id(self.properties["image"]))
        return self.resource_id

    def check_update_complete(self, server_id):
        """As Heat's check_resize: a resize waiting in VERIFY_RESIZE is confirmed."""
        server = self._status_resource()
        if server["status"] == "VERIFY_RESIZE":
            self.client_plugin().confirm_resize(self.resource_id)
            return False
        return self.wait_for_status("ACTIVE", obj=server)

    # -- check, suspend, resume ----------------------------------------------------------

    check_states = "ACTIVE"

    def handle_suspend(self):
        self.client_plugin().suspend_server(self.resource_id)

    def check_suspend_complete(self, token):
        return self.wait_for_status("SUSPENDED")

    def handle_resume(self):
        self.client_plugin().resume_server(self.resource_id)

    def check_resume_complete(self, token):
        return self.wait_for_status("ACTIVE")

    # -- delete and attributes --------------------------------------------------------------

    def handle_delete(self):
        if self.resource_id is None:
            self.delete_internal_ports()  # no server: its ports were never attached
        return super().handle_delete()

    def check_delete_complete(self, server_id):
        """Once the server is gone, Heat deletes the ports it made for it."""
        if not super().check_delete_complete(server_id):
            return False
        self.delete_internal_ports()
        return True

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_server(resource_id)

    def _show_resource(self):
        return self.client_plugin().show_server(self.resource_id)

    def _status_resource(self):
        # as Heat's _check_active: the server alone, not show_server's flavor look-up
        return self.client_plugin().show("server", self.resource_id)

    def _resolve_attribute(self, name, server):
        if name == "addresses":
            return self._addresses(server)
        if name == "networks":
            return self._networks(server)
        if name == "first_address":
            return next(
                (
                    a["addr"]
                    for addrs in server["addresses"].values()
                    for a in addrs
                    if a["version"] == 4
                ),
                "",
            )
        if name == "instance_name":
            return server.get("OS-EXT-SRV-ATTR:instance_name")
        if name == "console_urls":
            return {"novnc": "http://127.0.0.1:6080/vnc_auto.html?token=%s" % server["id"]}
        if name == "os_collect_config":
            return {}
        return server.get(name)

    def _addresses(self, server):
        """Nova's addresses plus the port of each (found by MAC address, as Heat does)."""
        ports = self.client_plugin("neutron").list("port", device_id=server["id"])
        by_mac = {p["mac_address"]: p["id"] for p in ports}
        return {
            net_name: [dict(a, port=by_mac.get(a["OS-EXT-IPS-MAC:mac_addr"])) for a in addrs]
            for net_name, addrs in server["addresses"].items()
        }

    def _networks(self, server):
        neutron = self.client_plugin("neutron")
        networks = {}
        for port in neutron.list("port", device_id=server["id"]):
            net = neutron.get("net", port["network_id"])
            ips = [ip["ip_address"] for ip in port["fixed_ips"]]
            for key in filter(None, (net["name"] if net else None, port["network_id"])):
                networks.setdefault(key, []).extend(ips)
        return networks


def resource_mapping():
    return {"OS::Nova::Server": Server}
