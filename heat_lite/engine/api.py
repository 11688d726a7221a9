"""format_*: the dicts the engine returns over RPC (Heat's heat/engine/api.py shapes).

The API's views turn these into the REST bodies of docs/heat-api.md §5.

    format_stack(stack, outputs=[...])  -> {'stack_identity': {...}, 'stack_name': ..., ...}
"""

import datetime

from heat_lite.common import identifier
from heat_lite.engine import constraints
from heat_lite.rpc import api as rpc_api


def heat_timestamp(value):
    """``2026-11-27T00:12:03Z`` (Heat's ``strftime('%Y-%m-%dT%H:%M:%SZ')``, the fields as
    they are; isoformat makes the same string in a third of the time)."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.replace(tzinfo=None)
    return value.isoformat(timespec="seconds") + "Z"


# list_stacks filters named after stack keys -> the stack table's columns
_FILTER_COLUMNS = {
    rpc_api.STACK_NAME: "name",
    rpc_api.STACK_ACTION: "action",
    rpc_api.STACK_STATUS: "status",
    rpc_api.STACK_STATUS_DATA: "status_reason",
    rpc_api.STACK_DISABLE_ROLLBACK: "disable_rollback",
    rpc_api.STACK_TIMEOUT: "timeout",
    rpc_api.STACK_OWNER: "username",
    rpc_api.STACK_PARENT: "owner_id",
    rpc_api.STACK_USER_PROJECT_ID: "stack_user_project_id",
}
_STATUSES = (rpc_api.COMPLETE, rpc_api.FAILED, rpc_api.IN_PROGRESS)


def _as_list(value):
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _single_or_list(values):
    values = sorted(set(values))
    return values[0] if len(values) == 1 else values


def translate_filters(filters):
    """Heat's ``translate_filters``: stack-key filter names become column names (values
    of both spellings are joined), and a status such as ``CREATE_FAILED`` is split into
    ``status=FAILED`` plus ``action=CREATE``.

        translate_filters({'stack_status': 'CREATE_FAILED'})
        -> {'status': 'FAILED', 'action': 'CREATE'}
    """
    if not filters:
        return filters
    params = dict(filters)
    for key, column in _FILTER_COLUMNS.items():
        value = params.pop(key, None)
        if not value:
            continue
        if params.get(column):
            value = _as_list(value) + _as_list(params[column])
        params[column] = value
    if "status" in params:
        statuses, actions = [], []
        for value in _as_list(params["status"]):
            for status in _STATUSES:
                index = value.rfind(status)
                if index != -1:
                    statuses.append(value[index:])
                    if index > 1:
                        actions.append(value[: index - 1])
                    break
        params["status"] = _single_or_list(statuses) if statuses else params["status"]
        if actions:
            actions += _as_list(params.get("action") or [])
            params["action"] = _single_or_list(actions)
    return params


def format_stack_db_object(row, tags=None):
    """A list item, straight from the stack row (no template parsing); keys in Heat's order."""
    ident = identifier.HeatIdentifier(row.tenant, row.name, row.id)
    return {
        rpc_api.STACK_ID: dict(ident),
        rpc_api.STACK_NAME: row.name,
        rpc_api.STACK_DESCRIPTION: "",
        rpc_api.STACK_ACTION: row.action,
        rpc_api.STACK_STATUS: row.status,
        rpc_api.STACK_STATUS_DATA: row.status_reason,
        rpc_api.STACK_CREATION_TIME: heat_timestamp(row.created_at),
        rpc_api.STACK_UPDATED_TIME: heat_timestamp(row.updated_at),
        rpc_api.STACK_DELETION_TIME: heat_timestamp(row.deleted_at),
        rpc_api.STACK_OWNER: row.username,
        rpc_api.STACK_PARENT: row.owner_id,
        rpc_api.STACK_USER_PROJECT_ID: row.stack_user_project_id,
        rpc_api.STACK_TAGS: tags or None,
        "project": row.tenant,
    }


def format_stack(stack, outputs=None):
    """The full stack dict of show_stack; ``outputs`` as made by format_stack_outputs."""
    description = stack.t.description or "No description"
    # keys in Heat's order: settings, then the state, then the outputs
    info = {
        rpc_api.STACK_NAME: stack.name,
        rpc_api.STACK_ID: dict(stack.identifier()),
        rpc_api.STACK_CREATION_TIME: heat_timestamp(stack.created_time),
        rpc_api.STACK_UPDATED_TIME: heat_timestamp(stack.updated_time),
        rpc_api.STACK_DELETION_TIME: heat_timestamp(stack.deleted_time),
        rpc_api.STACK_NOTIFICATION_TOPICS: [],
        rpc_api.STACK_PARAMETERS: stack.parameters.map(str),
        rpc_api.STACK_DESCRIPTION: description,
        rpc_api.STACK_TMPL_DESCRIPTION: description,
        rpc_api.STACK_CAPABILITIES: [],
        rpc_api.STACK_DISABLE_ROLLBACK: stack.disable_rollback,
        rpc_api.STACK_TIMEOUT: stack.timeout_mins,
        rpc_api.STACK_OWNER: stack.username,
        rpc_api.STACK_PARENT: stack.owner_id,
        rpc_api.STACK_USER_PROJECT_ID: stack.stack_user_project_id,
        rpc_api.STACK_TAGS: stack.tags or [],
        rpc_api.STACK_ACTION: stack.action,
        rpc_api.STACK_STATUS: stack.status,
        rpc_api.STACK_STATUS_DATA: stack.status_reason,
    }
    if outputs is not None:
        info[rpc_api.STACK_OUTPUTS] = outputs
    return info


