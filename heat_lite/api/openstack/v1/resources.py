"""Resources of a stack: ``/v1/{tenant}/stacks/{name}/{id}/resources...`` (docs/heat-api.md §4.3).

GET .../stacks/s1/<id>/resources?nested_depth=1
  -> ResourceController.index
  -> rpc_client.list_stack_resources_if_changed(ctx, identity, version_seen, 1, ...)
"""

import collections
import json

from webob import exc

from heat_lite.api.openstack.v1 import util
from heat_lite.api.openstack.v1.views import resources_view

PARAM_NESTED_DEPTH = "nested_depth"
PARAM_WITH_DETAIL = "with_detail"
PARAM_WITH_ATTR = "with_attr"
PARAM_MARK_UNHEALTHY = "mark_unhealthy"
PARAM_STATUS_REASON = "resource_status_reason"
MARK_UNHEALTHY_KEYS = (PARAM_MARK_UNHEALTHY, PARAM_STATUS_REASON)
RES_METADATA = "metadata"
# resource lists answered lately: the text of each (a 1,000-resource one: ~0.6 MB, and
# its gzip encoding once a client took it) with the engine's version of it (an
# unversioned one, with detail or nested stacks, keeps the engine's answer to compare
# instead: ~4 MB)
LISTS_KEPT = 8
_Known = collections.namedtuple("_Known", "version resources kept")


class ResourceController:
    """Handlers for the resource routes; policy names are ``resource:<handler name>``."""

    REQUEST_SCOPE = "resource"

    _FILTERS = dict.fromkeys(
        ("type", "status", "name", "action", "id", "physical_resource_id"),
        util.PARAM_TYPE_MIXED,
    )

    def __init__(self, rpc_client):
        self.rpc_client = rpc_client
        # (application URL, path and query) -> _Known, latest last
        self._lists = collections.OrderedDict()

    @staticmethod
    def _extract(req, key, extractor, default):
        if key not in req.params:
            return default
        return util.bad_request_on_value_error(extractor, key, req.params[key])

    @util.registered_identified_stack
    def index(self, req, ctx, identity):
        """GET .../resources: unknown query keys are a 400, as in Heat."""
        invalid_keys = (
            set(req.params.keys())
            - set(self._FILTERS)
            - {
                PARAM_NESTED_DEPTH,
                PARAM_WITH_DETAIL,
            }
        )
        if invalid_keys:
            raise exc.HTTPBadRequest("Invalid filter parameters %s" % str(list(invalid_keys)))
        nested_depth = self._extract(req, PARAM_NESTED_DEPTH, util.extract_int, 0)
        with_detail = self._extract(req, PARAM_WITH_DETAIL, util.extract_bool, False)
        filters = util.get_allowed_params(req.params, self._FILTERS)
        key = (util.application_url(req), req.path_qs)
        known = self._lists.get(key)
        answer = self.rpc_client.list_stack_resources_if_changed(
            ctx,
            identity,
            known.version if known else None,
            nested_depth=nested_depth,
            with_detail=with_detail,
            filters=filters,
        )
        resources, version = answer["resources"], answer["version"]
        if known is not None and (
            resources is None or (version is None and known.resources == resources)
        ):
            # the engine checked access and found the list unchanged
            self._lists.move_to_end(key)
            return util.kept_json_response(req, known.kept)
        text = json.dumps(
            {"resources": [resources_view.format_resource(req, r) for r in resources]}
        )
        # a versioned list is recognised by its version: its answer is not kept
        known = _Known(version, None if version else resources, util.KeptText(text))
        self._lists[key] = known
        self._lists.move_to_end(key)
        while len(self._lists) > LISTS_KEPT:
            self._lists.popitem(last=False)
        return util.kept_json_response(req, known.kept)

    @util.registered_identified_stack
    def show(self, req, ctx, identity, resource_name):
        """GET .../resources/{name}[?with_attr=a&with_attr=b]."""
        with_attr = req.params.getall(PARAM_WITH_ATTR) or None
        resource = self.rpc_client.describe_stack_resource(
            ctx, identity, resource_name, with_attr=with_attr
        )
        return {"resource": resources_view.format_resource(req, resource)}

    @util.registered_identified_stack
    def metadata(self, req, ctx, identity, resource_name):
        """GET .../resources/{name}/metadata -> {"metadata": {...}}."""
        resource = self.rpc_client.describe_stack_resource(ctx, identity, resource_name)
        return {RES_METADATA: resource[RES_METADATA]}

    @util.registered_identified_stack
    def signal(self, req, ctx, identity, resource_name, body=None):
        """POST .../resources/{name}/signal with any JSON (or none) -> 200 null."""
        self.rpc_client.resource_signal(ctx, identity, resource_name, body)
        return None

    @util.registered_identified_stack
    def mark_unhealthy(self, req, ctx, identity, resource_name, body):
        """PATCH .../resources/{name or physical id} {"mark_unhealthy": bool[, reason]}."""
        invalid_keys = set(body) - set(MARK_UNHEALTHY_KEYS)
        if invalid_keys:
            raise exc.HTTPBadRequest("Invalid keys in resource mark unhealthy %s" % invalid_keys)
        if PARAM_MARK_UNHEALTHY not in body:
            raise exc.HTTPBadRequest(
                "Missing mandatory (%s) key from mark unhealthy request" % PARAM_MARK_UNHEALTHY
            )
        mark = util.bad_request_on_value_error(
            util.extract_bool, PARAM_MARK_UNHEALTHY, body[PARAM_MARK_UNHEALTHY]
        )
        self.rpc_client.resource_mark_unhealthy(
            ctx,
            identity,
            resource_name,
            mark,
            resource_status_reason=body.get(PARAM_STATUS_REASON, ""),
        )
        return None
