"""The compute service (Nova v2.1 subset) under ``/compute``: servers (with actions,
interfaces and volume attachments), flavors, keypairs, server groups.

Microversions as Nova: ``OpenStack-API-Version: compute 2.x`` (or
``X-OpenStack-Nova-API-Version``), 2.1 to MAX_VERSION; a server's flavor is embedded
from 2.47. Errors are Nova's bodies: ``{"itemNotFound": {"code": 404, "message": ...}}``.
"""

from simcloud.api import compute_flavors, router
from simcloud.api import compute_views as views
from simcloud.cloud import cinder, glance, neutron, nova
from simcloud.common import exception

MAX_VERSION = "2.96"
ERROR_NAMES = {
    400: "badRequest",
    403: "forbidden",
    404: "itemNotFound",
    405: "notAllowed",
    406: "notAcceptable",
    409: "conflictingRequest",
    413: "overLimit",
}


def nova_error(exc):
    if exc.code == 401:
        return router.keystone_error(exc)
    name = ERROR_NAMES.get(exc.code, "computeFault")
    return router.json_response(exc.code, {name: {"code": exc.code, "message": exc.message}})


def _version_doc(req):
    return {
        "id": "v2.1",
        "status": "CURRENT",
        "version": MAX_VERSION,
        "min_version": "2.1",
        "updated": "2013-07-23T11:33:21Z",
        "links": [{"rel": "self", "href": req.url("/compute/v2.1/")}],
        "media-types": [
            {
                "base": "application/json",
                "type": "application/vnd.openstack.compute+json;version=2.1",
            }
        ],
    }


def versions(req):
    return 200, {"versions": [_version_doc(req)]}


def version(req):
    return 200, {"version": _version_doc(req)}


# servers -----------------------------------------------------------------------------


def _bad(message):
    return exception.BadRequest(message)


def _networks(req, requested):
    """Nova's ``networks`` (a list, "auto" or "none") -> the simulated plugs."""
    net = neutron.NeutronService(req.context)
    if requested in (None, "auto"):
        own = [
            n
            for n in net.list_visible("net")
            if not n.get("router:external") and n["project_id"] == req.context.project_id
        ]
        return [{"uuid": own[0]["id"]}] if len(own) == 1 else []
    if requested == "none":
        return []
    if not isinstance(requested, list):
        raise _bad("Invalid input for field/attribute networks.")
    plugs = []
    for nic in requested:
        if not isinstance(nic, dict):
            raise _bad("Invalid input for field/attribute networks.")
        if nic.get("port"):
            try:
                net.show("port", nic["port"])
            except exception.NotFound:
                raise _bad("Port %s could not be found." % nic["port"])
            plugs.append({"port": nic["port"]})
        elif nic.get("uuid"):
            try:
                net.show("net", nic["uuid"])
            except exception.NotFound:
                raise _bad("Network %s could not be found." % nic["uuid"])
            plugs.append({"uuid": nic["uuid"], "fixed_ip": nic.get("fixed_ip")})
        else:
            raise _bad("Invalid input for field/attribute networks.")
    return plugs


def _security_groups(req, body):
    """Nova's ``security_groups`` ([{'name': name or id}]), each checked in Neutron."""
    groups = body.get("security_groups") or [{"name": "default"}]
    if not isinstance(groups, list) or not all(
        isinstance(g, dict) and isinstance(g.get("name"), str) for g in groups
    ):
        raise _bad("Invalid input for field/attribute security_groups.")
    net = neutron.NeutronService(req.context)
    try:
        ids = net.security_group_ids([g["name"] for g in groups])
    except exception.NotFound as exc:
        raise _bad(exc.message)
    # Nova shows the groups by name, whether they were asked for by name or id
    return [{"name": net.get("security_group", i)["name"]} for i in ids]