def format_stack_output(output):
    """One output: key, description, value (or value None and ``output_error``)."""
    result = {"output_key": output.name, "description": output.description()}
    value = None
    try:
        value = output.get_value()
    except Exception as exc:
        result["output_error"] = str(exc)
    result["output_value"] = value  # after output_error, as Heat's
    return result


def format_stack_resource(row, stack, resource_type, required_by, child=None, stack_ident=None):
    """A resource, keys in Heat's order; ``child`` is the row of the nested stack it owns;
    ``stack_ident``: ``stack.identifier().identity``, when the caller formats many rows.

    The detail keys (``description``, ``attributes``, ``metadata``) are added by the
    caller when it shows one resource or lists ``with_detail``."""
    ident = stack_ident or stack.identifier().identity  # plain dicts: quick to copy
    info = {
        "updated_time": heat_timestamp(row.updated_at or row.created_at),
        "creation_time": heat_timestamp(row.created_at),
        "resource_name": row.name,
        "physical_resource_id": row.nova_instance or "",
        "resource_action": row.action,
        "resource_status": row.status,
        "resource_status_reason": row.status_reason or "",
        "resource_type": resource_type,
        "resource_identity": _resource_identity(ident, row.name),
        "stack_identity": dict(ident),
        "stack_name": stack.name,
        "required_by": required_by,
    }
    if child is not None:
        info["nested_stack_identity"] = dict(
            identifier.HeatIdentifier(child.tenant, child.name, child.id)
        )
    if stack.owner_id is not None and stack.parent_resource_name:
        info["parent_resource"] = stack.parent_resource_name
    return info


def _resource_identity(stack_ident, name):
    """dict(ResourceIdentifier(resource_name=name, **stack_ident)); a stack's own identity
    (no path) is copied with the path set, without building the identifier."""
    if not stack_ident[identifier.HeatIdentifier.PATH]:
        return dict(stack_ident, path="/resources/" + name)
    return dict(identifier.ResourceIdentifier(resource_name=name, **stack_ident))


def format_event(row, ident, root_ident=None, resource_properties=None):
    """An event row of the stack ``ident`` (a HeatIdentifier); ``root_ident``, the stack
    listed with ``nested_depth``, becomes the event's ``root_stack`` link;
    ``resource_properties``: the properties the event's resource had then (event show)."""
    rsrc_ident = identifier.ResourceIdentifier(resource_name=row.resource_name, **ident)
    event_ident = identifier.EventIdentifier(event_id=row.uuid, **rsrc_ident)
    info = {
        "event_identity": dict(event_ident),
        "stack_identity": dict(ident),
        "stack_name": ident.stack_name,
        "event_time": heat_timestamp(row.created_at),
        "resource_name": row.resource_name,
        "physical_resource_id": row.physical_resource_id,
        "resource_action": row.resource_action,
        "resource_status": row.resource_status,
        "resource_status_reason": row.resource_status_reason,
        "resource_type": row.resource_type,
        "resource_properties": resource_properties or {},
    }
    if root_ident is not None:
        info["root_stack_id"] = dict(root_ident)
    return info


# -- validate_template: one parameter in the CFN-style names of Heat's validate result ----

_VALIDATE_PARAM_TYPES = {
    "string": "String",
    "number": "Number",
    "comma_delimited_list": "CommaDelimitedList",
    "json": "Json",
    "boolean": "Boolean",
}


def _validate_param_constraints(schema):
    """The constraint keys (MinLength, AllowedValues, ...) and ConstraintDescription."""
    result, descriptions = {}, []
    for c in schema.constraints:
        if isinstance(c, constraints.Length):
            pairs = (("MinLength", c.min), ("MaxLength", c.max))
        elif isinstance(c, constraints.Range):
            pairs = (("MinValue", c.min), ("MaxValue", c.max))
        elif isinstance(c, constraints.Modulo):
            pairs = (("Step", c.step), ("Offset", c.offset))
        elif isinstance(c, constraints.AllowedValues):
            pairs = (("AllowedValues", list(c.allowed)),)
        elif isinstance(c, constraints.AllowedPattern):
            pairs = (("AllowedPattern", c.pattern),)
        elif isinstance(c, constraints.CustomConstraint):
            pairs = (("CustomConstraint", c.name),)
        else:
            pairs = ()
        result.update((k, v) for k, v in pairs if v is not None)
        if c.description:
            descriptions.append(c.description)
    if descriptions:
        result["ConstraintDescription"] = " ".join(descriptions)
    return result


