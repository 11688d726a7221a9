"""The network service (Neutron v2.0 subset) under ``/networking``: networks, subnets,
ports (this module), routers, floating IPs and security groups (network_l3.py).

Lists take Neutron's filters (any attribute, e.g. ``?router:external=True&name=public``)
and ``fields``; errors are Neutron's ``{"NeutronError": {"type", "message", "detail"}}``.
"""

import datetime

from simcloud.api import network_l3, router
from simcloud.cloud import neutron
from simcloud.common import exception

# entity of the simulated service -> (collection key, member key) of its bodies
NAMES = {
    "net": ("networks", "network"),
    "subnet": ("subnets", "subnet"),
    "port": ("ports", "port"),
    "router": ("routers", "router"),
    "floatingip": ("floatingips", "floatingip"),
    "security_group": ("security_groups", "security_group"),
    "security_group_rule": ("security_group_rules", "security_group_rule"),
}
EXTENSIONS = (
    "external-net",
    "router",
    "extraroute",
    "security-group",
    "quotas",
    "binding",
    "allowed-address-pairs",
    "extra_dhcp_opt",
    "port-security",
    "standard-attr-description",
    "standard-attr-tag",
    "standard-attr-timestamp",
    "subnet_allocation",
    "network_availability_zone",
    "net-mtu",
    "dns-integration",
    "ext-gw-mode",
    "l3-ha",
    "availability_zone",
    "project-id",
)


def neutron_error(exc):
    if exc.code == 401:
        return router.keystone_error(exc)
    return router.json_response(
        exc.code,
        {"NeutronError": {"type": exc.neutron_type, "message": exc.message, "detail": ""}},
    )


def versions(req):
    link = {"rel": "self", "href": req.url("/networking/v2.0/")}
    return 200, {"versions": [{"id": "v2.0", "status": "CURRENT", "links": [link]}]}


def root(req):
    resources = [
        {
            "name": member,
            "collection": coll,
            "links": [{"rel": "self", "href": req.url("/networking/v2.0/" + coll)}],
        }
        for coll, member in NAMES.values()
    ]
    return 200, {"resources": resources}


def list_extensions(req):
    exts = [
        {
            "alias": a,
            "name": a,
            "description": a,
            "updated": "2013-01-01T00:00:00-00:00",
            "links": [],
        }
        for a in EXTENSIONS
    ]
    return 200, {"extensions": exts}


def show_extension(req, alias):
    if alias not in EXTENSIONS:
        raise exception.NotFound("Extension with alias %s does not exist" % alias)
    return 200, {"extension": {"alias": alias, "name": alias, "description": alias, "links": []}}


def _time(value):
    if isinstance(value, datetime.datetime):
        return value.strftime("%Y-%m-%dT%H:%M:%SZ")
    return value


# Neutron objects without a name (a floating IP's "name" is its address in openstacksdk)
_NAMELESS = ("floatingip", "security_group_rule")


def view(obj, entity=None):
    hidden = ("project_id", "created_at", "updated_at") + (("name",) if entity in _NAMELESS else ())
    body = {k: v for k, v in obj.items() if k not in hidden}
    body.update(
        tenant_id=obj["project_id"],
        project_id=obj["project_id"],
        created_at=_time(obj.get("created_at")),
        updated_at=_time(obj.get("updated_at") or obj.get("created_at")),
        revision_number=obj.get("revision_number", 0),
        tags=obj.get("tags") or [],
    )
    body.setdefault("description", "")
    return body


def _matches(body, params):
    for key in params:
        if key in ("fields", "limit", "marker", "sort_key", "sort_dir", "page_reverse"):
            continue
        wanted = params.getall(key)
        value = body.get(key)
        if isinstance(value, bool):
            value = str(value)
            wanted = [w.capitalize() for w in wanted]
        elif key in ("tenant_id", "project_id") and value is None:
            value = ""
        if str(value) not in wanted:
            return False
    return True


def _fields(body, params):
    fields = params.getall("fields")
    return {k: v for k, v in body.items() if k in fields} if fields else body


