"""``GET /`` (version discovery) and the ``/v1`` subtree."""

import pecan
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite.api.controllers import link, v1, versions


class Version(wtypes.Base):
    id = str
    links = [link.Link]
    status = str
    max_version = str
    min_version = str

    @staticmethod
    def convert(id, status, max_version, min_version):
        return Version(
            id=id,
            links=[
                link.Link.make_link("self", pecan.request.application_url, id, "", bookmark=True)
            ],
            status=status,
            max_version=max_version,
            min_version=min_version,
        )


class Root(wtypes.Base):
    name = str
    description = str
    versions = [Version]

    @staticmethod
    def convert():
        return Root(
            name="OpenStack Magnum API",
            description="Magnum is an OpenStack project which aims to provide container "
            "cluster management.",
            versions=[
                Version.convert("v1", "CURRENT", versions.CURRENT_MAX_VER, versions.BASE_VER)
            ],
        )


class RootController(rest.RestController):
    _versions = ["v1"]
    _default_version = "v1"

    v1 = v1.Controller()

    @wsme_pecan.wsexpose(Root)
    def get(self):
        return Root.convert()

    @pecan.expose()
    def _route(self, args, request=None):
        """Anything but the known versions goes to the default one."""
        if args[0] and args[0] not in self._versions:
            args = [self._default_version] + args
        return super()._route(args, request)