def format_validate_parameter(param):
    """A parameters.Parameter -> ``{"Type": "String", "Description", "NoEcho", "Label", ...}``.

    ``Value`` is the user's value, shown only when truthy (hidden ones too), as Heat does.
    """
    schema = param.schema
    result = {
        "Type": _VALIDATE_PARAM_TYPES.get(schema.type, schema.type),
        "Description": param.description(),
        "NoEcho": "true" if param.hidden() else "false",
        "Label": param.label(),
    }
    if param.has_default():
        result["Default"] = param.default()
    if param.user_value:
        result["Value"] = param.user_value
    if param.tags():
        result["Tags"] = param.tags()
    result.update(_validate_param_constraints(schema))
    return result


# -- services -----------------------------------------------------------------------------


def _service_time(value):
    """Naive ISO with microseconds (``2026-11-25T22:13:17.250994``), as Heat's services show."""
    return value.strftime("%Y-%m-%dT%H:%M:%S.%f") if value is not None else None


def format_service(row, now):
    """A ``service`` row; ``up`` if it reported within two report intervals of ``now``."""
    last_updated = row.updated_at or row.created_at
    up = (now - last_updated).total_seconds() <= 2 * row.report_interval
    return {
        "id": row.id,
        "binary": row.binary,
        "engine_id": row.engine_id,
        "host": row.host,
        "hostname": row.hostname,
        "topic": row.topic,
        "report_interval": row.report_interval,
        "created_at": _service_time(row.created_at),
        "updated_at": _service_time(row.updated_at),
        "deleted_at": _service_time(row.deleted_at),
        "status": "up" if up else "down",
    }


# -- preview_stack -------------------------------------------------------------------------


def format_resource_preview(stack, defn, attribute_names, properties, required_by):
    """A resource a create would make: INIT_COMPLETE, no physical id, no times
    (docs/heat-api.md §5.6)."""
    ident = stack.identifier()
    rsrc_ident = identifier.ResourceIdentifier(resource_name=defn.name, **ident)
    info = {
        "updated_time": None,
        "creation_time": None,
        "resource_name": defn.name,
        "physical_resource_id": "",
        "resource_action": rpc_api.INIT,
        "resource_status": rpc_api.COMPLETE,
        "resource_status_reason": "",
        "resource_type": defn.resource_type,
        "resource_identity": dict(rsrc_ident),
        "stack_identity": dict(ident),
        "stack_name": stack.name,
        "required_by": required_by,
        "description": defn.description,
        "metadata": defn.metadata(),
        "attributes": dict.fromkeys(attribute_names),
        "properties": properties,
    }
    if stack.parent_resource_name:  # in a nested stack's preview
        info["parent_resource"] = stack.parent_resource_name
    return info


def format_stack_preview(stack, parameters, resources):
    """The stack of a preview: no state keys, id ``None``, outputs without values yet."""
    outputs = [format_stack_output(o) for o in stack.t.outputs(stack).values()]
    info = format_stack(stack, outputs)
    for key in (rpc_api.STACK_ACTION, rpc_api.STACK_STATUS, rpc_api.STACK_STATUS_DATA):
        del info[key]
    info[rpc_api.STACK_CREATION_TIME] = heat_timestamp(datetime.datetime.now(datetime.UTC))
    info[rpc_api.STACK_PARAMETERS] = parameters
    # assigned when a stack is stored; a preview has none yet
    info[rpc_api.STACK_USER_PROJECT_ID] = None
    info["resources"] = resources
    return info


def format_software_config(row, detail=True, include_project=False):
    """A software_config row -> Heat's SC dict
    (docs/heat-api.md §4.6); list items omit the config."""
    result = {
        "id": row.id,
        "name": row.name,
        "group": row.group,
        "creation_time": heat_timestamp(row.created_at),
    }
    if detail:
        config = row.config or {}
        for key in ("config", "inputs", "outputs", "options"):
            result[key] = config.get(key)
    if include_project:
        result["project"] = row.tenant
    return result


def format_software_deployment(row):
    """A software_deployment row -> Heat's SD dict; ``updated_time`` once it was updated."""
    result = {
        "id": row.id,
        "server_id": row.server_id,
        "input_values": row.input_values,
        "output_values": row.output_values,
        "action": row.action,
        "status": row.status,
        "status_reason": row.status_reason,
        "config_id": row.config_id,
        "creation_time": heat_timestamp(row.created_at),
    }
    if row.updated_at is not None:
        result["updated_time"] = heat_timestamp(row.updated_at)
    return result
