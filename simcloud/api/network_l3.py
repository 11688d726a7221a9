"""Neutron's routers (with interfaces and the external gateway), floating IPs and security
groups, under ``/networking/v2.0``; the route entries are added to network.py's table."""

from simcloud.cloud import neutron
from simcloud.common import exception


def _svc(req):
    return neutron.NeutronService(req.context)


def _member(req, key):
    return req.member(key)


# routers -----------------------------------------------------------------------------


def make_handlers(render, render_list, update):
    def list_routers(req):
        return render_list(req, "router", _svc(req).list_visible("router", all_projects=True))

    def create_router(req):
        body = _member(req, "router")
        props = {
            k: body[k] for k in ("description", "admin_state_up", "distributed", "ha") if k in body
        }
        router = _svc(req).create_router(
            body.get("name"), body.get("external_gateway_info"), **props
        )
        return render("router", router, 201)

    def update_router(req, obj_id):
        svc = _svc(req)
        svc.show("router", obj_id)
        body = _member(req, "router")
        if "external_gateway_info" in body:
            gateway = body.pop("external_gateway_info")
            if gateway:
                svc.set_gateway(obj_id, gateway)
            else:
                svc.clear_gateway(obj_id)
        if "routes" in body:
            svc.update("router", obj_id, routes=body.pop("routes") or [])
        if body:
            return update(req, "router", obj_id, ("admin_state_up", "description", "tags"))
        return render("router", svc.show("router", obj_id))

    def delete_router(req, obj_id):
        _svc(req).delete_router(obj_id)
        return 204, None

    def _interface_args(req):
        body = req.body
        if not isinstance(body, dict) or not (body.get("subnet_id") or body.get("port_id")):
            raise exception.BadRequest(
                "Bad router request: Either subnet_id or port_id must be specified."
            )
        if body.get("subnet_id") and body.get("port_id"):
            raise exception.BadRequest(
                "Bad router request: Cannot specify both subnet-id and port-id."
            )
        return {"subnet_id": body.get("subnet_id"), "port_id": body.get("port_id")}

    def add_interface(req, obj_id):
        svc = _svc(req)
        result = svc.add_interface(obj_id, **_interface_args(req))
        router = svc.show("router", obj_id)
        result.update(
            tenant_id=router["project_id"],
            project_id=router["project_id"],
            subnet_ids=[result["subnet_id"]],
            network_id=svc.show("port", result["port_id"])["network_id"],
        )
        return 200, result

    def remove_interface(req, obj_id):
        svc = _svc(req)
        args = _interface_args(req)
        svc.show("router", obj_id)
        svc.remove_interface(obj_id, **args)
        return 200, {"id": obj_id, "subnet_id": args["subnet_id"], "port_id": args["port_id"]}

    # floating IPs --------------------------------------------------------------------

    def list_floatingips(req):
        return render_list(
            req, "floatingip", _svc(req).list_visible("floatingip", all_projects=True)
        )

    def create_floatingip(req):
        body = _member(req, "floatingip")
        if not body.get("floating_network_id"):
            raise exception.BadRequest(
                "Failed to parse request. Required attribute 'floating_network_id' not specified"
            )
        props = {k: body[k] for k in ("description", "dns_name", "dns_domain") if k in body}
        fip = _svc(req).create_floatingip(
            body["floating_network_id"],
            port_id=body.get("port_id"),
            fixed_ip_address=body.get("fixed_ip_address"),
            floating_ip_address=body.get("floating_ip_address"),
            **props,
        )
        return render("floatingip", fip, 201)

    def update_floatingip(req, obj_id):
        svc = _svc(req)
        svc.show("floatingip", obj_id)
        body = _member(req, "floatingip")
        if "port_id" in body:
            svc.update_floatingip(obj_id, body["port_id"], body.get("fixed_ip_address"))
        extras = {k: body[k] for k in ("description", "dns_name", "dns_domain") if k in body}
        if extras:
            svc.update("floatingip", obj_id, **extras)
        return render("floatingip", svc.show("floatingip", obj_id))

    def delete_floatingip(req, obj_id):
        _svc(req).delete_floatingip(obj_id)
        return 204, None

    # security groups -----------------------------------------------------------------

    def _group(svc, group):
        group = dict(group)
        group["security_group_rules"] = [
            dict(r, tenant_id=r["project_id"])
            for r in svc.list("security_group_rule", security_group_id=group["id"])
        ]
        group.setdefault("stateful", True)
        return group

    def list_groups(req):
        svc = _svc(req)
        svc.default_security_group()
        groups = [_group(svc, g) for g in svc.list_visible("security_group", all_projects=True)]
        return render_list(req, "security_group", groups)

    def create_group(req):
        body = _member(req, "security_group")
        svc = _svc(req)
        group = svc.create_security_group(body.get("name") or "", body.get("description"))
        if "stateful" in body:
            group = svc.update("security_group", group["id"], stateful=bool(body["stateful"]))
        return render("security_group", _group(svc, group), 201)

    def show_group(req, obj_id):
        svc = _svc(req)
        return render("security_group", _group(svc, svc.show("security_group", obj_id)))

    def update_group(req, obj_id):
        return update(req, "security_group", obj_id, ("description", "tags", "stateful"))

    def delete_group(req, obj_id):
        _svc(req).delete_security_group(obj_id)
        return 204, None

    def list_rules(req):
        return render_list(
            req,
            "security_group_rule",
            _svc(req).list_visible("security_group_rule", all_projects=True),
        )

    def create_rule(req):
        body = dict(_member(req, "security_group_rule"))
        group_id = body.pop("security_group_id", None)
        if not group_id:
            raise exception.BadRequest(
                "Failed to parse request. Required attribute 'security_group_id' not specified"
            )
        if body.get("direction") not in ("ingress", "egress"):
            raise exception.BadRequest(
                "Invalid input for direction. Reason: '%s' is not in "
                "['ingress', 'egress']." % body.get("direction")
            )
        rule = _svc(req).create_security_group_rule(group_id, **body)
        return render("security_group_rule", rule, 201)

    def delete_rule(req, obj_id):
        svc = _svc(req)
        svc.show("security_group_rule", obj_id)
        svc.delete("security_group_rule", obj_id)
        return 204, None

    return locals()


