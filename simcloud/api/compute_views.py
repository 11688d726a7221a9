"""Nova's bodies of servers, flavors, keypairs, server groups, interfaces and volume
attachments, shaped by the request's microversion."""

import datetime
import re

from simcloud.cloud import nova


def links(req, collection, obj_id):
    return [
        {"rel": "self", "href": req.url("/compute/v2.1/%s/%s" % (collection, obj_id))},
        {"rel": "bookmark", "href": req.url("/compute/%s/%s" % (collection, obj_id))},
    ]


def _time(value):
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    return value


def filter_servers(servers, params):
    """Nova's list filters: name (a regular expression), status, image, flavor."""
    name = params.get("name")
    if name:
        try:
            pattern = re.compile(name)
        except re.error:
            pattern = re.compile(re.escape(name))
        servers = [s for s in servers if pattern.search(s["name"] or "")]
    status = params.get("status")
    if status:
        servers = [s for s in servers if s["status"] == status.upper()]
    if params.get("flavor"):
        servers = [s for s in servers if s["flavor"]["id"] == params["flavor"]]
    if params.get("image"):
        servers = [s for s in servers if (s["image"] or {}).get("id") == params["image"]]
    return servers


def server_brief(req, server):
    return {
        "id": server["id"],
        "name": server["name"],
        "links": links(req, "servers", server["id"]),
    }


def _flavor_of(req, server):
    ref = server["flavor"]
    if not req.version_at_least("2.47"):
        return {"id": ref["id"], "links": links(req, "flavors", ref["id"])[1:]}
    flavor = nova.NovaService(None).get("flavor", ref["id"]) or {}
    body = {
        "original_name": ref.get("original_name"),
        "vcpus": flavor.get("vcpus"),
        "ram": flavor.get("ram"),
        "disk": flavor.get("disk"),
        "ephemeral": flavor.get("ephemeral", 0),
        "swap": flavor.get("swap", 0),
    }
    body["extra_specs"] = flavor.get("extra_specs") or {}
    return body


def _vm_state(status):
    return {
        "BUILD": "building",
        "ACTIVE": "active",
        "ERROR": "error",
        "SHUTOFF": "stopped",
        "SUSPENDED": "suspended",
        "RESIZE": "active",
        "VERIFY_RESIZE": "resized",
        "REBUILD": "active",
        "REBOOT": "active",
    }.get(status, "active")


def server(req, srv):
    image = srv.get("image")
    body = {
        "id": srv["id"],
        "name": srv["name"],
        "status": srv["status"],
        "tenant_id": srv["project_id"],
        "user_id": srv.get("user_id"),
        "metadata": srv.get("metadata") or {},
        "hostId": "" if srv["status"] == "BUILD" else "simcloud-host",
        "image": {"id": image["id"], "links": links(req, "images", image["id"])[1:]}
        if image
        else "",
        "flavor": _flavor_of(req, srv),
        "created": _time(srv.get("created_at")),
        "updated": _time(srv.get("updated_at") or srv.get("created_at")),
        "addresses": srv.get("addresses") or {},
        "accessIPv4": srv.get("accessIPv4", ""),
        "accessIPv6": srv.get("accessIPv6", ""),
        "links": links(req, "servers", srv["id"]),
        "OS-DCF:diskConfig": "MANUAL",
        "progress": 100 if srv["status"] == "ACTIVE" else 0,
        "OS-EXT-AZ:availability_zone": srv.get("availability_zone") or "nova",
        "config_drive": srv.get("config_drive") or "",
        "key_name": srv.get("key_name"),
        "OS-SRV-USG:launched_at": None
        if srv["status"] == "BUILD"
        else _time(srv.get("updated_at") or srv.get("created_at")),
        "OS-SRV-USG:terminated_at": None,
        "OS-EXT-STS:task_state": "spawning" if srv["status"] == "BUILD" else None,
        "OS-EXT-STS:vm_state": _vm_state(srv["status"]),
        "OS-EXT-STS:power_state": 1 if srv["status"] == "ACTIVE" else 0,
        "os-extended-volumes:volumes_attached": srv.get("volumes_attached") or [],
        "security_groups": srv.get("security_groups") or [{"name": "default"}],
    }
    if srv.get("fault"):
        body["fault"] = dict(srv["fault"], created=_time(srv.get("updated_at")))
    if req.version_at_least("2.9"):
        body["locked"] = False
    if req.version_at_least("2.19"):
        body["description"] = srv.get("description")
    if req.version_at_least("2.26"):
        body["tags"] = srv.get("tags") or []
    if req.context is not None and req.context.is_admin:
        body["OS-EXT-SRV-ATTR:host"] = "simcloud-host"
        body["OS-EXT-SRV-ATTR:hypervisor_hostname"] = "simcloud-host"
        body["OS-EXT-SRV-ATTR:instance_name"] = srv.get("OS-EXT-SRV-ATTR:instance_name")
    return body


