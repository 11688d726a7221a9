"""The magnum-lite-api WSGI app, built in code: Pecan root, hooks and middleware.

app = setup_app()          # after CONF is parsed and rpc.init() ran
# auth_strategy = noauth: identity from X-* headers (none: admin/admin/admin)
# auth_strategy = keystone: keystonemiddleware's auth_token validates X-Auth-Token
#   ([keystone_authtoken]); / and /v1 stay public, as in Magnum

Outermost first: ParsableErrorMiddleware (every error as {"errors": [...]}, the 401 of
auth_token too), RequestLimits (body size, JSON depth, NUL: middleware/request_limits.py),
auth_token (keystone mode), VersionHeadersMiddleware, pecan.
"""

import collections
import inspect

import pecan
import pecan.util
import wsme.api

from magnum_lite.api import hooks
from magnum_lite.api.middleware import auth_token, parsable_error, request_limits, version_headers
from magnum_lite.common import exception
from magnum_lite.conf import CONF

SERVER_ERROR = "The server has either erred or is incapable of performing the requested operation."
_wsme_format_exception = wsme.api.format_exception

_ArgSpec = collections.namedtuple("ArgSpec", "args varargs keywords defaults")


def _getargspec(func):
    """pecan.compat.getargspec's tuple, with its class built once: pecan builds a namedtuple
    class on every call (75 us, 14 us so) and calls it several times a request (a fifth of
    magnum-lite-api's CPU listing clusters, py-spy)."""
    args, varargs, keywords, defaults = inspect.getfullargspec(func)[:4]
    return _ArgSpec(args=args, varargs=varargs, keywords=keywords, defaults=defaults)


def _format_exception(excinfo, debug=False):
    """wsme's error body (wsme logs a server error with its traceback), where a server
    error that is not one of Magnum's own keeps its text in the log: a database driver's
    message names the SQL and its parameters, never an answer's."""
    body = _wsme_format_exception(excinfo, debug)
    error = excinfo[1]
    if body["faultcode"] == "Server" and not isinstance(error, exception.MagnumException):
        body["faultstring"] = SERVER_ERROR
    return body


def setup_app():
    pecan.util._getargspec = _getargspec
    wsme.api.format_exception = _format_exception
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
    if CONF.auth_strategy == "keystone":
        app = auth_token.AuthTokenMiddleware(
            app, {"oslo_config_config": CONF}, public_api_routes=auth_token.PUBLIC_ROUTES
        )
    app = request_limits.RequestLimits(app, CONF)
    return parsable_error.ParsableErrorMiddleware(app)