def _boot_args(req, body):
    compute = nova.NovaService(req.context)
    name = body.get("name")
    if not isinstance(name, str) or not name.strip():
        raise _bad("Invalid input for field/attribute name.")
    try:
        flavor = compute.get_flavor(str(body.get("flavorRef") or ""))
    except exception.NotFound:
        raise _bad("Flavor %s could not be found." % body.get("flavorRef"))
    image_id = body.get("imageRef") or ""
    if image_id:
        try:
            glance.GlanceService(req.context).show("image", image_id)
        except exception.NotFound:
            raise _bad("Image %s could not be found." % image_id)
    elif not body.get("block_device_mapping_v2"):
        raise _bad(
            "Block Device Mapping is Invalid: Boot sequence for the instance and "
            "image/block device mapping combination is not valid."
        )
    key_name = body.get("key_name")
    if key_name:
        try:
            compute.get_keypair(key_name)
        except exception.NotFound:
            raise _bad("Invalid key_name provided.")
    extra = {
        "key_name": key_name,
        "metadata": body.get("metadata") or {},
        "security_groups": _security_groups(req, body),
        "availability_zone": body.get("availability_zone") or "nova",
        "user_data": body.get("user_data"),
        "config_drive": body.get("config_drive") or "",
        "description": body.get("description"),
        "tags": list(body.get("tags") or []),
        "block_device_mapping_v2": body.get("block_device_mapping_v2") or [],
    }
    return compute, name, image_id, flavor["id"], extra


def create_server(req):
    body = req.member("server")
    compute, name, image_id, flavor_id, extra = _boot_args(req, body)
    plugs = _networks(req, body.get("networks"))
    hints = (req.body.get("OS-SCH-HNT:scheduler_hints") or {}) if isinstance(req.body, dict) else {}
    group_id = hints.get("group")
    group = compute.show("server_group", group_id) if group_id else None
    group_ids = neutron.NeutronService(req.context).security_group_ids(
        [g["name"] for g in extra["security_groups"]]
    )
    server = compute.create_server(
        name, image_id, flavor_id, networks=plugs, security_group_ids=group_ids, **extra
    )
    if group is not None:
        compute.update("server_group", group["id"], members=group["members"] + [server["id"]])
    reply = {
        "id": server["id"],
        "links": views.links(req, "servers", server["id"]),
        "OS-DCF:diskConfig": "MANUAL",
        "security_groups": extra["security_groups"],
        "adminPass": "simcloud",
    }
    return 202, {"server": reply}


def _list_servers(req, detail):
    compute = nova.NovaService(req.context)
    p = req.params
    all_projects = "all_tenants" in p and p["all_tenants"].lower() not in ("0", "false")
    servers = compute.list_visible("server", all_projects=all_projects)
    servers = views.filter_servers(servers, p)
    page, more = router.paginate(servers, p)
    if detail:
        items = [views.server(req, compute.show_server(s["id"])) for s in page]
    else:
        items = [views.server_brief(req, s) for s in page]
    body = {"servers": items}
    if more and page:
        body["servers_links"] = [
            {"rel": "next", "href": req.url("/compute/v2.1/servers?marker=%s" % page[-1]["id"])}
        ]
    return 200, body


def list_servers(req):
    return _list_servers(req, detail=False)


def list_servers_detail(req):
    return _list_servers(req, detail=True)


def show_server(req, server_id):
    server = nova.NovaService(req.context).show_server(server_id)
    return 200, {"server": views.server(req, server)}


def update_server(req, server_id):
    compute = nova.NovaService(req.context)
    compute.show("server", server_id)
    body = req.member("server")
    props = {k: body[k] for k in ("description", "accessIPv4", "accessIPv6") if k in body}
    compute.update("server", server_id, name=body.get("name"), **props)
    return 200, {"server": views.server(req, compute.show_server(server_id))}


def show_metadata(req, server_id):
    server = nova.NovaService(req.context).show("server", server_id)
    return 200, {"metadata": server.get("metadata") or {}}


