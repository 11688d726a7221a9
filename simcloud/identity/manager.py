"""Projects, users, roles, role assignments and trusts: the identity admin operations.

Views are Keystone v3's bodies (without ``links``, added by the API).

    manager.create_project({'name': 'p1'})      # {'id': ..., 'name': 'p1', ...}
    manager.grant(user_id, project_id, role_id)
    manager.create_trust(ctx, {'trustor_user_id': ..., 'trustee_user_id': ..., ...})
"""

import datetime
import uuid

from simcloud.common import exception
from simcloud.db import api as db_api
from simcloud.db import identity as db
from simcloud.identity import passwords, tokens

_LABEL = {"project": "project", "user": "user", "role": "role"}


def view(kind, row):
    if kind == "project":
        return {
            "id": row.id,
            "name": row.name,
            "domain_id": row.domain_id,
            "description": row.description or "",
            "enabled": row.enabled,
            "is_domain": False,
            "parent_id": row.domain_id,
            "tags": [],
            "options": {},
        }
    if kind == "user":
        body = {
            "id": row.id,
            "name": row.name,
            "domain_id": row.domain_id,
            "enabled": row.enabled,
            "default_project_id": row.default_project_id,
            "password_expires_at": None,
            "options": {},
        }
        for key in ("email", "description"):
            if getattr(row, key):
                body[key] = getattr(row, key)
        return body
    return {"id": row.id, "name": row.name, "domain_id": None, "description": row.description}


def get(kind, obj_id):
    row = db.get(kind, obj_id)
    if row is None:
        raise exception.NotFound("Could not find %s: %s." % (_LABEL[kind], obj_id))
    return row


def _name(body, kind):
    name = body.get("name") if isinstance(body, dict) else None
    if not isinstance(name, str) or not name.strip():
        raise exception.BadRequest("Invalid input for field 'name': a %s needs a name." % kind)
    return name


def create(kind, body):
    if not isinstance(body, dict):
        raise exception.BadRequest("Expecting to find %s in request body." % kind)
    values = {"id": uuid.uuid4().hex, "name": _name(body, kind)}
    if kind in ("project", "user"):
        values["domain_id"] = body.get("domain_id") or "default"
        if values["domain_id"] != "default":
            raise exception.NotFound("Could not find domain: %s." % values["domain_id"])
        values["enabled"] = bool(body.get("enabled", True))
        values["description"] = body.get("description")
    if kind == "role":
        values["description"] = body.get("description")
    if kind == "user":
        values["email"] = body.get("email")
        values["default_project_id"] = body.get("default_project_id")
        if body.get("password"):
            values["password_hash"] = passwords.hash_password(body["password"])
    if not db.insert(kind, values):
        raise exception.Conflict(
            "Conflict occurred attempting to store %s - Duplicate entry found with name %s."
            % (kind, values["name"])
        )
    return db.get(kind, values["id"])


def update(kind, obj_id, body):
    get(kind, obj_id)
    if not isinstance(body, dict):
        raise exception.BadRequest("Expecting to find %s in request body." % kind)
    allowed = {"name", "description", "enabled", "email", "default_project_id"}
    values = {k: v for k, v in body.items() if k in allowed and (kind != "role" or k != "enabled")}
    if kind == "user" and body.get("password"):
        values["password_hash"] = passwords.hash_password(body["password"])
        db.token_revoke_user(obj_id)
        tokens.forget_cached()
    if values and not db.update(kind, obj_id, values):
        raise exception.Conflict("Conflict occurred attempting to store %s." % kind)
    if kind == "user" and values.get("enabled") is False:
        db.token_revoke_user(obj_id)
        tokens.forget_cached()
    return db.get(kind, obj_id)


def delete(kind, obj_id):
    if kind == "user":
        db.token_revoke_user(obj_id)
        tokens.forget_cached()
    if not db.delete(kind, obj_id):
        raise exception.NotFound("Could not find %s: %s." % (_LABEL[kind], obj_id))


