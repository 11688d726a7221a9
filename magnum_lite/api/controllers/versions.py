"""Microversions of the container-infra API: the ``OpenStack-API-Version`` header.

version = versions.parse(request.headers)      # Version(1, 14) or raises HTTPNotAcceptable
versions.require(request, '1.9')               # 406 for an older requested version
"""

import json

import webob.exc

SERVICE_TYPE = "container-infra"
SERVICE_NAMES = ("container-infrastructure-management", "container-infrastructure", SERVICE_TYPE)
HEADER = "OpenStack-API-Version"
MIN_HEADER = "OpenStack-API-Minimum-Version"
MAX_HEADER = "OpenStack-API-Maximum-Version"
REPORTED_SERVICE = "container-infrastructure-management"

BASE_VER = "1.1"
CURRENT_MAX_VER = "1.14"


class Version:
    def __init__(self, major, minor):
        self.major, self.minor = major, minor

    @classmethod
    def of(cls, text):
        major, minor = text.split(".")
        return cls(int(major), int(minor))

    def _key(self):
        return (self.major, self.minor)

    def __lt__(self, other):
        return self._key() < _as_version(other)._key()

    def __ge__(self, other):
        return not self < other

    def __eq__(self, other):
        return self._key() == _as_version(other)._key()

    def __hash__(self):
        return hash(self._key())

    def __str__(self):
        return "%d.%d" % (self.major, self.minor)


def _as_version(value):
    return value if isinstance(value, Version) else Version.of(value)


MIN_VERSION = Version.of(BASE_VER)
MAX_VERSION = Version.of(CURRENT_MAX_VER)


def _unsupported():
    body = {
        "errors": [
            {
                "code": "magnum.microversion-unsupported",
                "title": "Requested microversion is unsupported",
                "min_version": BASE_VER,
                "max_version": CURRENT_MAX_VER,
                "links": [
                    {
                        "rel": "help",
                        "href": "http://docs.openstack.org/api-guide/compute/microversions.html",
                    }
                ],
            }
        ]
    }
    return webob.exc.HTTPNotAcceptable(
        body=json.dumps(body), content_type="application/json", charset="UTF-8"
    )


def parse(headers):
    """The requested version (1.1 when the header is missing).

    :raises: webob.exc.HTTPNotAcceptable for a malformed or unsupported version.
    """
    value = headers.get(HEADER)
    if not value:
        return Version(1, 1)
    parts = value.split()
    if len(parts) != 2 or parts[0].lower() not in SERVICE_NAMES:
        raise webob.exc.HTTPNotAcceptable("Invalid service type for %s header" % HEADER)
    text = parts[1]
    if text.lower() == "latest":
        return MAX_VERSION
    try:
        major, minor = (int(x) for x in text.split("."))
    except ValueError:
        raise webob.exc.HTTPNotAcceptable("Invalid value for %s header" % HEADER)
    version = Version(major, minor)
    if version < MIN_VERSION or MAX_VERSION < version:
        raise _unsupported()
    return version


def response_headers(version):
    return {
        MIN_HEADER: "%s %s" % (REPORTED_SERVICE, BASE_VER),
        MAX_HEADER: "%s %s" % (REPORTED_SERVICE, CURRENT_MAX_VER),
        HEADER: "%s %s" % (REPORTED_SERVICE, version),
        "Vary": HEADER,
    }


def require(request, minimum):
    """406 (empty error) when the request's version is below ``minimum``."""
    if request.version < minimum:
        raise webob.exc.HTTPNotAcceptable()