def flavor_brief(req, flavor):
    body = {
        "id": flavor["id"],
        "name": flavor["name"],
        "links": links(req, "flavors", flavor["id"]),
    }
    if req.version_at_least("2.55"):
        body["description"] = flavor.get("description")
    return body


def flavor(req, f):
    body = flavor_brief(req, f)
    body.update(
        {
            "ram": f["ram"],
            "disk": f["disk"],
            "vcpus": f["vcpus"],
            "OS-FLV-EXT-DATA:ephemeral": f.get("ephemeral", 0),
            "OS-FLV-DISABLED:disabled": False,
            "swap": f.get("swap", 0) if req.version_at_least("2.75") else (f.get("swap") or ""),
            "rxtx_factor": f.get("rxtx_factor", 1.0),
            "os-flavor-access:is_public": f.get("is_public", True),
        }
    )
    if req.version_at_least("2.61"):
        body["extra_specs"] = f.get("extra_specs") or {}
    return body


def keypair(req, key, brief=False):
    body = {
        "name": key["name"],
        "public_key": key["public_key"],
        "fingerprint": key["fingerprint"],
    }
    if req.version_at_least("2.2"):
        body["type"] = key.get("type", "ssh")
    if key.get("private_key"):
        body["private_key"] = key["private_key"]
    if not brief:
        body.update(
            user_id=key.get("user_id"),
            # Nova's keypair id is an integer (the API names keypairs by name)
            id=int(key["id"].replace("-", "")[:7], 16),
            created_at=_time(key.get("created_at")),
            deleted=False,
            deleted_at=None,
            updated_at=None,
        )
    return body


def server_group(req, group):
    body = {
        "id": group["id"],
        "name": group["name"],
        "members": group.get("members") or [],
        "metadata": {},
        "project_id": group["project_id"],
        "user_id": req.context.user_id,
    }
    if req.version_at_least("2.64"):
        body["policy"] = group["policies"][0]
        body["rules"] = group.get("rules") or {}
    else:
        body["policies"] = group["policies"]
    return body


def interface(port):
    return {
        "port_id": port["id"],
        "net_id": port["network_id"],
        "fixed_ips": port["fixed_ips"],
        "mac_addr": port["mac_address"],
        "port_state": port["status"],
    }


def volume_attachment(volume, attachment):
    return {
        "id": volume["id"],
        "serverId": attachment["server_id"],
        "volumeId": volume["id"],
        "device": attachment["device"],
    }


def absolute_limits(req):
    return {
        "maxTotalInstances": 100,
        "maxTotalCores": 200,
        "maxTotalRAMSize": 512000,
        "maxTotalKeypairs": 100,
        "maxServerMeta": 128,
        "maxServerGroups": 10,
        "maxServerGroupMembers": 10,
        "totalInstancesUsed": 0,
        "totalCoresUsed": 0,
        "totalRAMUsed": 0,
        "totalServerGroupsUsed": 0,
    }
