"""Every /v1 response, success or error, carries the microversion headers (and a 406 for a
bad ``OpenStack-API-Version`` header never reaches the controllers)."""

import webob.exc

from magnum_lite.api.controllers import versions

ENVIRON_KEY = "magnum.api_version"


class VersionHeadersMiddleware:
    def __init__(self, app):
        self.app = app

    def __call__(self, environ, start_response):
        path = environ.get("PATH_INFO", "")
        if not (path == "/v1" or path.startswith("/v1/")):
            return self.app(environ, start_response)
        headers = {k[5:].replace("_", "-").title(): v for k, v in environ.items()
                   if k.startswith("HTTP_")}  # fmt: skip
        headers = {k.lower(): v for k, v in headers.items()}
        try:
            version = versions.parse({versions.HEADER: headers.get(versions.HEADER.lower())})
        except webob.exc.HTTPNotAcceptable as err:
            version = versions.MIN_VERSION
            for name, value in versions.response_headers(version).items():
                err.headers[name] = value
            return err(environ, start_response)
        environ[ENVIRON_KEY] = version

        def with_headers(status, response_headers, exc_info=None):
            response_headers = list(response_headers)
            response_headers += list(versions.response_headers(version).items())
            return start_response(status, response_headers, exc_info)

        return self.app(environ, with_headers)
