"""Errors a client plugin raises, whatever the backend; messages as the services' own.

Resource plugins catch these by meaning (not found, conflict), as Heat's client plugins'
``is_not_found``/``is_conflict`` do.
"""

from heat_lite.common import exception


class NotFound(exception.HeatException):
    """The service has no such object (a 404)."""

    msg_fmt = "%(message)s"

    def __init__(self, message=None, **kwargs):
        super().__init__(message=message or "Not found", **kwargs)


class Conflict(exception.HeatException):
    """The service refuses the request in the object's current state (a 409)."""

    msg_fmt = "%(message)s"

    def __init__(self, message=None, **kwargs):
        super().__init__(message=message or "Conflict", **kwargs)


class BadRequest(exception.HeatException):
    """The service rejects the request's content (a 400)."""

    msg_fmt = "%(message)s"

    def __init__(self, message=None, **kwargs):
        super().__init__(message=message or "Bad request", **kwargs)
