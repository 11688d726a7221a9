"""Tokens: password, token and trust authentication, validation and revocation.

A token is a random string handed to the caller once; the database keeps its SHA-256.

    data, token = tokens.authenticate(body['auth'])     # POST /v3/auth/tokens
    tokens.validate(token)                              # the token's data, or Unauthorized
    tokens.revoke(token)
    tokens.context(token)                               # a RequestContext
"""

import base64
import datetime
import hashlib
import secrets
import time

from simcloud.common import context as ctx_mod
from simcloud.common import exception
from simcloud.conf import CONF
from simcloud.db import api as db_api
from simcloud.db import identity as db
from simcloud.identity import catalog, passwords

DEFAULT_DOMAIN = {"id": "default", "name": "Default"}
# token hash -> (monotonic time cached, RequestContext, expires_at): the services' check of
# X-Auth-Token costs no query for CONTEXT_TTL seconds (keystonemiddleware caches likewise);
# any revocation in this process empties it at once
_CONTEXTS = {}
CONTEXT_TTL = 10.0
UNAUTHORIZED = "The request you have made requires authentication."


def _hash(token):
    return hashlib.sha256(token.encode()).hexdigest()


def _isotime(value):
    return value.strftime("%Y-%m-%dT%H:%M:%S.%f") + "Z"


def _bad(message):
    return exception.BadRequest(message)


def _find_user(spec):
    if not isinstance(spec, dict):
        raise _bad(
            "Expecting to find user in password. The server could not comply with "
            "the request since it is either malformed or otherwise incorrect."
        )
    if spec.get("id"):
        return db.get("user", spec["id"])
    if not spec.get("name"):
        raise _bad("Expecting to find id or name in user.")
    domain = spec.get("domain") or {}
    users = db.get_all("user", name=spec["name"], domain_id=domain.get("id") or "default")
    return users[0] if users else None


def _password_user(identity):
    spec = (identity.get("password") or {}).get("user")
    user = _find_user(spec)
    if (
        user is None
        or not user.enabled
        or not passwords.check_password(spec.get("password") or "", user.password_hash)
    ):
        raise exception.Unauthorized(UNAUTHORIZED)
    return user


def _token_row(token, allow_expired=False):
    row = db.token_get(_hash(token)) if token else None
    if row is None or row.revoked:
        return None
    if not allow_expired and row.expires_at <= db_api.utcnow():
        return None
    return row


def _authenticated_user(identity):
    methods = identity.get("methods") or []
    if "password" in methods:
        return _password_user(identity), ["password"], None
    if "token" in methods:
        row = _token_row((identity.get("token") or {}).get("id"))
        if row is None:
            raise exception.Unauthorized(UNAUTHORIZED)
        return db.get("user", row.user_id), ["token"], row
    raise exception.Unauthorized(UNAUTHORIZED)


def _scope_domain(scope):
    """The domain a token is scoped to (``scope.domain``; None: not domain-scoped)."""
    domain = scope.get("domain") if isinstance(scope, dict) else None
    if domain is None:
        return None
    if not isinstance(domain, dict):
        raise _bad("Expecting to find id or name in domain.")
    if domain.get("id") == DEFAULT_DOMAIN["id"] or domain.get("name") == DEFAULT_DOMAIN["name"]:
        return DEFAULT_DOMAIN["id"]
    raise exception.Unauthorized(
        "Could not find domain: %s." % (domain.get("id") or domain.get("name"))
    )


def _scope_project(scope, user):
    """The project a token is scoped to (None: unscoped)."""
    if scope == "unscoped":
        return None
    if scope is None:
        return user.default_project_id
    project = scope.get("project") if isinstance(scope, dict) else None
    if project is None:
        raise exception.Unauthorized(UNAUTHORIZED)
    if project.get("id"):
        return project["id"]
    domain = project.get("domain") or {}
    found = db.get_all("project", name=project.get("name"), domain_id=domain.get("id") or "default")
    if not found:
        raise exception.Unauthorized("Could not find project: %s." % project.get("name"))
    return found[0].id


def authenticate(auth):
    """Check ``auth`` (the body's ``auth``); (token data, token id) of a new token."""
    if not isinstance(auth, dict) or not isinstance(auth.get("identity"), dict):
        raise _bad("Expecting to find identity in auth.")
    user, methods, source = _authenticated_user(auth["identity"])
    scope = auth.get("scope")
    trust = (scope or {}).get("OS-TRUST:trust") if isinstance(scope, dict) else None
    if trust is None and source is not None and source.trust_id:
        raise exception.Forbidden("Cannot rescope a trust-scoped token.")
    if trust is not None:
        return _issue_trust_token(user, methods, trust.get("id"))
    domain_id = _scope_domain(scope)
    if domain_id is not None:
        roles = db.domain_roles_of(user.id, domain_id)
        if not roles:
            raise exception.Unauthorized(
                "User %s has no access to domain %s" % (user.id, domain_id)
            )
        return _issue(user.id, None, [r.id for r in roles], methods, domain_id=domain_id)
    if source is not None and scope is None:
        project_id = source.project_id
    else:
        project_id = _scope_project(scope, user)
    role_ids = None
    if project_id is not None:
        project = db.get("project", project_id)
        roles = db.roles_of(user.id, project_id)
        if project is None or not project.enabled or not roles:
            raise exception.Unauthorized(
                "User %s has no access to project %s" % (user.id, project_id)
            )
        role_ids = [r.id for r in roles]
    return _issue(user.id, project_id, role_ids, methods, audit_from=source)


