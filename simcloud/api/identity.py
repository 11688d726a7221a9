"""The identity service (Keystone v3 subset) under ``/identity``.

Tokens (``POST|GET|HEAD|DELETE /v3/auth/tokens``, ``X-Subject-Token``), the catalog,
projects, users, roles, role assignments (on projects and on the default domain, whose
tokens are domain-scoped), the default domain and trusts
(``/v3/OS-TRUST/trusts``). Admin operations need the admin role; errors carry Keystone's
body ``{"error": {"code", "message", "title"}}``.
"""

from simcloud.api import router
from simcloud.common import exception
from simcloud.conf import CONF
from simcloud.db import identity as db
from simcloud.identity import catalog, manager, tokens

DOMAIN = {
    "id": "default",
    "name": "Default",
    "description": "The default domain",
    "enabled": True,
    "tags": [],
    "options": {},
}
COLLECTIONS = {"projects": "project", "users": "user", "roles": "role"}


def _v3_doc():
    return {
        "id": "v3.14",
        "status": "stable",
        "updated": "2020-04-07T00:00:00Z",
        "links": [{"rel": "self", "href": catalog.base_url() + "/identity/v3/"}],
        "media-types": [
            {"base": "application/json", "type": "application/vnd.openstack.identity-v3+json"}
        ],
    }


def versions(req):
    return 300, {"versions": {"values": [_v3_doc()]}}


def version(req):
    return 200, {"version": _v3_doc()}


def _require_admin(req):
    if not req.context.is_admin:
        raise exception.Forbidden(
            "You are not authorized to perform the requested action: identity admin."
        )


def _links(req, path):
    return {"self": req.url("/identity/v3/" + path)}


# tokens ------------------------------------------------------------------------------


def issue_token(req):
    body = req.body
    data, token = tokens.authenticate(body.get("auth") if isinstance(body, dict) else None)
    if "nocatalog" in req.params:
        data.pop("catalog", None)
    return router.json_response(201, {"token": data}, {"X-Subject-Token": token})


def _subject(req):
    if not (req.context.is_admin or "service" in req.context.roles):
        subject = req.raw.headers.get("X-Subject-Token")
        if subject != req.context.token:
            raise exception.Forbidden("You are not authorized to validate that token.")
    data = tokens.validate(
        req.raw.headers.get("X-Subject-Token"),
        allow_expired="allow_expired" in req.params,
        with_catalog="nocatalog" not in req.params,
    )
    return data


def validate_token(req):
    data = _subject(req)
    headers = {"X-Subject-Token": req.raw.headers.get("X-Subject-Token")}
    return router.json_response(200, {"token": data}, headers)


def check_token(req):
    _subject(req)
    return 200, None


def revoke_token(req):
    subject = req.raw.headers.get("X-Subject-Token")
    if subject != req.context.token and not req.context.is_admin:
        raise exception.Forbidden("You are not authorized to revoke that token.")
    tokens.revoke(subject)
    return 204, None


def auth_catalog(req):
    return 200, {"catalog": catalog.build(req.context.project_id), "links": _links(req, "auth")}


def auth_projects(req):
    rows = [db.get("project", a.project_id) for a in db.assignments(user_id=req.context.user_id)]
    seen = {r.id: r for r in rows if r is not None}
    return 200, {"projects": [_entity(req, "project", r) for r in seen.values()]}


# projects, users, roles --------------------------------------------------------------


def _entity(req, kind, row):
    body = manager.view(kind, row)
    body["links"] = _links(req, "%ss/%s" % (kind, row.id))
    return body


def _kind(collection):
    if collection not in COLLECTIONS:
        raise exception.NotFound("The resource could not be found.")
    return COLLECTIONS[collection]


def list_entities(req, collection):
    kind = _kind(collection)
    if kind != "role":
        _require_admin(req)
    filters = {k: req.params[k] for k in ("name", "domain_id") if k in req.params}
    if kind == "role":
        filters.pop("domain_id", None)
    if "enabled" in req.params and kind != "role":
        filters["enabled"] = req.params["enabled"].lower() in ("true", "1")
    rows = db.get_all(kind, **filters)
    return 200, {
        collection: [_entity(req, kind, r) for r in rows],
        "links": _links(req, collection),
    }


def create_entity(req, collection):
    _require_admin(req)
    kind = _kind(collection)
    row = manager.create(kind, req.member(kind))
    return 201, {kind: _entity(req, kind, row)}


