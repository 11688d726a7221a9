"""Helpers of the controllers: paging parameters, JSON patch, uuid-or-name lookups."""

import jsonpatch
import pecan
import wsme

from magnum_lite import objects
from magnum_lite.common import exception, utils
from magnum_lite.conf import CONF


def validate_limit(limit):
    if limit is not None and limit <= 0:
        raise wsme.exc.ClientSideError("Limit must be positive")
    if limit is not None:
        return min(CONF.api.max_limit, limit)
    return CONF.api.max_limit


def validate_sort_dir(sort_dir):
    if sort_dir not in ("asc", "desc"):
        raise wsme.exc.ClientSideError(
            "Invalid sort direction: %s. Acceptable values are 'asc' or 'desc'" % sort_dir
        )
    return sort_dir


def apply_jsonpatch(doc, patch):
    """Apply ``patch`` to ``doc``; ``add`` at the root only onto an existing null key."""
    for p in patch:
        if p["op"] == "add" and p["path"].count("/") == 1:
            attr = p["path"].lstrip("/")
            if attr not in doc:
                raise wsme.exc.ClientSideError(
                    "Adding a new attribute %s to the root of the resource is not allowed."
                    % p["path"]
                )
            if doc[attr] is not None:
                raise wsme.exc.ClientSideError(
                    "The attribute %s has existed, please use 'replace' operation instead."
                    % p["path"]
                )
    try:
        return jsonpatch.apply_patch(doc, jsonpatch.JsonPatch(patch))
    except (jsonpatch.JsonPatchException, jsonpatch.JsonPointerException, KeyError) as e:
        raise exception.PatchError(patch=patch, reason=e)


def get_resource(resource, resource_ident):
    """The object ``resource`` ('Cluster', 'ClusterTemplate') by uuid or by name."""
    resource = getattr(objects, resource)
    context = pecan.request.context
    if utils.is_uuid_like(resource_ident):
        return resource.get_by_uuid(context, resource_ident)
    return resource.get_by_name(context, resource_ident)


def check_for_invalid_fields(fields, object_fields):
    invalid = set(fields or []) - set(object_fields)
    if invalid:
        raise exception.InvalidParameterValue(err="Field(s) %s are not valid" % ", ".join(invalid))
