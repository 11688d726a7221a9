"""wsme types of the v1 API: names, uuid-or-name, booleans, JSON patch, multi-types."""

import ast
import json

import wsme
from oslo_utils import strutils
from wsme import types as wtypes

from magnum_lite.common import exception, utils


class NameType(wtypes.UserType):
    basetype = str
    name = "name"

    @staticmethod
    def validate(value):
        return value


class UuidType(wtypes.UserType):
    basetype = wtypes.text
    name = "uuid"

    @staticmethod
    def validate(value):
        if not utils.is_uuid_like(value):
            raise exception.InvalidUUID(uuid=value)
        return value


class BooleanType(wtypes.UserType):
    basetype = wtypes.text
    name = "boolean"

    @staticmethod
    def validate(value):
        try:
            return strutils.bool_from_string(value, strict=True)
        except ValueError as e:
            raise exception.Invalid(str(e))

    @staticmethod
    def frombasetype(value):
        return None if value is None else BooleanType.validate(value)


class MultiType(wtypes.UserType):
    """A value of any of the given types (labels: str, int, bool, float)."""

    def __init__(self, *types):
        self.types = types

    def __str__(self):
        return " | ".join(map(str, self.types))

    def validate(self, value):
        for t in self.types:
            if t is wsme.types.text and isinstance(value, wsme.types.bytes):
                value = value.decode()
            if isinstance(value, t):
                return value
        raise ValueError("Wrong type. Expected '%s', got '%s'" % (self.types, type(value)))


uuid = UuidType()
name = NameType()
boolean = BooleanType()

# the integer columns are 32-bit: a larger value is refused here (400), not lost in an insert
INT_MAX = 2**31 - 1


def integer(minimum, maximum=INT_MAX):
    """A count or size stored in an integer column."""
    return wtypes.IntegerType(minimum=minimum, maximum=maximum)


class JsonPatchType(wtypes.Base):
    """One operation of a JSON patch (RFC 6902)."""

    path = wtypes.wsattr(wtypes.StringType(pattern=r"^(/[\w-]+)+$"), mandatory=True)
    op = wtypes.wsattr(wtypes.Enum(str, "add", "replace", "remove"), mandatory=True)
    value = MultiType(wtypes.text, int)

    # attributes of every resource that a patch may never touch
    _api_base_internal_attrs = ("/created_at", "/id", "/links", "/updated_at", "/uuid",
                                "/project_id", "/user_id")  # fmt: skip
    _extra_non_removable_attrs = set()

    @staticmethod
    def internal_attrs():
        return []

    @staticmethod
    def non_removable_attrs():
        return []

    @classmethod
    def validate(cls, patch):
        if patch.path in cls._api_base_internal_attrs + tuple(cls.internal_attrs()):
            raise wsme.exc.ClientSideError(
                "'%s' is an internal attribute and can not be updated" % patch.path
            )
        if patch.path in cls.non_removable_attrs() and patch.op == "remove":
            raise wsme.exc.ClientSideError(
                "'%s' is a mandatory attribute and can not be removed" % patch.path
            )
        if patch.op != "remove":
            if patch.value is wsme.Unset:
                raise wsme.exc.ClientSideError("'add' and 'replace' operations needs value")
        ret = {"path": patch.path, "op": patch.op}
        if patch.value is not wsme.Unset:
            ret["value"] = patch.value
        return ret


LITERAL_PATHS = ("/labels", "/health_status_reason", "/node_labels", "/node_taints")


def literal(patch):
    """OSC sends dict/list values of some paths as their Python repr: parse them back."""
    if patch["op"] == "replace" and patch["path"] in LITERAL_PATHS:
        value = patch.get("value")
        if isinstance(value, str):
            try:
                patch["value"] = ast.literal_eval(value)
            except (ValueError, SyntaxError):
                try:
                    patch["value"] = json.loads(value)
                except ValueError:
                    raise exception.PatchError(patch=patch, reason="Invalid value")
    return patch


class ClusterID(wtypes.Base):
    """The 202 answer of the cluster operations: ``{"uuid": ...}``."""

    uuid = uuid

    def __init__(self, uuid):
        self.uuid = uuid
