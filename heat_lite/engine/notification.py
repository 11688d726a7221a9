"""Heat's stack notifications: every stored change of a stack's state is announced as
``orchestration.stack.<action>.<start|end|error>`` through oslo.messaging's Notifier,
when notifications are on (``[oslo_messaging_notifications] driver = messaging``).

    notification.send(stack)   # after the state is stored

The payload is Heat's notification body (tenant_id, user_id, user_identity,
stack_identity, stack_name, state, state_reason, create_at, updated_at, tags,
description); failures are sent at ERROR level, the rest at INFO.
"""

import logging

from heat_lite.common import messaging

LOG = logging.getLogger(__name__)


def _isotime(value):
    return value.strftime("%Y-%m-%dT%H:%M:%SZ") if value else None


def format_notification_body(stack):
    state = "%s_%s" % (stack.action, stack.status) if stack.action and stack.status else "Unknown"
    context = stack.context
    body = {
        "tenant_id": getattr(context, "tenant_id", None) or getattr(context, "project_id", None),
        "user_id": getattr(context, "username", None),
        "user_identity": getattr(context, "user_id", None),
        "stack_identity": stack.id,
        "stack_name": stack.name,
        "state": state,
        "state_reason": stack.status_reason,
        "create_at": _isotime(stack.created_time),
        "updated_at": _isotime(stack.updated_time),
        "tags": stack.tags,
    }
    if stack.t is not None:
        body["description"] = stack.t.t.get("description", "No description")
    return body


def send(stack):
    """Announce the stack's current state; a broken notifier never fails the stack."""
    notifier = messaging.get_notifier()
    if notifier is None:
        return
    suffix = {"IN_PROGRESS": "start", "FAILED": "error"}.get(stack.status, "end")
    event_type = "orchestration.stack.%s.%s" % (stack.action.lower(), suffix)
    try:
        body = format_notification_body(stack)
        if suffix == "error":
            notifier.error(stack.context, event_type, body)
        else:
            notifier.info(stack.context, event_type, body)
    except Exception:
        LOG.exception("Failed to send notification %s for stack %s", event_type, stack.id)
