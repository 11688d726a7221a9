"""Links: ``self`` = <app>/v1/<collection>/<id>, ``bookmark`` = <app>/<collection>/<id>."""

import pecan
from wsme import types as wtypes


class Link(wtypes.Base):
    href = str
    rel = str
    type = str

    @staticmethod
    def make_link(rel, url, resource, resource_args, bookmark=False, type=wtypes.Unset):
        template = "%s/%s" if bookmark else "%s/v1/%s"
        template += "%s" if resource_args.startswith("?") else "/%s"
        return Link(href=template % (url, resource, resource_args), rel=rel, type=type)


def app_url():
    return pecan.request.application_url


def self_and_bookmark(resource, resource_args):
    url = app_url()
    return [
        Link.make_link("self", url, resource, resource_args),
        Link.make_link("bookmark", url, resource, resource_args, bookmark=True),
    ]