def show_entity(req, collection, obj_id):
    kind = _kind(collection)
    own = (kind == "user" and obj_id == req.context.user_id) or (
        kind == "project" and obj_id == req.context.project_id
    )
    if not own and kind != "role":
        _require_admin(req)
    return 200, {kind: _entity(req, kind, manager.get(kind, obj_id))}


def update_entity(req, collection, obj_id):
    _require_admin(req)
    kind = _kind(collection)
    return 200, {kind: _entity(req, kind, manager.update(kind, obj_id, req.member(kind)))}


def delete_entity(req, collection, obj_id):
    _require_admin(req)
    manager.delete(_kind(collection), obj_id)
    return 204, None


def user_projects(req, user_id):
    if user_id != req.context.user_id:
        _require_admin(req)
    manager.get("user", user_id)
    ids = {a.project_id for a in db.assignments(user_id=user_id)}
    rows = [db.get("project", pid) for pid in sorted(ids)]
    return 200, {
        "projects": [_entity(req, "project", r) for r in rows if r],
        "links": _links(req, "users/%s/projects" % user_id),
    }


# role assignments --------------------------------------------------------------------


def grant(req, project_id, user_id, role_id):
    _require_admin(req)
    manager.grant(user_id, project_id, role_id)
    return 204, None


def check_grant(req, project_id, user_id, role_id):
    _require_admin(req)
    if not db.assignments(user_id=user_id, project_id=project_id, role_id=role_id):
        raise exception.NotFound("Could not find role assignment.")
    return 204, None


def revoke_grant(req, project_id, user_id, role_id):
    _require_admin(req)
    manager.revoke_grant(user_id, project_id, role_id)
    return 204, None


def list_grants(req, project_id, user_id):
    _require_admin(req)
    roles = db.roles_of(user_id, project_id)
    return 200, {"roles": [_entity(req, "role", r) for r in roles], "links": _links(req, "roles")}


def _domain_grant_target(domain_id, user_id, role_id=None):
    if domain_id != DOMAIN["id"]:
        raise exception.NotFound("Could not find domain: %s." % domain_id)
    manager.get("user", user_id)
    if role_id is not None:
        manager.get("role", role_id)


def domain_grant(req, domain_id, user_id, role_id):
    _require_admin(req)
    _domain_grant_target(domain_id, user_id, role_id)
    db.domain_assignment_add(user_id, domain_id, role_id)
    return 204, None


def check_domain_grant(req, domain_id, user_id, role_id):
    _require_admin(req)
    if role_id not in {r.id for r in db.domain_roles_of(user_id, domain_id)}:
        raise exception.NotFound("Could not find role assignment.")
    return 204, None


def revoke_domain_grant(req, domain_id, user_id, role_id):
    _require_admin(req)
    if not db.domain_assignment_remove(user_id, domain_id, role_id):
        raise exception.NotFound(
            "Could not find role assignment with role: %s, user or group: %s, project, "
            "domain, or system: %s." % (role_id, user_id, domain_id)
        )
    return 204, None


def list_domain_grants(req, domain_id, user_id):
    _require_admin(req)
    _domain_grant_target(domain_id, user_id)
    roles = db.domain_roles_of(user_id, domain_id)
    return 200, {"roles": [_entity(req, "role", r) for r in roles], "links": _links(req, "roles")}


def role_assignments(req):
    p = req.params
    if not req.context.is_admin and p.get("user.id") != req.context.user_id:
        raise exception.Forbidden("You are not authorized to list role assignments.")
    rows = db.assignments(
        user_id=p.get("user.id"), project_id=p.get("scope.project.id"), role_id=p.get("role.id")
    )
    include_names = "include_names" in p
    result = []
    for a in rows:
        item = {
            "role": {"id": a.role_id},
            "user": {"id": a.user_id},
            "scope": {"project": {"id": a.project_id}},
            "links": {
                "assignment": req.url(
                    "/identity/v3/projects/%s/users/%s/roles/%s"
                    % (a.project_id, a.user_id, a.role_id)
                )
            },
        }
        if include_names:
            for key, kind, obj_id in (("role", "role", a.role_id), ("user", "user", a.user_id)):
                row = db.get(kind, obj_id)
                item[key]["name"] = row.name if row else None
            project = db.get("project", a.project_id)
            item["scope"]["project"]["name"] = project.name if project else None
        result.append(item)
    return 200, {"role_assignments": result, "links": _links(req, "role_assignments")}


# domains, services, endpoints ---------------------------------------------------------


def _domain(req):
    return dict(DOMAIN, links=_links(req, "domains/default"))


def list_domains(req):
    name = req.params.get("name")
    domains = [] if name not in (None, "Default") else [_domain(req)]
    return 200, {"domains": domains, "links": _links(req, "domains")}