def render_list(req, entity, objs):
    collection, _ = NAMES[entity]
    bodies = [view(o, entity) for o in objs]
    bodies = [b for b in bodies if _matches(b, req.params)]
    page, more = router.paginate(bodies, req.params)
    body = {collection: [_fields(b, req.params) for b in page]}
    if more and page:
        body[collection + "_links"] = [
            {
                "rel": "next",
                "href": req.url(
                    "/networking/v2.0/%s?marker=%s&limit=%s"
                    % (collection, page[-1]["id"], req.params["limit"])
                ),
            }
        ]
    return 200, body


def render(entity, obj, status=200):
    return status, {NAMES[entity][1]: view(obj, entity)}


def _svc(req):
    return neutron.NeutronService(req.context)


def _all_projects(req):
    """Neutron lists every project's objects to an admin."""
    return True


def _body(req, entity):
    return req.member(NAMES[entity][1])


_COMMON = ("name", "description", "tags", "tenant_id", "project_id")
# what each object may be given at create (Neutron refuses any other attribute)
ATTRIBUTES = {
    "net": _COMMON
    + (
        "admin_state_up",
        "shared",
        "router:external",
        "mtu",
        "port_security_enabled",
        "dns_domain",
        "qos_policy_id",
        "availability_zone_hints",
        "is_default",
        "segments",
        "provider:network_type",
        "provider:physical_network",
        "provider:segmentation_id",
    ),
    "subnet": _COMMON
    + (
        "network_id",
        "cidr",
        "ip_version",
        "gateway_ip",
        "allocation_pools",
        "enable_dhcp",
        "dns_nameservers",
        "host_routes",
        "ipv6_address_mode",
        "ipv6_ra_mode",
        "subnetpool_id",
        "prefixlen",
        "segment_id",
        "service_types",
        "use_default_subnetpool",
        "dns_publish_fixed_ip",
    ),
    "port": _COMMON
    + (
        "network_id",
        "fixed_ips",
        "mac_address",
        "admin_state_up",
        "security_groups",
        "allowed_address_pairs",
        "binding:vnic_type",
        "binding:host_id",
        "binding:profile",
        "port_security_enabled",
        "device_owner",
        "device_id",
        "qos_policy_id",
        "dns_name",
        "dns_domain",
        "extra_dhcp_opts",
        "propagate_uplink_status",
    ),
}
# set once, at create
IMMUTABLE = (
    "network_id",
    "cidr",
    "ip_version",
    "tenant_id",
    "project_id",
    "router:external",
    "subnetpool_id",
    "prefixlen",
    "use_default_subnetpool",
)


def _check_attributes(entity, body, update=False):
    """Neutron's 400 for an attribute it does not know (or may not change)."""
    allowed = set(ATTRIBUTES[entity]) - (set(IMMUTABLE) if update else set())
    unknown = sorted(k for k in body if k not in allowed)
    if unknown:
        if update and unknown[0] in IMMUTABLE:
            raise exception.BadRequest("Cannot update read-only attribute %s" % unknown[0])
        raise exception.BadRequest("Unrecognized attribute(s) '%s'" % ", ".join(unknown))


def _extras(entity, body, taken=()):
    """The given attributes that are stored as they are."""
    skip = set(taken) | {"name", "tenant_id", "project_id"}
    return {k: v for k, v in body.items() if k in ATTRIBUTES[entity] and k not in skip}


# networks ----------------------------------------------------------------------------


def list_networks(req):
    return render_list(req, "net", _svc(req).list_visible("net", all_projects=_all_projects(req)))


def create_network(req):
    body = _body(req, "net")
    _check_attributes("net", body)
    external = bool(body.get("router:external", False))
    if external and not req.context.is_admin:
        raise exception.Forbidden(
            "(rule:create_network and rule:create_network:router:external) is disallowed by policy",
            neutron_type="PolicyNotAuthorized",
        )
    props = _extras("net", body, taken=("router:external", "shared"))
    props.setdefault("admin_state_up", True)
    props.setdefault("port_security_enabled", True)
    props.setdefault("availability_zone_hints", [])
    props["availability_zones"] = ["nova"]
    net = _svc(req)._store_net(
        body.get("name") or "", external=external, shared=bool(body.get("shared", False)), **props
    )
    return render("net", net, 201)


