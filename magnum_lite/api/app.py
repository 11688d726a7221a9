"""The magnum-lite-api WSGI app, built in code: Pecan root, hooks and middleware.

app = setup_app()          # after CONF is parsed and rpc.init() ran
# auth_strategy = noauth: identity from X-* headers (none: admin/admin/admin)
"""

import pecan

from magnum_lite.api import hooks
from magnum_lite.api.middleware import parsable_error, version_headers
from magnum_lite.conf import CONF


def setup_app():
    if CONF.auth_strategy != "noauth":
        raise RuntimeError("auth_strategy=%s is not available yet; use noauth" % CONF.auth_strategy)
    app = pecan.make_app(
        "magnum_lite.api.controllers.root.RootController",
        hooks=[
            hooks.ContextHook(),
            hooks.RPCHook(),
            hooks.VersionHook(),
            hooks.NoExceptionTracebackHook(),
        ],
        force_canonical=False,
        guess_content_type_from_ext=False,
        logging=False,
    )
    app = version_headers.VersionHeadersMiddleware(app)
    return parsable_error.ParsableErrorMiddleware(app)