def show_domain(req, domain_id):
    if domain_id != "default":
        raise exception.NotFound("Could not find domain: %s." % domain_id)
    return 200, {"domain": _domain(req)}


def list_services(req):
    entries = catalog.build(req.context.project_id)
    services = [
        {"id": e["id"], "type": e["type"], "name": e["name"], "enabled": True} for e in entries
    ]
    return 200, {"services": services, "links": _links(req, "services")}


def list_endpoints(req):
    result = []
    for entry in catalog.build(req.context.project_id):
        for endpoint in entry["endpoints"]:
            result.append(dict(endpoint, service_id=entry["id"], enabled=True))
    return 200, {"endpoints": result, "links": _links(req, "endpoints")}


def list_regions(req):
    region = {
        "id": CONF.identity.region,
        "description": "",
        "parent_region_id": None,
        "links": _links(req, "regions/" + CONF.identity.region),
    }
    return 200, {"regions": [region], "links": _links(req, "regions")}


# trusts ------------------------------------------------------------------------------


def _trust(req, trust):
    body = manager.trust_view(trust)
    body["links"] = _links(req, "OS-TRUST/trusts/%s" % trust.id)
    return body


def create_trust(req):
    return 201, {"trust": _trust(req, manager.create_trust(req.context, req.member("trust")))}


def show_trust(req, trust_id):
    return 200, {"trust": _trust(req, manager.get_trust(req.context, trust_id))}


def list_trusts(req):
    filters = {k: req.params[k] for k in ("trustor_user_id", "trustee_user_id") if k in req.params}
    if not req.context.is_admin and req.context.user_id not in filters.values():
        raise exception.Forbidden("You are not authorized to list these trusts.")
    return 200, {"trusts": [_trust(req, t) for t in db.trust_get_all(**filters)]}


def delete_trust(req, trust_id):
    manager.delete_trust(req.context, trust_id)
    return 204, None


service = router.Service(
    "identity",
    routes=[
        ("GET", "", versions),
        ("GET", "v3", version),
        ("POST", "v3/auth/tokens", issue_token),
        ("GET", "v3/auth/tokens", validate_token),
        ("HEAD", "v3/auth/tokens", check_token),
        ("DELETE", "v3/auth/tokens", revoke_token),
        ("GET", "v3/auth/catalog", auth_catalog),
        ("GET", "v3/auth/projects", auth_projects),
        ("GET", "v3/users/{user_id}/projects", user_projects),
        ("GET", "v3/projects/{project_id}/users/{user_id}/roles", list_grants),
        ("PUT", "v3/projects/{project_id}/users/{user_id}/roles/{role_id}", grant),
        ("HEAD", "v3/projects/{project_id}/users/{user_id}/roles/{role_id}", check_grant),
        ("DELETE", "v3/projects/{project_id}/users/{user_id}/roles/{role_id}", revoke_grant),
        ("GET", "v3/domains/{domain_id}/users/{user_id}/roles", list_domain_grants),
        ("PUT", "v3/domains/{domain_id}/users/{user_id}/roles/{role_id}", domain_grant),
        ("HEAD", "v3/domains/{domain_id}/users/{user_id}/roles/{role_id}", check_domain_grant),
        ("DELETE", "v3/domains/{domain_id}/users/{user_id}/roles/{role_id}", revoke_domain_grant),
        ("GET", "v3/role_assignments", role_assignments),
        ("GET", "v3/domains", list_domains),
        ("GET", "v3/domains/{domain_id}", show_domain),
        ("GET", "v3/services", list_services),
        ("GET", "v3/endpoints", list_endpoints),
        ("GET", "v3/regions", list_regions),
        ("POST", "v3/OS-TRUST/trusts", create_trust),
        ("GET", "v3/OS-TRUST/trusts", list_trusts),
        ("GET", "v3/OS-TRUST/trusts/{trust_id}", show_trust),
        ("DELETE", "v3/OS-TRUST/trusts/{trust_id}", delete_trust),
        # projects, users and roles: after every fixed path above
        ("GET", "v3/{collection}", list_entities),
        ("POST", "v3/{collection}", create_entity),
        ("GET", "v3/{collection}/{obj_id}", show_entity),
        ("PATCH", "v3/{collection}/{obj_id}", update_entity),
        ("DELETE", "v3/{collection}/{obj_id}", delete_entity),
    ],
    public=[("GET", ""), ("GET", "v3"), ("POST", "v3/auth/tokens")],
    render_error=router.keystone_error,
)