def grant(user_id, project_id, role_id):
    get("user", user_id)
    get("project", project_id)
    get("role", role_id)
    db.assignment_add(user_id, project_id, role_id)


def revoke_grant(user_id, project_id, role_id):
    if not db.assignment_remove(user_id, project_id, role_id):
        raise exception.NotFound(
            "Could not find role assignment with role: %s, user or group: %s, project, "
            "domain, or system: %s." % (role_id, user_id, project_id)
        )


# trusts ------------------------------------------------------------------------------


def _parse_time(value):
    if value is None:
        return None
    try:
        parsed = datetime.datetime.fromisoformat(str(value).replace("Z", "+00:00"))
    except ValueError:
        raise exception.BadRequest("Invalid input for field 'expires_at': %s" % value)
    if parsed.tzinfo is not None:
        parsed = parsed.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return parsed


def _trust_roles(body, trustor_id, project_id):
    held = {r.id: r for r in db.roles_of(trustor_id, project_id)} if project_id else {}
    result = []
    for spec in body.get("roles") or []:
        match = [r for r in held.values() if spec.get("id") == r.id or spec.get("name") == r.name]
        if not match:
            raise exception.Forbidden(
                "The trustor does not hold role %s on project %s."
                % (spec.get("id") or spec.get("name"), project_id)
            )
        result.append(match[0].id)
    return result


def create_trust(ctx, body):
    if (
        not isinstance(body, dict)
        or not body.get("trustor_user_id")
        or not body.get("trustee_user_id")
    ):
        raise exception.BadRequest("Expecting to find trustor_user_id and trustee_user_id.")
    if body["trustor_user_id"] != ctx.user_id:
        raise exception.Forbidden("The authenticated user should match the trustor.")
    get("user", body["trustee_user_id"])
    project_id = body.get("project_id")
    if project_id is not None and project_id != ctx.project_id and not ctx.is_admin:
        raise exception.Forbidden("The trustor may only delegate its token's project.")
    values = dict(
        id=uuid.uuid4().hex,
        trustor_user_id=body["trustor_user_id"],
        trustee_user_id=body["trustee_user_id"],
        project_id=project_id,
        impersonation=bool(body.get("impersonation", False)),
        allow_redelegation=bool(body.get("allow_redelegation", False)),
        role_ids=_trust_roles(body, body["trustor_user_id"], project_id),
        expires_at=_parse_time(body.get("expires_at")),
        created_at=db_api.utcnow(),
    )
    db.trust_create(values)
    return db.trust_get(values["id"])


def get_trust(ctx, trust_id):
    trust = db.trust_get(trust_id)
    if trust is None or not (
        ctx.is_admin or ctx.user_id in (trust.trustor_user_id, trust.trustee_user_id)
    ):
        raise exception.NotFound("Could not find trust: %s." % trust_id)
    return trust


def delete_trust(ctx, trust_id):
    trust = get_trust(ctx, trust_id)
    if not ctx.is_admin and ctx.user_id != trust.trustor_user_id:
        raise exception.Forbidden("Only the trustor may delete a trust.")
    db.trust_delete(trust_id)
    tokens.forget_cached()


def trust_view(trust):
    roles = db.roles_by_ids(trust.role_ids)
    return {
        "id": trust.id,
        "trustor_user_id": trust.trustor_user_id,
        "trustee_user_id": trust.trustee_user_id,
        "project_id": trust.project_id,
        "impersonation": trust.impersonation,
        "allow_redelegation": trust.allow_redelegation,
        "expires_at": trust.expires_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        if trust.expires_at
        else None,
        "remaining_uses": None,
        "redelegation_count": 0,
        "roles": [{"id": r.id, "name": r.name, "domain_id": None} for r in roles if r],
        "roles_links": {"self": None, "next": None, "previous": None},
    }