def routes(show, render, render_list, update):
    h = make_handlers(render, render_list, update)
    return [
        ("GET", "v2.0/routers", h["list_routers"]),
        ("POST", "v2.0/routers", h["create_router"]),
        ("GET", "v2.0/routers/{obj_id}", show("router")),
        ("PUT", "v2.0/routers/{obj_id}", h["update_router"]),
        ("DELETE", "v2.0/routers/{obj_id}", h["delete_router"]),
        ("PUT", "v2.0/routers/{obj_id}/add_router_interface", h["add_interface"]),
        ("PUT", "v2.0/routers/{obj_id}/remove_router_interface", h["remove_interface"]),
        ("GET", "v2.0/floatingips", h["list_floatingips"]),
        ("POST", "v2.0/floatingips", h["create_floatingip"]),
        ("GET", "v2.0/floatingips/{obj_id}", show("floatingip")),
        ("PUT", "v2.0/floatingips/{obj_id}", h["update_floatingip"]),
        ("DELETE", "v2.0/floatingips/{obj_id}", h["delete_floatingip"]),
        ("GET", "v2.0/security-groups", h["list_groups"]),
        ("POST", "v2.0/security-groups", h["create_group"]),
        ("GET", "v2.0/security-groups/{obj_id}", h["show_group"]),
        ("PUT", "v2.0/security-groups/{obj_id}", h["update_group"]),
        ("DELETE", "v2.0/security-groups/{obj_id}", h["delete_group"]),
        ("GET", "v2.0/security-group-rules", h["list_rules"]),
        ("POST", "v2.0/security-group-rules", h["create_rule"]),
        ("GET", "v2.0/security-group-rules/{obj_id}", show("security_group_rule")),
        ("DELETE", "v2.0/security-group-rules/{obj_id}", h["delete_rule"]),
    ]
