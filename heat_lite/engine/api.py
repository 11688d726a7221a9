"""format_*: the dicts the engine returns over RPC (Heat's heat/engine/api.py shapes).

The API's views turn these into the REST bodies of spec/heat-api.md §5.

    format_stack(stack, outputs=[...])  -> {'stack_identity': {...}, 'stack_name': ..., ...}
"""

from heat_lite.common import identifier
from heat_lite.rpc import api as rpc_api


def heat_timestamp(value):
    return value.strftime("%Y-%m-%dT%H:%M:%SZ") if value is not None else None


def format_stack_db_object(row, tags=None):
    """A list item, straight from the stack row (no template parsing)."""
    ident = identifier.HeatIdentifier(row.tenant, row.name, row.id)
    return {
        rpc_api.STACK_ID: dict(ident),
        rpc_api.STACK_NAME: row.name,
        rpc_api.STACK_CREATION_TIME: heat_timestamp(row.created_at),
        rpc_api.STACK_UPDATED_TIME: heat_timestamp(row.updated_at),
        rpc_api.STACK_DELETION_TIME: heat_timestamp(row.deleted_at),
        rpc_api.STACK_DESCRIPTION: "",
        rpc_api.STACK_ACTION: row.action,
        rpc_api.STACK_STATUS: row.status,
        rpc_api.STACK_STATUS_DATA: row.status_reason,
        rpc_api.STACK_OWNER: row.username,
        rpc_api.STACK_PARENT: row.owner_id,
        rpc_api.STACK_USER_PROJECT_ID: row.stack_user_project_id,
        rpc_api.STACK_TAGS: tags or None,
        "project": row.tenant,
    }


def format_stack(stack, outputs=None):
    """The full stack dict of show_stack; ``outputs`` as made by format_stack_outputs."""
    description = stack.t.description or "No description"
    info = {
        rpc_api.STACK_ID: dict(stack.identifier()),
        rpc_api.STACK_NAME: stack.name,
        rpc_api.STACK_CREATION_TIME: heat_timestamp(stack.created_time),
        rpc_api.STACK_UPDATED_TIME: heat_timestamp(stack.updated_time),
        rpc_api.STACK_DELETION_TIME: heat_timestamp(stack.deleted_time),
        rpc_api.STACK_NOTIFICATION_TOPICS: [],
        rpc_api.STACK_PARAMETERS: stack.parameters.map(str),
        rpc_api.STACK_DESCRIPTION: description,
        rpc_api.STACK_TMPL_DESCRIPTION: description,
        rpc_api.STACK_ACTION: stack.action,
        rpc_api.STACK_STATUS: stack.status,
        rpc_api.STACK_STATUS_DATA: stack.status_reason,
        rpc_api.STACK_CAPABILITIES: [],
        rpc_api.STACK_DISABLE_ROLLBACK: stack.disable_rollback,
        rpc_api.STACK_TIMEOUT: stack.timeout_mins,
        rpc_api.STACK_OWNER: stack.username,
        rpc_api.STACK_PARENT: stack.owner_id,
        rpc_api.STACK_USER_PROJECT_ID: stack.stack_user_project_id,
        rpc_api.STACK_TAGS: stack.tags or None,
    }
    if outputs is not None:
        info[rpc_api.STACK_OUTPUTS] = outputs
    return info


def format_stack_output(output):
    """One output: key, description, value (or value None and ``output_error``)."""
    result = {"output_key": output.name, "description": output.description()}
    try:
        result["output_value"] = output.get_value()
    except Exception as exc:
        result["output_value"] = None
        result["output_error"] = str(exc)
    return result


def format_stack_resource(row, stack, resource_type, required_by, attributes=None):
    ident = stack.identifier()
    rsrc_ident = identifier.ResourceIdentifier(resource_name=row.name, **ident)
    info = {
        "resource_identity": dict(rsrc_ident),
        "stack_identity": dict(ident),
        "stack_name": stack.name,
        "resource_name": row.name,
        "description": "",
        "physical_resource_id": row.nova_instance or "",
        "resource_action": row.action,
        "resource_status": row.status,
        "resource_status_reason": row.status_reason or "",
        "resource_type": resource_type,
        "creation_time": heat_timestamp(row.created_at),
        "updated_time": heat_timestamp(row.updated_at or row.created_at),
        "required_by": required_by,
    }
    if attributes is not None:
        info["attributes"] = attributes
    return info


def format_event(row, stack):
    ident = stack.identifier()
    rsrc_ident = identifier.ResourceIdentifier(resource_name=row.resource_name, **ident)
    event_ident = identifier.EventIdentifier(event_id=row.uuid, **rsrc_ident)
    return {
        "event_identity": dict(event_ident),
        "stack_identity": dict(ident),
        "stack_name": stack.name,
        "event_time": heat_timestamp(row.created_at),
        "resource_name": row.resource_name,
        "physical_resource_id": row.physical_resource_id,
        "resource_action": row.resource_action,
        "resource_status": row.resource_status,
        "resource_status_reason": row.resource_status_reason,
        "resource_type": row.resource_type,
        "resource_properties": {},
    }