def replace_metadata(req, server_id):
    compute = nova.NovaService(req.context)
    compute.show("server", server_id)
    metadata = req.body.get("metadata") if isinstance(req.body, dict) else None
    if not isinstance(metadata, dict):
        raise _bad("Malformed request body. metadata must be object")
    compute.update("server", server_id, metadata={k: str(v) for k, v in metadata.items()})
    return 200, {"metadata": metadata}


def update_metadata(req, server_id):
    compute = nova.NovaService(req.context)
    server = compute.show("server", server_id)
    metadata = req.body.get("metadata") if isinstance(req.body, dict) else None
    if not isinstance(metadata, dict):
        raise _bad("Malformed request body. metadata must be object")
    merged = dict(server.get("metadata") or {}, **{k: str(v) for k, v in metadata.items()})
    compute.update("server", server_id, metadata=merged)
    return 200, {"metadata": merged}


def show_tags(req, server_id):
    server = nova.NovaService(req.context).show("server", server_id)
    return 200, {"tags": server.get("tags") or []}


def replace_tags(req, server_id):
    compute = nova.NovaService(req.context)
    compute.show("server", server_id)
    tags = req.body.get("tags") if isinstance(req.body, dict) else None
    if not isinstance(tags, list) or not all(isinstance(t, str) for t in tags):
        raise _bad("Invalid input for field/attribute tags.")
    compute.update("server", server_id, tags=tags)
    return 200, {"tags": tags}


def delete_server(req, server_id):
    nova.NovaService(req.context).delete_server(server_id)
    return 204, None


def _action_resize(compute, server_id, args):
    return compute.resize_server(server_id, str((args or {}).get("flavorRef")))


ACTIONS = {
    "os-stop": lambda c, s, a: c.stop_server(s),
    "os-start": lambda c, s, a: c.start_server(s),
    "suspend": lambda c, s, a: c.suspend_server(s),
    "resume": lambda c, s, a: c.resume_server(s),
    "resize": _action_resize,
    "confirmResize": lambda c, s, a: c.confirm_resize(s),
    "revertResize": lambda c, s, a: c.revert_resize(s),
    "rebuild": lambda c, s, a: c.rebuild_server(s, (a or {}).get("imageRef")),
    "reboot": lambda c, s, a: c.transition("server", s, "REBOOT", nova.ACTIVE),
}


def server_action(req, server_id):
    body = req.body
    if not isinstance(body, dict) or len(body) != 1 or next(iter(body)) not in ACTIONS:
        raise _bad(
            "There is no such action: %s" % ", ".join(body)
            if isinstance(body, dict)
            else "Malformed request body"
        )
    compute = nova.NovaService(req.context)
    compute.show("server", server_id)
    action, args = next(iter(body.items()))
    ACTIONS[action](compute, server_id, args)
    return (204 if action == "confirmResize" else 202), None


# interfaces and volume attachments ---------------------------------------------------


def list_interfaces(req, server_id):
    nova.NovaService(req.context).show("server", server_id)
    ports = neutron.NeutronService(req.context).list("port", device_id=server_id)
    return 200, {"interfaceAttachments": [views.interface(p) for p in ports]}


def attach_interface(req, server_id):
    body = req.member("interfaceAttachment")
    fixed = (body.get("fixed_ips") or [{}])[0].get("ip_address")
    port = nova.NovaService(req.context).attach_interface(
        server_id, port_id=body.get("port_id"), net_id=body.get("net_id"), fixed_ip=fixed
    )
    return 200, {"interfaceAttachment": views.interface(port)}


def detach_interface(req, server_id, port_id):
    nova.NovaService(req.context).detach_interface(server_id, port_id)
    return 202, None


def _attachments(req, server_id):
    volumes = cinder.CinderService(req.context).list("volume")
    return [
        (v, a) for v in volumes for a in v.get("attachments") or [] if a["server_id"] == server_id
    ]


def list_volume_attachments(req, server_id):
    nova.NovaService(req.context).show("server", server_id)
    items = [views.volume_attachment(v, a) for v, a in _attachments(req, server_id)]
    return 200, {"volumeAttachments": items}


