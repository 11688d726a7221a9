"""The load-balancer service (Octavia v2 subset) under ``/load-balancer``: load balancers
(PENDING_CREATE -> ACTIVE), listeners, pools, members and health monitors.

Errors are Octavia's WSME bodies: ``{"faultcode": "Client", "faultstring": ..., "debuginfo":
null}``.
"""

import datetime

from simcloud.api import router
from simcloud.cloud import octavia
from simcloud.common import exception

# collection -> entity of the simulated service
COLLECTIONS = {
    "loadbalancers": "loadbalancer",
    "listeners": "listener",
    "pools": "pool",
    "healthmonitors": "healthmonitor",
}


def octavia_error(exc):
    if exc.code == 401:
        return router.keystone_error(exc)
    fault = "Client" if exc.code < 500 else "Server"
    return router.json_response(
        exc.code, {"faultcode": fault, "faultstring": exc.message, "debuginfo": None}
    )


def versions(req):
    link = {"rel": "self", "href": req.url("/load-balancer/v2")}
    return 200, {
        "versions": [
            {"id": "v2.0", "status": "SUPPORTED", "links": [link]},
            {"id": "v2.27", "status": "CURRENT", "links": [link]},
        ]
    }


def _time(value):
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S")
    return value


def view(obj):
    body = {k: v for k, v in obj.items() if k not in ("created_at", "updated_at", "status")}
    body.update(
        project_id=obj["project_id"],
        tenant_id=obj["project_id"],
        created_at=_time(obj.get("created_at")),
        updated_at=_time(obj.get("updated_at")),
        provisioning_status=obj["status"],
        operating_status="ONLINE" if obj["status"] == octavia.ACTIVE else "OFFLINE",
        admin_state_up=obj.get("admin_state_up", True),
    )
    body.setdefault("description", "")
    return body


def _svc(req):
    return octavia.OctaviaService(req.context)


def _refs(ids):
    return [{"id": i} for i in ids if i]


def related(svc, entity, obj):
    """Octavia's lists of related objects (``loadbalancers``, ``listeners``, ``pools``,
    ``members``) of one object."""
    oid = obj["id"]
    if entity == "loadbalancer":
        return {
            "listeners": _refs(o["id"] for o in svc.list("listener", loadbalancer_id=oid)),
            "pools": _refs(o["id"] for o in svc.list("pool", loadbalancer_id=oid)),
        }
    if entity == "listener":
        return {"loadbalancers": _refs([obj.get("loadbalancer_id")])}
    if entity == "pool":
        return {
            "loadbalancers": _refs([obj.get("loadbalancer_id")]),
            "listeners": _refs([obj.get("listener_id")]),
            "members": _refs(o["id"] for o in svc.list("member", pool_id=oid)),
            "healthmonitor_id": next(
                (o["id"] for o in svc.list("healthmonitor", pool_id=oid)), None
            ),
        }
    if entity == "healthmonitor":
        return {"pools": _refs([obj.get("pool_id")])}
    return {}


def full_view(svc, entity, obj):
    return dict(view(obj), **related(svc, entity, obj))


def _entity(collection):
    if collection not in COLLECTIONS:
        raise exception.NotFound("The resource could not be found.")
    return COLLECTIONS[collection]


def list_objects(req, collection):
    entity = _entity(collection)
    svc = _svc(req)
    # name and loadbalancer_id narrow the query itself (a list of every pool of the cloud,
    # each with its related lists, grew with the cloud)
    filters = {key: req.params[key] for key in ("name", "loadbalancer_id") if key in req.params}
    objs = [view(o) for o in svc.list_visible(entity, all_projects=True, **filters)]
    if "provisioning_status" in req.params:
        objs = [
            o for o in objs if o.get("provisioning_status") == req.params["provisioning_status"]
        ]
    # the related lists only of the objects shown (each costs queries)
    objs = [dict(o, **related(svc, entity, o)) for o in objs]
    return 200, {collection: objs, collection[:-1] + "s_links": []}


def _loadbalancer_of(req, entity, body):
    if entity == "listener":
        return body.get("loadbalancer_id")
    if entity == "pool":
        if body.get("listener_id"):
            return _svc(req).loadbalancer_of("listener", body["listener_id"])
        return body.get("loadbalancer_id")
    if entity == "healthmonitor":
        return _svc(req).loadbalancer_of("pool", body.get("pool_id"))
    return None


