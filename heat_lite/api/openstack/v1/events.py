"""Events: ``/v1/{tenant}/stacks/{name}/{id}[/resources/{r}]/events...`` (docs/heat-api.md §4.4).

GET .../stacks/s1/<id>/events?sort_dir=asc&marker=<event id>
  -> EventController.index -> rpc_client.list_events(ctx, identity, sort_dir='asc', ...)
"""

from webob import exc

from heat_lite.api.openstack.v1 import util
from heat_lite.api.openstack.v1.views import events_view


class EventController:
    """Handlers for the event routes; policy names are ``events:<handler name>``."""

    REQUEST_SCOPE = "events"

    _PARAMS = {
        "limit": util.PARAM_TYPE_SINGLE,
        "marker": util.PARAM_TYPE_SINGLE,
        "sort_dir": util.PARAM_TYPE_SINGLE,
        "sort_keys": util.PARAM_TYPE_MULTI,
        "nested_depth": util.PARAM_TYPE_SINGLE,
    }
    _FILTERS = dict.fromkeys(
        ("resource_status", "resource_action", "resource_name", "resource_type"),
        util.PARAM_TYPE_MIXED,
    )
    _INT_PARAMS = ("limit", "nested_depth")

    def __init__(self, rpc_client):
        self.rpc_client = rpc_client

    def _event_list(self, req, ctx, identity, detail=False, filters=None, **params):
        events = self.rpc_client.list_events(ctx, identity, filters=filters, **params)
        keys = None if detail else events_view.summary_keys
        return [events_view.format_event(req, e, keys) for e in events]

    @util.registered_identified_stack
    def index(self, req, ctx, identity, resource_name=None):
        """Event summaries of the stack, or of one resource (404 when it has none)."""
        params = util.get_allowed_params(req.params, self._PARAMS)
        filters = util.get_allowed_params(req.params, self._FILTERS)
        for key in self._INT_PARAMS:
            if key in params:
                params[key] = util.bad_request_on_value_error(util.extract_int, key, params[key])
        if resource_name is None:
            filters = filters or None
        else:
            filters["resource_name"] = resource_name
        events = self._event_list(req, ctx, identity, filters=filters, **params)
        if not events and resource_name is not None:
            raise exc.HTTPNotFound("No events found for resource %s" % resource_name)
        return {"events": events}

    @util.registered_identified_stack
    def show(self, req, ctx, identity, resource_name, event_id):
        """One event in detail (adds resource_type and resource_properties)."""
        filters = {"resource_name": resource_name, "uuid": event_id}
        events = self._event_list(req, ctx, identity, detail=True, filters=filters)
        if not events:
            raise exc.HTTPNotFound("No event %s found" % event_id)
        return {"event": events[0]}
