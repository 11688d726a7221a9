"""The volume service (Cinder v3 subset) under ``/volume``: volumes (creating ->
available; attached through Nova's os-volume_attachments), with microversions
(``OpenStack-API-Version: volume 3.x``). The project id in ``/v3/{project_id}/...`` is
optional, as in recent Cinder. Errors are Cinder's (Nova-style) bodies.
"""

import datetime
import re

from simcloud.api import compute, router
from simcloud.cloud import cinder
from simcloud.common import exception

MAX_VERSION = "3.70"
_PROJECT = re.compile(r"^[0-9a-f]{32}$")


def _doc(req):
    return {
        "id": "v3.0",
        "status": "CURRENT",
        "version": MAX_VERSION,
        "min_version": "3.0",
        "updated": "2023-08-31T00:00:00Z",
        "links": [{"rel": "self", "href": req.url("/volume/v3/")}],
        "media-types": [
            {"base": "application/json", "type": "application/vnd.openstack.volume+json;version=3"}
        ],
    }


def versions(req):
    return 300, {"versions": [_doc(req)]}


def version(req):
    return 200, {"versions": [_doc(req)]}


def _time(value):
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%S.%f")
    return value


def view(req, volume):
    return {
        "id": volume["id"],
        "name": volume["name"] or None,
        "status": volume["status"],
        "size": volume["size"],
        "availability_zone": volume.get("availability_zone") or "nova",
        "created_at": _time(volume.get("created_at")),
        "updated_at": _time(volume.get("updated_at")),
        "description": volume.get("description"),
        "volume_type": volume.get("volume_type") or "__DEFAULT__",
        "snapshot_id": volume.get("snapshot_id"),
        "source_volid": volume.get("source_volid"),
        "metadata": volume.get("metadata") or {},
        "bootable": volume.get("bootable", "false"),
        "encrypted": False,
        "multiattach": False,
        "replication_status": None,
        "consistencygroup_id": None,
        "user_id": volume.get("user_id"),
        "os-vol-tenant-attr:tenant_id": volume["project_id"],
        "attachments": [
            {
                "id": volume["id"],
                "attachment_id": a.get("attachment_id"),
                "volume_id": volume["id"],
                "server_id": a["server_id"],
                "device": a["device"],
                "host_name": None,
                "attached_at": None,
            }
            for a in volume.get("attachments") or []
        ],
        "links": [{"rel": "self", "href": req.url("/volume/v3/volumes/%s" % volume["id"])}],
    }


def _svc(req):
    return cinder.CinderService(req.context)


def list_volumes(req, detail=False):
    p = req.params
    all_projects = p.get("all_tenants", "0").lower() not in ("0", "false")
    volumes = _svc(req).list_visible("volume", all_projects=all_projects)
    for key in ("name", "status"):
        if key in p:
            volumes = [v for v in volumes if v.get(key) == p[key]]
    page, _ = router.paginate(volumes, p)
    if detail:
        return 200, {"volumes": [view(req, v) for v in page]}
    brief = [
        {"id": v["id"], "name": v["name"] or None, "links": view(req, v)["links"]} for v in page
    ]
    return 200, {"volumes": brief}


def list_volumes_detail(req):
    return list_volumes(req, detail=True)


def create_volume(req):
    body = req.member("volume")
    try:
        size = int(body.get("size"))
    except (TypeError, ValueError):
        raise exception.BadRequest("Invalid input for field/attribute size.")
    if size < 1:
        raise exception.BadRequest(
            "Invalid input for field/attribute size. Value: %s. %s is "
            "less than the minimum of 1" % (size, size)
        )
    props = {
        k: body[k]
        for k in (
            "description",
            "metadata",
            "availability_zone",
            "volume_type",
            "imageRef",
            "snapshot_id",
            "source_volid",
        )
        if body.get(k)
    }
    props["user_id"] = req.context.user_id
    volume = _svc(req).create_volume(body.get("name") or "", size, **props)
    return 202, {"volume": view(req, volume)}


def show_volume(req, volume_id):
    return 200, {"volume": view(req, _svc(req).show("volume", volume_id))}


def update_volume(req, volume_id):
    svc = _svc(req)
    svc.show("volume", volume_id)
    body = req.member("volume")
    props = {k: body[k] for k in ("description", "metadata") if k in body}
    return 200, {
        "volume": view(req, svc.update("volume", volume_id, name=body.get("name"), **props))
    }


def delete_volume(req, volume_id):
    _svc(req).delete_volume(volume_id)
    return 202, None


def volume_action(req, volume_id):
    body = req.body
    svc = _svc(req)
    volume = svc.show("volume", volume_id)
    if isinstance(body, dict) and "os-extend" in body:
        new_size = int((body["os-extend"] or {}).get("new_size") or 0)
        if new_size <= volume["size"]:
            raise exception.BadRequest("New size for extend must be greater than current size.")
        svc.transition("volume", volume_id, "extending", volume["status"], size=new_size)
        return 202, None
    if isinstance(body, dict) and "os-set_bootable" in body:
        bootable = bool((body["os-set_bootable"] or {}).get("bootable"))
        svc.update("volume", volume_id, bootable="true" if bootable else "false")
        return 200, None
    if isinstance(body, dict) and "os-retype" in body:
        new_type = (body["os-retype"] or {}).get("new_type")
        svc.transition("volume", volume_id, "retyping", volume["status"], volume_type=new_type)
        return 202, None
    if isinstance(body, dict) and "os-update_readonly_flag" in body:
        flag = bool((body["os-update_readonly_flag"] or {}).get("readonly"))
        metadata = dict(volume.get("metadata") or {}, readonly=str(flag))
        svc.update("volume", volume_id, metadata=metadata)
        return 202, None
    raise exception.BadRequest("Invalid volume action.")


def list_types(req):
    vtype = {
        "id": "00000000-0000-0000-0000-000000000001",
        "name": "__DEFAULT__",
        "is_public": True,
        "description": "Default Volume Type",
        "extra_specs": {},
    }
    return 200, {"volume_types": [vtype]}


def _strip_project(segments):
    """/v3/{project_id}/volumes -> /v3/volumes (the project in the URL is optional)."""
    if len(segments) >= 2 and segments[0] == "v3" and _PROJECT.match(segments[1]):
        return [segments[0]] + segments[2:]
    return segments


class _VolumeService(router.Service):
    def dispatch(self, raw, segments):
        return super().dispatch(raw, _strip_project(segments))


service = _VolumeService(
    "volume",
    routes=[
        ("GET", "", versions),
        ("GET", "v3", version),
        ("GET", "v3/volumes", list_volumes),
        ("POST", "v3/volumes", create_volume),
        ("GET", "v3/volumes/detail", list_volumes_detail),
        ("GET", "v3/volumes/{volume_id}", show_volume),
        ("PUT", "v3/volumes/{volume_id}", update_volume),
        ("DELETE", "v3/volumes/{volume_id}", delete_volume),
        ("POST", "v3/volumes/{volume_id}/action", volume_action),
        ("GET", "v3/types", list_types),
    ],
    public=[("GET", ""), ("GET", "v3")],
    render_error=compute.nova_error,
    microversions=router.Microversions("volume", "3.0", MAX_VERSION),
)
