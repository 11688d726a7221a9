"""Pecan hooks of heat-lite-api.

ContextHook turns the identity headers (set by keystonemiddleware, or by the noauth
middleware in app.py) into a heat_lite RequestContext for the handlers:

    X-User-Id: u1, X-Project-Id: p1, X-Roles: member,reader
      -> util.request_context(req) == RequestContext(user_id='u1', project_id='p1', ...)
"""

from pecan import hooks

from heat_lite.api.openstack.v1 import util
from heat_lite.common import context


class ContextHook(hooks.PecanHook):
    """Builds the RequestContext, as heat/common/context.py:ContextMiddleware does."""

    def before(self, state):
        req = state.request
        headers = req.headers
        username = headers.get("X-Auth-User")
        password = headers.get("X-Auth-Key") if username is not None else None
        ctx = context.RequestContext.from_environ(
            req.environ,
            username=username or headers.get("X-User-Name"),
            password=password,
            region_name=headers.get("X-Region-Name"),
            auth_url=headers.get("X-Auth-Url"),
            auth_token_info=_trust_token_info(req.environ),
        )
        req.environ[util.CONTEXT_ENV_KEY] = ctx


def _trust_token_info(environ):
    """keystonemiddleware's validated token body (``keystone.token_info``) when the token
    is trust-scoped, else None (the other tokens travel as their id alone)."""
    info = environ.get("keystone.token_info") or {}
    if "OS-TRUST:trust" in (info.get("token") or {}):
        return info
    return None
