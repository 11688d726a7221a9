"""keystonemiddleware's auth_token for magnum-lite-api (Magnum's AuthTokenMiddleware):
every request needs a valid token except the public routes (``/`` and ``/v1``, the
version documents), which pass without one.

    app = AuthTokenMiddleware(app, {"oslo_config_config": CONF}, PUBLIC_ROUTES)

auth_token reads ``[keystone_authtoken]`` from magnum's own ConfigOpts, validates the
token against Keystone and sets X-User-Id, X-Project-Id, X-Roles, ... for the ContextHook.
"""

import re

from keystonemiddleware import auth_token

PUBLIC_ROUTES = ("/", "/v1")


class AuthTokenMiddleware(auth_token.AuthProtocol):
    def __init__(self, app, conf, public_api_routes=()):
        self.public_api_routes = [
            re.compile(r"%s(\.json)?$" % route) for route in public_api_routes
        ]
        super().__init__(app, conf)

    def __call__(self, env, start_response):
        path = (env.get("PATH_INFO") or "/").rstrip("/") or "/"
        env["is_public_api"] = any(p.match(path) for p in self.public_api_routes)
        if env["is_public_api"]:
            return self._app(env, start_response)
        return super().__call__(env, start_response)