def _issue_trust_token(user, methods, trust_id):
    trust = db.trust_get(trust_id) if trust_id else None
    if trust is None or (trust.expires_at is not None and trust.expires_at <= db_api.utcnow()):
        # Keystone's TrustNotFound (deleted or expired), which Magnum's periodic sync
        # recognises by its text
        raise exception.NotFound("Could not find trust: %s." % trust_id)
    if trust.trustee_user_id != user.id:
        raise exception.Unauthorized(UNAUTHORIZED)
    subject = trust.trustor_user_id if trust.impersonation else trust.trustee_user_id
    return _issue(subject, trust.project_id, trust.role_ids, methods, trust_id=trust.id)


def _issue(user_id, project_id, role_ids, methods, trust_id=None, audit_from=None, domain_id=None):
    token = secrets.token_urlsafe(32)
    now = db_api.utcnow()
    expires = now + datetime.timedelta(seconds=CONF.identity.token_expiration)
    if audit_from is not None:
        expires = min(expires, audit_from.expires_at)
    audit_id = base64.urlsafe_b64encode(secrets.token_bytes(16)).decode().rstrip("=")
    # tokens expired for a day are of no use any more, even with allow_expired
    db.token_purge_expired(now - datetime.timedelta(days=1))
    db.token_create(
        dict(
            id=_hash(token),
            user_id=user_id,
            project_id=project_id,
            domain_id=domain_id,
            trust_id=trust_id,
            role_ids=role_ids,
            methods=methods,
            audit_id=audit_id,
            issued_at=now,
            expires_at=expires,
            revoked=False,
        )
    )
    return token_data(_token_row(token)), token


def token_data(row, with_catalog=True):
    """Keystone's ``token`` body of a stored token."""
    user = db.get("user", row.user_id)
    data = {
        "methods": list(row.methods or []),
        "user": {
            "id": row.user_id,
            "name": user.name if user else None,
            "domain": dict(DEFAULT_DOMAIN),
            "password_expires_at": None,
        },
        "audit_ids": [row.audit_id],
        "expires_at": _isotime(row.expires_at),
        "issued_at": _isotime(row.issued_at),
    }
    if row.project_id is not None:
        project = db.get("project", row.project_id)
        data["project"] = {
            "id": row.project_id,
            "name": project.name if project else None,
            "domain": dict(DEFAULT_DOMAIN),
        }
        data["is_domain"] = False
        roles = db.roles_by_ids(row.role_ids)
        data["roles"] = [{"id": r.id, "name": r.name} for r in roles]
        if with_catalog:
            data["catalog"] = catalog.build(row.project_id)
    if row.domain_id is not None:
        data["domain"] = dict(DEFAULT_DOMAIN)
        data["roles"] = [{"id": r.id, "name": r.name} for r in db.roles_by_ids(row.role_ids)]
        if with_catalog:  # the project-less endpoints (identity among them)
            data["catalog"] = catalog.build(None)
    if row.trust_id:
        trust = db.trust_get(row.trust_id)
        data["OS-TRUST:trust"] = {
            "id": row.trust_id,
            "impersonation": bool(trust and trust.impersonation),
            "trustee_user": {"id": trust.trustee_user_id if trust else None},
            "trustor_user": {"id": trust.trustor_user_id if trust else None},
        }
    return data


def validate(token, allow_expired=False, with_catalog=True):
    """The data of a valid token; NotFound (Keystone's answer) otherwise."""
    row = _token_row(token, allow_expired=allow_expired)
    if row is None:
        raise exception.NotFound("Could not find token: %s." % (token or "")[:8])
    return token_data(row, with_catalog=with_catalog)


def context(token):
    """The RequestContext of a valid token; Unauthorized otherwise."""
    key = _hash(token) if token else None
    cached = _CONTEXTS.get(key)
    now = time.monotonic()
    if cached is not None and now - cached[0] < CONTEXT_TTL and cached[2] > db_api.utcnow():
        return cached[1]
    row = _token_row(token)
    if row is None:
        raise exception.Unauthorized(UNAUTHORIZED)
    ctx = ctx_mod.RequestContext(
        user_id=row.user_id,
        project_id=row.project_id,
        roles=[r.name for r in db.roles_by_ids(row.role_ids)],
        token=token,
    )
    if len(_CONTEXTS) > 10000:
        _CONTEXTS.clear()
    _CONTEXTS[key] = (now, ctx, row.expires_at)
    return ctx


def forget_cached():
    """Tokens were revoked (a token, a user's, a trust's): check every token again."""
    _CONTEXTS.clear()


def revoke(token):
    if _token_row(token) is None:
        raise exception.NotFound("Could not find token: %s." % (token or "")[:8])
    db.token_revoke(_hash(token))
    forget_cached()