def create_object(req, collection):
    entity = _entity(collection)
    body = dict(req.member(entity))
    svc = _svc(req)
    if entity == "loadbalancer":
        if not (body.get("vip_subnet_id") or body.get("vip_network_id")):
            raise exception.BadRequest(
                "Validation failure: VIP must contain one of: "
                "vip_port_id, vip_network_id, vip_subnet_id."
            )
        obj = svc.create_loadbalancer(body.pop("name", ""), **body)
    else:
        lb_id = _loadbalancer_of(req, entity, body)
        body.pop("loadbalancer_id", None)
        if not lb_id:
            raise exception.BadRequest("Invalid input for field/attribute loadbalancer_id.")
        obj = svc.create_child(entity, body.pop("name", ""), lb_id, **body)
    return 201, {entity: full_view(svc, entity, obj)}


def show_object(req, collection, obj_id):
    entity = _entity(collection)
    svc = _svc(req)
    return 200, {entity: full_view(svc, entity, svc.show(entity, obj_id))}


def update_object(req, collection, obj_id):
    entity = _entity(collection)
    svc = _svc(req)
    svc.show(entity, obj_id)
    body = dict(req.member(entity))
    obj = svc.update(entity, obj_id, name=body.pop("name", None), **body)
    return 200, {entity: full_view(svc, entity, obj)}


def delete_object(req, collection, obj_id):
    entity = _entity(collection)
    svc = _svc(req)
    if entity == "loadbalancer" and req.params.get("cascade", "").lower() == "true":
        svc.show("loadbalancer", obj_id)
        for child in ("listener", "pool"):
            for obj in svc.list(child, loadbalancer_id=obj_id):
                svc.delete_child(child, obj["id"])
        svc.delete_loadbalancer(obj_id)
    elif entity == "loadbalancer":
        svc.delete_loadbalancer(obj_id)
    else:
        svc.delete_child(entity, obj_id)
    return 204, None


def list_members(req, pool_id):
    svc = _svc(req)
    svc.show("pool", pool_id)
    return 200, {"members": [view(m) for m in svc.list_visible("member", pool_id=pool_id)]}


def create_member(req, pool_id):
    svc = _svc(req)
    body = dict(req.member("member"))
    lb_id = svc.loadbalancer_of("pool", pool_id)
    member = svc.create_child("member", body.pop("name", ""), lb_id, pool_id=pool_id, **body)
    return 201, {"member": view(member)}


def show_member(req, pool_id, member_id):
    return 200, {"member": view(_svc(req).show("member", member_id))}


def update_member(req, pool_id, member_id):
    svc = _svc(req)
    svc.show("member", member_id)
    body = dict(req.member("member"))
    member = svc.update("member", member_id, name=body.pop("name", None), **body)
    return 200, {"member": view(member)}


def delete_member(req, pool_id, member_id):
    _svc(req).delete_child("member", member_id)
    return 204, None


class _LoadBalancerService(router.Service):
    def dispatch(self, raw, segments):
        """Octavia answers under /v2 and /v2.0 alike."""
        if segments[:1] == ["v2.0"]:
            segments = ["v2"] + segments[1:]
        return super().dispatch(raw, segments)


service = _LoadBalancerService(
    "load-balancer",
    routes=[
        ("GET", "", versions),
        ("GET", "v2", versions),
        ("GET", "v2/lbaas/pools/{pool_id}/members", list_members),
        ("POST", "v2/lbaas/pools/{pool_id}/members", create_member),
        ("GET", "v2/lbaas/pools/{pool_id}/members/{member_id}", show_member),
        ("PUT", "v2/lbaas/pools/{pool_id}/members/{member_id}", update_member),
        ("DELETE", "v2/lbaas/pools/{pool_id}/members/{member_id}", delete_member),
        ("GET", "v2/lbaas/{collection}", list_objects),
        ("POST", "v2/lbaas/{collection}", create_object),
        ("GET", "v2/lbaas/{collection}/{obj_id}", show_object),
        ("PUT", "v2/lbaas/{collection}/{obj_id}", update_object),
        ("DELETE", "v2/lbaas/{collection}/{obj_id}", delete_object),
    ],
    public=[("GET", ""), ("GET", "v2")],
    render_error=octavia_error,
)
