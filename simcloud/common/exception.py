"""simcloud's errors: each carries an HTTP ``code`` and a ``message``; each service's API
renders them in its own error body (Nova's ``itemNotFound``, Neutron's ``NeutronError``,
Keystone's ``error``, ...).

    raise exception.NotFound('Instance %s could not be found.' % server_id, kind='server')
"""


class SimcloudError(Exception):
    code = 500
    # Neutron's error type when none is derived from the kind (e.g. 'NetworkNotFound')
    neutron_type = "NeutronError"

    def __init__(self, message, kind=None, neutron_type=None):
        super().__init__(message)
        self.message = message
        self.kind = kind
        if neutron_type:
            self.neutron_type = neutron_type


class BadRequest(SimcloudError):
    code = 400
    neutron_type = "HTTPBadRequest"


class Unauthorized(SimcloudError):
    code = 401

    def __init__(self, message="The request you have made requires authentication.", **kw):
        super().__init__(message, **kw)


class Forbidden(SimcloudError):
    code = 403
    neutron_type = "HTTPForbidden"


class NotFound(SimcloudError):
    code = 404
    neutron_type = "NotFound"


class Conflict(SimcloudError):
    code = 409
    neutron_type = "Conflict"
