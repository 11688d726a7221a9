"""Octavia over REST: load balancers, listeners, pools, members, health monitors.

``status`` of each object is its ``provisioning_status`` (PENDING_CREATE, then ACTIVE),
as the resource plugins wait on it; members live under their pool
(``/lbaas/pools/<pool>/members``), found through the pools when only their id is known.

    octavia = OctaviaClientPlugin(ctx)
    lb = octavia.create_loadbalancer('api', vip_subnet_id=subnet_id)
    octavia.show('loadbalancer', lb['id'])['vip_address']    # '10.0.0.7'
"""

from heat_lite.engine.clients import client_exception
from heat_lite.engine.clients.rest import base

MEMBERS = "/lbaas/pools/%s/members"


class OctaviaClientPlugin(base.RestService):
    proxy_name = "load_balancer"
    entities = {
        "loadbalancer": base.Entity("/lbaas/loadbalancers", "loadbalancer", "loadbalancers"),
        "listener": base.Entity("/lbaas/listeners", "listener", "listeners"),
        "pool": base.Entity("/lbaas/pools", "pool", "pools"),
        "healthmonitor": base.Entity("/lbaas/healthmonitors", "healthmonitor", "healthmonitors"),
        "member": base.Entity(None, "member", "members"),
    }
    entity_names = {
        "loadbalancer": "Load Balancer",
        "listener": "Listener",
        "pool": "Pool",
        "member": "Member",
        "healthmonitor": "Health Monitor",
    }

    def not_found(self, entity, name_or_id):
        return client_exception.NotFound(
            "%s %s not found." % (self.entity_names.get(entity, entity), name_or_id)
        )

    def view(self, entity, obj):
        return dict(obj, status=obj.get("provisioning_status"))

    def show_member(self, pool_id, member_id):
        """Member ``member_id`` of pool ``pool_id`` (one request, as Octavia's member_show)."""
        if not member_id:
            raise self.not_found("member", member_id)
        body = self.request("GET", self.url("member", member_id, pool_id=pool_id))
        return self.view("member", body["member"])

    def delete_member(self, pool_id, member_id):
        self.request("DELETE", self.url("member", member_id, pool_id=pool_id))

    def _member_pool(self, member_id):
        """The pool of a member known only by its id: every pool is listed (callers that
        know the pool say so: show_member, delete_member)."""
        for pool in self.list("pool"):
            if any(m["id"] == member_id for m in pool.get("members") or []):
                return pool["id"]
        raise self.not_found("member", member_id)

    def url(self, entity, obj_id=None, pool_id=None):
        if entity != "member":
            return super().url(entity, obj_id)
        pool_id = pool_id or self._member_pool(obj_id)
        return MEMBERS % pool_id + ("" if obj_id is None else "/%s" % obj_id)

    def list(self, entity, **filters):
        if entity != "member":
            return super().list(entity, **filters)
        members = self.request("GET", self.url("member", pool_id=filters.pop("pool_id")))
        objs = [self.view("member", m) for m in members["members"]]
        return [o for o in objs if all(base.matches(o.get(k), v) for k, v in filters.items())]

    def create_loadbalancer(
        self, name, vip_subnet_id=None, vip_network_id=None, vip_address=None, **props
    ):
        values = {k: v for k, v in props.items() if v is not None}
        for key, value in (
            ("vip_subnet_id", vip_subnet_id),
            ("vip_network_id", vip_network_id),
            ("vip_address", vip_address),
        ):
            if value:
                values[key] = value
        return self.create("loadbalancer", name=name or "", **values)

    def delete_loadbalancer(self, lb_id):
        self.delete("loadbalancer", lb_id)

    def create_child(self, entity, name, loadbalancer_id, **props):
        """A listener, pool, member or health monitor of load balancer ``loadbalancer_id``."""
        values = {k: v for k, v in props.items() if v is not None}
        if name:
            values["name"] = name
        if entity == "member":
            pool_id = values.pop("pool_id")
            body = self.request("POST", MEMBERS % pool_id, {"member": values})
            return self.view("member", body["member"])
        if entity == "listener" or (entity == "pool" and not values.get("listener_id")):
            values.setdefault("loadbalancer_id", loadbalancer_id)
        return self.create(entity, **values)

    @staticmethod
    def loadbalancer_id(obj):
        """The id of the load balancer of listener or pool ``obj``."""
        if obj.get("loadbalancer_id"):
            return obj["loadbalancer_id"]
        return (obj.get("loadbalancers") or [{}])[0].get("id")

    def delete_child(self, entity, obj_id):
        self.delete(entity, obj_id)
