"""Stack actions: ``POST /v1/{tenant}/stacks/{name}/{id}/actions`` (docs/heat-api.md §4.2).

The body names exactly one action; policy ``actions:action`` and then
``actions:<that action>`` are enforced.

POST .../stacks/s1/<id>/actions {"suspend": null}
  -> ActionController.action -> rpc_client.stack_suspend(ctx, identity)
  <- 200 null
"""

from webob import exc

from heat_lite.api.openstack.v1 import util
from heat_lite.common import policy


class ActionController:
    """Handler of the actions route; policy names are ``actions:<action>``."""

    REQUEST_SCOPE = "actions"

    ACTIONS = (SUSPEND, RESUME, CHECK, CANCEL_UPDATE, CANCEL_WITHOUT_ROLLBACK) = (
        "suspend",
        "resume",
        "check",
        "cancel_update",
        "cancel_without_rollback",
    )

    def __init__(self, rpc_client):
        self.rpc_client = rpc_client

    @util.registered_identified_stack
    def action(self, req, ctx, identity, body=None):
        """Exactly one known action in the body, else 400 -> 200 ``null``."""
        body = body or {}
        if len(body) < 1:
            raise exc.HTTPBadRequest("No action specified")
        if len(body) > 1:
            raise exc.HTTPBadRequest("Multiple actions specified")
        name = next(iter(body))
        if name not in self.ACTIONS:
            raise exc.HTTPBadRequest("Invalid action %s specified" % name)
        policy.enforce(ctx, "%s:%s" % (self.REQUEST_SCOPE, name), {"project_id": ctx.project_id})
        if name == self.SUSPEND:
            self.rpc_client.stack_suspend(ctx, identity)
        elif name == self.RESUME:
            self.rpc_client.stack_resume(ctx, identity)
        elif name == self.CHECK:
            self.rpc_client.stack_check(ctx, identity)
        else:
            self.rpc_client.stack_cancel_update(
                ctx, identity, cancel_with_rollback=name == self.CANCEL_UPDATE
            )
        return None
