"""Pecan hooks: the request context from identity headers, the conductor RPC client,
the negotiated microversion, and no tracebacks in error bodies."""

import pecan
from pecan import hooks

from magnum_lite.api.middleware import version_headers
from magnum_lite.common import context, policy
from magnum_lite.conductor import api as conductor_api
from magnum_lite.conf import CONF


def _roles(headers):
    value = headers.get("X-Roles")
    return [r for r in value.split(",")] if value else None


class ContextHook(hooks.PecanHook):
    """Identity from X-* headers: in keystone mode the ones auth_token set from the
    validated token (is_admin from the ``context_is_admin`` policy, as Magnum); in
    noauth mode the caller's own, and with none of them (``--os-auth-type none``) the
    configured noauth user/project with its roles (admin/admin/admin)."""

    def before(self, state):
        headers = state.request.headers
        user_id = headers.get("X-User-Id")
        project_id = headers.get("X-Project-Id")
        roles = _roles(headers)
        keystone = CONF.auth_strategy == "keystone"
        if not keystone and not (user_id or project_id or roles):
            user_id = CONF.noauth_user
            project_id = CONF.noauth_project
            roles = list(CONF.noauth_roles)
        ctx = context.RequestContext(
            auth_token=headers.get("X-Auth-Token"),
            user_id=user_id,
            project_id=project_id,
            user_name=headers.get("X-User-Name"),
            project_name=headers.get("X-Project-Name"),
            user_domain_id=headers.get("X-User-Domain-Id"),
            user_domain_name=headers.get("X-User-Domain-Name"),
            roles=roles or [],
            is_admin="admin" in (roles or []),
            overwrite=False,
        )
        if keystone:
            ctx.is_admin = policy.check_is_admin(ctx)
        state.request.context = ctx


class RPCHook(hooks.PecanHook):
    def before(self, state):
        state.request.rpcapi = conductor_api.API(context=state.request.context)


class VersionHook(hooks.PecanHook):
    def before(self, state):
        state.request.version = state.request.environ.get(version_headers.ENVIRON_KEY)


class NoExceptionTracebackHook(hooks.PecanHook):
    """No traceback in an error's answer, as Magnum's hook: an exception of the conductor
    comes back over RPC with the remote traceback appended to its message
    (oslo.messaging), so every error's message is cut where a traceback starts; a server
    error's debuginfo (wsme's traceback) is dropped."""

    MARKER = "Traceback (most recent call last):"

    def after(self, state):
        response = state.response
        if response.status_int < 400 or response.content_type != "application/json":
            return
        body = response.json_body if response.body else None
        if not isinstance(body, dict):
            return
        fault = body.get("faultstring")
        if not (isinstance(fault, str) and self.MARKER in fault) and not body.get("debuginfo"):
            return
        if isinstance(fault, str):
            body["faultstring"] = fault.split(self.MARKER, 1)[0].rstrip()
        body["debuginfo"] = None
        response.json_body = body


def current_context():
    return pecan.request.context
