"""Simulated Octavia (and Neutron LBaaS v2, the same API): load balancers, listeners, pools,
members, health monitors.

A load balancer is PENDING_CREATE, then ACTIVE (``provisioning_status``, kept as the
object's status); its VIP is a port on ``vip_subnet_id``. Children are ACTIVE at once.
As in Octavia, a load balancer with listeners or pools cannot be deleted (409), and a
pool takes its members and health monitor with it.

    octavia = OctaviaService(ctx)
    lb = octavia.create_loadbalancer('api', vip_subnet_id=subnet_id)
    octavia.show('loadbalancer', lb['id'])['vip_address']    # '10.0.0.7'
"""

from simcloud.cloud import base, neutron
from simcloud.common import exception

PENDING_CREATE, ACTIVE, ERROR = "PENDING_CREATE", "ACTIVE", "ERROR"
CHILDREN = ("listener", "pool", "member", "healthmonitor")


class OctaviaService(base.SimService):
    service = "octavia"
    entity_names = {
        "loadbalancer": "Load Balancer",
        "listener": "Listener",
        "pool": "Pool",
        "member": "Member",
        "healthmonitor": "Health Monitor",
    }

    def not_found(self, entity, name_or_id):
        return exception.NotFound(
            "%s %s not found." % (self.entity_names.get(entity, entity), name_or_id)
        )

    def show(self, entity, obj_id):
        obj = super().show(entity, obj_id)
        obj["provisioning_status"] = obj["status"]
        obj["operating_status"] = "ONLINE" if obj["status"] == ACTIVE else "OFFLINE"
        return obj

    def create_loadbalancer(
        self, name, vip_subnet_id=None, vip_network_id=None, vip_address=None, **props
    ):
        net = neutron.NeutronService(self.context)
        if vip_subnet_id:
            network_id = net.show("subnet", vip_subnet_id)["network_id"]
            fixed = [{"subnet_id": vip_subnet_id, "ip_address": vip_address}]
        else:
            network_id, fixed = (
                vip_network_id,
                [{"ip_address": vip_address}] if vip_address else None,
            )
        if fixed and fixed[0].get("ip_address") is None:
            fixed[0].pop("ip_address")
        port = net.create_port(
            network_id, name="octavia-lb-vip", fixed_ips=fixed, device_owner="Octavia"
        )
        values = dict(
            props,
            vip_address=port["fixed_ips"][0]["ip_address"] if port["fixed_ips"] else None,
            vip_port_id=port["id"],
            vip_subnet_id=port["fixed_ips"][0]["subnet_id"] if port["fixed_ips"] else None,
            vip_network_id=network_id,
            listeners=[],
            pools=[],
        )
        lb = self.create("loadbalancer", name or "", values, building=PENDING_CREATE, ready=ACTIVE)
        net.update("port", port["id"], device_id="lb-%s" % lb["id"])
        return lb

    def delete_loadbalancer(self, lb_id):
        lb = self.show("loadbalancer", lb_id)
        if self.list("listener", loadbalancer_id=lb_id) or self.list("pool", loadbalancer_id=lb_id):
            raise exception.Conflict(
                "Validation failure: Cannot delete Load Balancer %s - it has children" % lb_id
            )
        net = neutron.NeutronService(self.context)
        if net.get("port", lb["vip_port_id"]) is not None:
            net.delete_port(lb["vip_port_id"])
        self.delete("loadbalancer", lb_id)

    def create_child(self, entity, name, loadbalancer_id, **props):
        """A listener, pool, member or health monitor of load balancer ``loadbalancer_id``."""
        lb = self.show("loadbalancer", loadbalancer_id)
        if lb["status"] != ACTIVE:
            raise exception.Conflict(
                "Load Balancer %s is immutable and cannot be updated." % loadbalancer_id
            )
        values = dict(props, loadbalancer_id=loadbalancer_id)
        return self.create(entity, name or "", values)

    def loadbalancer_of(self, entity, obj_id):
        return self.show(entity, obj_id)["loadbalancer_id"]

    def delete_child(self, entity, obj_id):
        self.show(entity, obj_id)
        if entity == "pool":
            for child in ("member", "healthmonitor"):
                for obj in self.list(child, pool_id=obj_id):
                    self.delete(child, obj["id"])
        if entity == "listener":
            for pool in self.list("pool", listener_id=obj_id):
                self.update("pool", pool["id"], listener_id=None)
        self.delete(entity, obj_id)