def attach_volume(req, server_id):
    body = req.member("volumeAttachment")
    nova.NovaService(req.context).show("server", server_id)
    volumes = cinder.CinderService(req.context)
    volumes.show("volume", body.get("volumeId"))
    volumes.attach(body["volumeId"], server_id, body.get("device"))
    volume = volumes.get("volume", body["volumeId"])
    attachment = next(a for a in volume["attachments"] if a["server_id"] == server_id)
    return 200, {"volumeAttachment": views.volume_attachment(volume, attachment)}


def show_volume_attachment(req, server_id, volume_id):
    for volume, attachment in _attachments(req, server_id):
        if volume["id"] == volume_id:
            return 200, {"volumeAttachment": views.volume_attachment(volume, attachment)}
    raise exception.NotFound("volume_id not found: %s" % volume_id)


def detach_volume(req, server_id, volume_id):
    show_volume_attachment(req, server_id, volume_id)
    cinder.CinderService(req.context).detach(volume_id, None)
    return 202, None


def limits(req):
    return 200, {"limits": {"rate": [], "absolute": views.absolute_limits(req)}}


S = "v2.1/servers/{server_id}"
service = router.Service(
    "compute",
    routes=[
        ("GET", "", versions),
        ("GET", "v2.1", version),
        ("GET", "v2.1/servers", list_servers),
        ("POST", "v2.1/servers", create_server),
        ("GET", "v2.1/servers/detail", list_servers_detail),
        ("GET", S, show_server),
        ("PUT", S, update_server),
        ("DELETE", S, delete_server),
        ("POST", S + "/action", server_action),
        ("GET", S + "/metadata", show_metadata),
        ("PUT", S + "/metadata", replace_metadata),
        ("POST", S + "/metadata", update_metadata),
        ("GET", S + "/tags", show_tags),
        ("PUT", S + "/tags", replace_tags),
        ("GET", S + "/os-interface", list_interfaces),
        ("POST", S + "/os-interface", attach_interface),
        ("DELETE", S + "/os-interface/{port_id}", detach_interface),
        ("GET", S + "/os-volume_attachments", list_volume_attachments),
        ("POST", S + "/os-volume_attachments", attach_volume),
        ("GET", S + "/os-volume_attachments/{volume_id}", show_volume_attachment),
        ("DELETE", S + "/os-volume_attachments/{volume_id}", detach_volume),
        ("GET", "v2.1/flavors", compute_flavors.list_flavors),
        ("POST", "v2.1/flavors", compute_flavors.create_flavor),
        ("GET", "v2.1/flavors/detail", compute_flavors.list_flavors_detail),
        ("GET", "v2.1/flavors/{flavor_id}", compute_flavors.show_flavor),
        ("DELETE", "v2.1/flavors/{flavor_id}", compute_flavors.delete_flavor),
        ("GET", "v2.1/flavors/{flavor_id}/os-extra_specs", compute_flavors.flavor_extra_specs),
        ("GET", "v2.1/os-keypairs", compute_flavors.list_keypairs),
        ("POST", "v2.1/os-keypairs", compute_flavors.create_keypair),
        ("GET", "v2.1/os-keypairs/{name}", compute_flavors.show_keypair),
        ("DELETE", "v2.1/os-keypairs/{name}", compute_flavors.delete_keypair),
        ("GET", "v2.1/os-server-groups", compute_flavors.list_server_groups),
        ("POST", "v2.1/os-server-groups", compute_flavors.create_server_group),
        ("GET", "v2.1/os-server-groups/{group_id}", compute_flavors.show_server_group),
        ("DELETE", "v2.1/os-server-groups/{group_id}", compute_flavors.delete_server_group),
        ("GET", "v2.1/limits", limits),
    ],
    public=[("GET", ""), ("GET", "v2.1")],
    render_error=nova_error,
    microversions=router.Microversions(
        "compute", "2.1", MAX_VERSION, legacy_header="X-OpenStack-Nova-API-Version"
    ),
)
