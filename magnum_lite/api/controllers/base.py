"""APIBase: the created_at/updated_at every resource shows, and ``as_dict``."""

import datetime

import wsme
from wsme import types as wtypes


class APIBase(wtypes.Base):
    created_at = wsme.wsattr(datetime.datetime, readonly=True)
    updated_at = wsme.wsattr(datetime.datetime, readonly=True)

    def as_dict(self):
        """Only the attributes that were set (not wsme.Unset)."""
        names = [attr.name for attr in self._wsme_attributes]
        return {k: getattr(self, k) for k in names if getattr(self, k) is not wsme.Unset}

    def unset_fields_except(self, except_list=None):
        for k in self.as_dict():
            if k not in (except_list or []):
                setattr(self, k, wsme.Unset)


def convert_datetimes(obj_dict):
    """Aware UTC datetimes, so wsme prints ``...+00:00`` as Magnum does."""
    for key in ("created_at", "updated_at"):
        value = obj_dict.get(key)
        if isinstance(value, datetime.datetime) and value.tzinfo is None:
            obj_dict[key] = value.replace(tzinfo=datetime.timezone.utc)
    return obj_dict
