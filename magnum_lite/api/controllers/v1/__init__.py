"""/v1: the version document and the collections under it."""

import pecan
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite.api.controllers import link
from magnum_lite.api.controllers.v1 import (
    certificate,
    cluster,
    cluster_template,
    credentials,
    magnum_services,
    quota,
    stats,
)

COLLECTIONS = ("clustertemplates", "clusters", "quotas", "certificates", "mservices", "stats",
               "federations", "credentials")  # fmt: skip


class MediaType(wtypes.Base):
    base = str
    type = str


class V1(wtypes.Base):
    id = str
    media_types = [MediaType]
    links = [link.Link]
    clustertemplates = [link.Link]
    clusters = [link.Link]
    quotas = [link.Link]
    certificates = [link.Link]
    mservices = [link.Link]
    stats = [link.Link]
    federations = [link.Link]
    credentials = [link.Link]
    nodegroups = [link.Link]

    @staticmethod
    def convert():
        url = pecan.request.application_url
        v1 = V1(
            id="v1",
            media_types=[
                MediaType(base="application/json", type="application/vnd.openstack.magnum.v1+json")
            ],
            links=[
                link.Link.make_link("self", url, "v1", "", bookmark=True),
                link.Link.make_link(
                    "describedby",
                    "http://docs.openstack.org",
                    "developer/magnum/dev",
                    "api-spec-v1.html",
                    bookmark=True,
                    type="text/html",
                ),
            ],
        )
        for name in COLLECTIONS:
            setattr(v1, name, link.self_and_bookmark(name, ""))
        v1.nodegroups = link.self_and_bookmark("clusters/{cluster_id}", "nodegroups")
        return v1


class Controller(rest.RestController):
    clusters = cluster.ClustersController()
    clustertemplates = cluster_template.ClusterTemplatesController()
    quotas = quota.QuotaController()
    certificates = certificate.CertificateController()
    mservices = magnum_services.MagnumServiceController()
    stats = stats.StatsController()
    credentials = credentials.CredentialsController()

    @wsme_pecan.wsexpose(V1)
    def get(self):
        return V1.convert()
