"""What the engine's RPC endpoints share: finding a stack by its identity, and building
(validated, unstored) the stack a create or an update asks for.

    stack = stack_loader.load_stack(ctx, {"stack_name": "s1", "stack_id": "..."})
    new = stack_loader.new_stack(ctx, "s2", template, params, files, args)
    tmpl, updated = stack_loader.updated_stack(ctx, stack, template, params, files, args)

The endpoints (heat_lite.engine.service and service_*.py) call these functions; none of
them holds state.
"""

import re
import uuid

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import environment
from heat_lite.engine import stack as parser
from heat_lite.engine import template as tmpl_mod
from heat_lite.rpc import api as rpc_api

STACK_NAME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9_.-]{0,254}$")


# -- lookups -------------------------------------------------------------------------------


def stack_row(cnxt, stack_identity, show_deleted=False):
    """The stack row of ``stack_identity`` the caller may see; EntityNotFound otherwise
    (another project's, a path, a name that does not match the id)."""
    stack_id = stack_identity.get("stack_id")
    row = db_api.stack_get(stack_id, show_deleted=show_deleted) if stack_id else None
    name = stack_identity.get("stack_name")
    if row is None:
        raise exception.EntityNotFound(entity="Stack", name=name)
    if not cnxt.is_admin and cnxt.project_id not in (row.tenant, row.stack_user_project_id):
        raise exception.EntityNotFound(entity="Stack", name=name)
    if stack_identity.get("path") or row.name != name:
        raise exception.EntityNotFound(entity="Stack", name=name)
    return row


def load_stack(cnxt, stack_identity, show_deleted=False):
    """The Stack of ``stack_identity`` (with its tags), as stack_row finds it."""
    row = stack_row(cnxt, stack_identity, show_deleted)
    tags = db_api.stack_tags_get([row.id]).get(row.id)
    return parser.Stack.load(cnxt, row=row, tags=tags)


# -- the stack a request asks for ----------------------------------------------------------


def new_stack(
    cnxt,
    stack_name,
    template,
    params,
    files,
    args,
    environment_files=None,
    owner_id=None,
    nested_depth=0,
    stack_user_project_id=None,
    parent_resource_name=None,
):
    """The new stack (not stored yet) of create_stack and preview_stack, validated."""
    args = args or {}
    if owner_id is None and not STACK_NAME_RE.match(stack_name or ""):
        raise exception.StackValidationFailed(
            message=(
                'Invalid stack name %s must contain only alphanumeric or "_-." characters, '
                "must start with alpha and must be 255 characters or less." % stack_name
            )
        )
    if db_api.stack_get_by_name(cnxt.project_id, stack_name) is not None:
        raise exception.StackExists(stack_name=stack_name)
    check_stack_limit(cnxt, owner_id)
    env = environment.merge(params, files or {}, environment_files)
    tmpl = tmpl_mod.Template(template, files=files or {}, env=env)
    environment.register_template_types(env, tmpl)
    check_resource_limit(tmpl)
    stack = parser.Stack(
        cnxt,
        stack_name,
        tmpl,
        action=rpc_api.CREATE,
        status=rpc_api.IN_PROGRESS,
        timeout_mins=args.get(rpc_api.PARAM_TIMEOUT) or None,
        disable_rollback=as_bool(args.get(rpc_api.PARAM_DISABLE_ROLLBACK, True)),
        owner_id=owner_id,
        nested_depth=nested_depth,
        tags=as_tags(args.get("tags")),
        parent_resource_name=parent_resource_name,
        stack_user_project_id=stack_user_project_id,
        current_traversal=str(uuid.uuid4()),
        # the id exists before the row does, so OS::stack_id/OS::stack_name resolve
        stack_id=str(uuid.uuid4()),
    )
    stack.validate()
    return stack


def updated_stack(cnxt, stack, template, params, files, args, environment_files=None):
    """(template, validated Stack) an update of ``stack`` would converge to, for
    update_stack and preview_update_stack; PATCH (``args['existing']``) amends the
    stack's template, files and environment.

    :raises: NotSupported while the stack is suspended or deleted
    """
    if stack.action in (rpc_api.SUSPEND, rpc_api.DELETE):
        state = "suspended" if stack.action == rpc_api.SUSPEND else "deleted"
        raise exception.NotSupported(feature="Updating a stack when it is %s" % state)
    files = files or {}
    if args.get(rpc_api.PARAM_EXISTING):
        template = template or stack.t.t
        files = dict(stack.t.files or {}, **files)
        env = environment.merge(
            params,
            files,
            environment_files,
            base=stack.env,
            clear_parameters=args.get("clear_parameters"),
        )
    else:
        env = environment.merge(params, files, environment_files)
    tmpl = tmpl_mod.Template(template, files=files, env=env)
    if args.get(rpc_api.PARAM_EXISTING):
        # as Heat: the parameters the resulting template does not declare are dropped
        declared = tmpl.param_schemata()
        for name in [n for n in env[environment.PARAMETERS] if n not in declared]:
            del env[environment.PARAMETERS][name]
    environment.register_template_types(env, tmpl)
    check_resource_limit(tmpl)
    updated = parser.Stack(
        cnxt, stack.name, tmpl, stack_id=stack.id, tenant=stack.tenant, username=stack.username
    )
    updated.validate()
    return tmpl, updated


# -- limits --------------------------------------------------------------------------------


def stack_limit(cnxt, owner_id):
    """max_stacks_per_tenant if it applies to this create (not nested, not admin)."""
    limit = CONF.max_stacks_per_tenant
    if owner_id is not None or cnxt.is_admin or limit < 0:
        return None
    return limit


def check_stack_limit(cnxt, owner_id):
    """Fail early; the insert counts again under a lock (db_api.stack_create)."""
    limit = stack_limit(cnxt, owner_id)
    if limit is not None and db_api.stack_count_all(cnxt.project_id) >= limit:
        raise exception.stack_limit_exceeded(limit)


def check_resource_limit(tmpl):
    limit = CONF.max_resources_per_stack
    if limit != -1 and len(tmpl.resource_names()) > limit:
        raise exception.resource_limit_exceeded()


# -- request arguments ---------------------------------------------------------------------


def as_bool(value):
    if isinstance(value, str):
        return value.lower() in ("true", "1", "yes", "on")
    return bool(value)


def as_tags(value):
    if not value:
        return None
    if isinstance(value, str):
        return [t.strip() for t in value.split(",") if t.strip()]
    return list(value)