def _update(req, entity, obj_id, allowed=None):
    svc = _svc(req)
    svc.show(entity, obj_id)
    body = _body(req, entity)
    if allowed is None:
        _check_attributes(entity, body, update=True)
    else:
        bad = [k for k in body if k not in allowed and k != "name"]
        if bad:
            raise exception.BadRequest("Unrecognized attribute(s) '%s'" % ", ".join(bad))
    props = {k: v for k, v in body.items() if k != "name"}
    return render(entity, svc.update(entity, obj_id, name=body.get("name"), **props))


def show(entity):
    def handler(req, obj_id):
        return render(entity, _svc(req).show(entity, obj_id))

    return handler


def update_network(req, obj_id):
    return _update(req, "net", obj_id)


def delete_network(req, obj_id):
    _svc(req).delete_net(obj_id)
    return 204, None


# subnets -----------------------------------------------------------------------------


def list_subnets(req):
    return render_list(req, "subnet", _svc(req).list_visible("subnet", all_projects=True))


def create_subnet(req):
    body = _body(req, "subnet")
    _check_attributes("subnet", body)
    if not body.get("network_id"):
        raise exception.BadRequest(
            "Failed to parse request. Required attribute 'network_id' not specified"
        )
    if not body.get("cidr"):
        raise exception.BadRequest("Bad subnet request: a cidr must be specified.")
    svc = _svc(req)
    net = svc.show("net", body["network_id"])
    if net["project_id"] != req.context.project_id and not req.context.is_admin:
        raise exception.NotFound(
            "Network %s could not be found." % net["id"], neutron_type="NetworkNotFound"
        )
    props = _extras("subnet", body, taken=("network_id", "cidr"))
    subnet = svc.create_subnet(body["network_id"], body["cidr"], body.get("name"), **props)
    return render("subnet", subnet, 201)


def update_subnet(req, obj_id):
    return _update(req, "subnet", obj_id)


def delete_subnet(req, obj_id):
    _svc(req).delete_subnet(obj_id)
    return 204, None


# ports -------------------------------------------------------------------------------


def list_ports(req):
    return render_list(req, "port", _svc(req).list_visible("port", all_projects=True))


def create_port(req):
    body = _body(req, "port")
    _check_attributes("port", body)
    if not body.get("network_id"):
        raise exception.BadRequest(
            "Failed to parse request. Required attribute 'network_id' not specified"
        )
    props = _extras("port", body, taken=("network_id", "fixed_ips"))
    port = _svc(req).create_port(
        body["network_id"], name=body.get("name"), fixed_ips=body.get("fixed_ips"), **props
    )
    return render("port", port, 201)


def update_port(req, obj_id):
    svc = _svc(req)
    svc.show("port", obj_id)
    body = _body(req, "port")
    _check_attributes("port", body, update=True)
    props = {k: v for k, v in body.items() if k != "name"}
    if "name" in body:
        svc.update("port", obj_id, name=body["name"] or "")
    return render("port", svc.update_port(obj_id, **props))


def delete_port(req, obj_id):
    _svc(req).delete_port(obj_id)
    return 204, None


service = router.Service(
    "network",
    routes=[
        ("GET", "", versions),
        ("GET", "v2.0", root),
        ("GET", "v2.0/extensions", list_extensions),
        ("GET", "v2.0/extensions/{alias}", show_extension),
        ("GET", "v2.0/networks", list_networks),
        ("POST", "v2.0/networks", create_network),
        ("GET", "v2.0/networks/{obj_id}", show("net")),
        ("PUT", "v2.0/networks/{obj_id}", update_network),
        ("DELETE", "v2.0/networks/{obj_id}", delete_network),
        ("GET", "v2.0/subnets", list_subnets),
        ("POST", "v2.0/subnets", create_subnet),
        ("GET", "v2.0/subnets/{obj_id}", show("subnet")),
        ("PUT", "v2.0/subnets/{obj_id}", update_subnet),
        ("DELETE", "v2.0/subnets/{obj_id}", delete_subnet),
        ("GET", "v2.0/ports", list_ports),
        ("POST", "v2.0/ports", create_port),
        ("GET", "v2.0/ports/{obj_id}", show("port")),
        ("PUT", "v2.0/ports/{obj_id}", update_port),
        ("DELETE", "v2.0/ports/{obj_id}", delete_port),
        *network_l3.routes(show, render, render_list, _update),
    ],
    public=[("GET", "")],
    render_error=neutron_error,
)
