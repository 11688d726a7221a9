"""Collections and their ``next`` link (present when a page is full)."""

import pecan
from wsme import types as wtypes

from magnum_lite.api.controllers import base, link


class Collection(base.APIBase):
    next = str

    @property
    def collection(self):
        return getattr(self, self._type)

    def has_next(self, limit):
        return len(self.collection) and len(self.collection) == limit

    def get_next(self, limit, url=None, marker_attr="uuid", **kwargs):
        if not self.has_next(limit):
            return wtypes.Unset
        resource_url = url or self._type
        query = "".join("%s=%s&" % (k, v) for k, v in kwargs.items())
        marker = getattr(self.collection[-1], marker_attr)
        q_args = "?%slimit=%d&marker=%s" % (query, limit, marker)
        return link.Link.make_link("next", pecan.request.application_url, resource_url, q_args).href
