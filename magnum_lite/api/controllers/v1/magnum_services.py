"""/v1/mservices: the conductors' heartbeat rows, up or down (admin only)."""

import datetime

import pecan
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite import objects
from magnum_lite.api.controllers import base
from magnum_lite.common import policy
from magnum_lite.conf import CONF


class MagnumService(base.APIBase):
    id = wtypes.IntegerType(minimum=1)
    host = wtypes.StringType(min_length=1, max_length=255)
    binary = wtypes.StringType(min_length=1, max_length=255)
    state = wtypes.StringType(min_length=1, max_length=255)
    report_count = int
    disabled = bool
    disabled_reason = wtypes.StringType(min_length=0, max_length=255)

    @classmethod
    def convert(cls, svc):
        values = base.convert_datetimes(svc.as_dict())
        s = cls(**{k: v for k, v in values.items() if hasattr(cls, k)})
        s.state = "up" if _is_up(svc) else "down"
        return s


def _is_up(svc):
    last = svc.last_seen_up or svc.updated_at or svc.created_at
    if last is None or svc.forced_down:
        return False
    if last.tzinfo is None:
        last = last.replace(tzinfo=datetime.timezone.utc)
    elapsed = datetime.datetime.now(datetime.timezone.utc) - last
    return abs(elapsed.total_seconds()) <= CONF.service_down_time


class MagnumServiceCollection(wtypes.Base):
    mservices = [MagnumService]


class MagnumServiceController(rest.RestController):
    @wsme_pecan.wsexpose(MagnumServiceCollection)
    def get_all(self):
        context = pecan.request.context
        policy.enforce(context, "magnum-service:get_all", action="magnum-service:get_all")
        services = objects.MagnumService.list(context)
        return MagnumServiceCollection(mservices=[MagnumService.convert(s) for s in services])
