"""OS::Neutron::Router (with its external gateway) and OS::Neutron::RouterInterface.

A router interface's physical id is Heat's ``<router id>:subnet_id=<subnet id>`` (or
``:port_id=<port id>``).
"""

from heat_lite.common import exception
from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.clients import client_exception
from heat_lite.engine.resources.openstack import implicit
from heat_lite.engine.resources.openstack.neutron import neutron
from heat_lite.engine.resources.openstack.neutron.subnet import Subnet

P = properties.Schema
A = attributes.Schema
C = constraints.CustomConstraint


class Router(neutron.NeutronResource):
    entity = "router"

    properties_schema = {
        "name": P(P.STRING, "The name of the router.", update_allowed=True),
        "external_gateway_info": P(
            P.MAP,
            "External network gateway configuration for a router.",
            schema={
                "network": P(
                    P.STRING,
                    "ID or name of the external network for the gateway.",
                    required=True,
                    update_allowed=True,
                    constraints=[C("neutron.network")],
                ),
                "enable_snat": P(
                    P.BOOLEAN, "Enables Source NAT on the router gateway.", update_allowed=True
                ),
                "external_fixed_ips": P(
                    P.LIST,
                    "External fixed IP addresses for the gateway.",
                    schema=P(
                        P.MAP,
                        schema={
                            "ip_address": P(
                                P.STRING, "External fixed IP address.", constraints=[C("ip_addr")]
                            ),
                            "subnet": P(
                                P.STRING,
                                "Subnet of external fixed IP address.",
                                constraints=[C("neutron.subnet")],
                            ),
                        },
                    ),
                    update_allowed=True,
                ),
            },
            update_allowed=True,
        ),
        "value_specs": neutron.value_specs_schema(),
        "admin_state_up": P(
            P.BOOLEAN, "The administrative state of the router.", default=True, update_allowed=True
        ),
        "l3_agent_ids": P(
            P.LIST, "ID list of the L3 agent.", schema=P(P.STRING), update_allowed=True
        ),
        "distributed": P(P.BOOLEAN, "Indicates whether or not to create a distributed router."),
        "ha": P(P.BOOLEAN, "Indicates whether or not to create a highly available router."),
        "tags": P(
            P.LIST, "The tags to be added to the router.", schema=P(P.STRING), update_allowed=True
        ),
        "availability_zone_hints": P(
            P.LIST,
            "Availability zone candidates for the router. It requires the availability_zone "
            "extension to be available.",
            update_allowed=True,
        ),
        "tenant_id": P(P.STRING, "The ID of the tenant who owns the router."),
    }
    attributes_schema = {
        "status": A("The status of the router.", type=A.STRING),
        "external_gateway_info": A("Gateway network for the router.", type=A.MAP),
        "name": A("Friendly name of the router.", type=A.STRING),
        "admin_state_up": A("Administrative state of the router.", type=A.STRING),
        "tenant_id": A("Tenant owning the router.", type=A.STRING),
    }

    @classmethod
    def implied_dependencies(cls, defn, stack):
        """As Heat's Router.add_dependencies: with an external gateway, the subnets of the
        gateway's network in this stack come first (the gateway takes a port on them)."""
        gateway = implicit.value(implicit.properties_of(defn, cls, stack), "external_gateway_info")
        if gateway is implicit.UNREADABLE or not gateway:
            return
        for name, props in implicit.resources_of(stack, Subnet, but=defn.name):
            if implicit.value(props, "network", "network_id") == gateway.get("network"):
                yield name

    def _gateway(self):
        info = self.properties["external_gateway_info"]
        if not info:
            return None
        gateway = {"network_id": info["network"]}
        if info.get("enable_snat") is not None:
            gateway["enable_snat"] = info["enable_snat"]
        return gateway

    def handle_create(self):
        router = self.client_plugin().create_router(
            self.created_name(),
            self._gateway(),
            admin_state_up=self.properties["admin_state_up"],
            tags=self.properties["tags"] or [],
            **self.value_specs(),
        )
        self.resource_id_set(router["id"])

    def handle_update(self, new_defn, prop_diff):
        neutron_client = self.client_plugin()
        if "external_gateway_info" in prop_diff:
            neutron_client.set_gateway(self.resource_id, self._gateway())
        neutron_client.update(
            "router",
            self.resource_id,
            name=self.created_name(),
            admin_state_up=self.properties["admin_state_up"],
            tags=self.properties["tags"] or [],
        )

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_router(resource_id)


class RouterInterface(neutron.NeutronResource):
    entity = "router"
    one_of = (("router", "router_id"), ("subnet", "subnet_id", "port", "port_id"))
    exclusive = (("subnet", "subnet_id", "port", "port_id"),)

    properties_schema = {
        "router": P(P.STRING, "The router.", constraints=[C("neutron.router")]),
        "router_id": P(P.STRING, "ID of the router.", constraints=[C("neutron.router")]),
        "subnet_id": P(P.STRING, "The subnet id.", constraints=[C("neutron.subnet")]),
        "subnet": P(
            P.STRING,
            "The subnet, either subnet or port should be specified.",
            constraints=[C("neutron.subnet")],
        ),
        "port_id": P(P.STRING, "The port id.", constraints=[C("neutron.port")]),
        "port": P(
            P.STRING,
            "The port, either subnet or port should be specified.",
            constraints=[C("neutron.port")],
        ),
    }

    def _target(self):
        props = self.properties
        return (
            props["router"] or props["router_id"],
            props["subnet"] or props["subnet_id"],
            props["port"] or props["port_id"],
        )

    def _interface_id(self):
        """``<router id>:subnet_id=<id>`` (or ``:port_id=``): the interface's physical id."""
        router, subnet, port = self._target()
        if subnet:
            target = "subnet_id=%s" % self.find("subnet", subnet)
        else:
            target = "port_id=%s" % self.find("port", port)
        return "%s:%s" % (self.find("router", router), target)

    def handle_create(self):
        interface_id = self._interface_id()
        router_id, key, value = self._parts(interface_id)
        self.client_plugin().add_interface(router_id, **{key: value})
        self.resource_id_set(interface_id)

    def find_unrecorded_object(self):
        """An interface is named by its router and subnet (or port): the one the create
        adds, added or not (removing one that is not there is fine)."""
        try:
            return self._interface_id()
        except (client_exception.NotFound, exception.EntityNotFound):
            return None  # the router or the subnet is gone: so is the interface

    def _parts(self, resource_id):
        router_id, _, target = resource_id.partition(":")
        key, _, value = target.partition("=")
        return router_id, key, value

    def _delete_resource(self, resource_id):
        router_id, key, value = self._parts(resource_id)
        self.client_plugin().remove_interface(router_id, **{key: value})

    def check_delete_complete(self, resource_id):
        return True

    def _show_resource(self):
        router_id, key, value = self._parts(self.resource_id)
        router = self.client_plugin().show("router", router_id)
        return {"router_id": router["id"], key: value}


def resource_mapping():
    return {"OS::Neutron::Router": Router, "OS::Neutron::RouterInterface": RouterInterface}
