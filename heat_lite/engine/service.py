"""EngineService: the RPC endpoint of topic ``engine`` (version 1.36).

Each method checks what it must synchronously, stores state, and returns; long work
(a traversal) runs in the background and in the workers. Business errors are declared
as expected so they cross RPC to the API without traceback noise.

    service = EngineService(host='h', engine_id='e1')
    service.start()
"""

import logging
import re
import socket
import threading
import uuid

import oslo_messaging

from heat_lite.common import exception, identifier, messaging, template_format
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import (
    api,
    environment,
    service_actions,
    service_info,
    service_snapshots,
    service_software,
    templates,
)
from heat_lite.engine import stack as parser
from heat_lite.engine import template as tmpl_mod
from heat_lite.rpc import api as rpc_api

LOG = logging.getLogger(__name__)

expected = oslo_messaging.expected_exceptions(exception.HeatException)

STACK_NAME_RE = re.compile(r"^[a-zA-Z][a-zA-Z0-9_.-]{0,254}$")
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$")


class EngineService(
    service_info.InfoMethods,
    service_actions.ActionMethods,
    service_software.SoftwareMethods,
    service_snapshots.SnapshotMethods,
):
    """Stacks, resources and events here; read-only info methods in service_info, stack
    actions (suspend, resume, check, cancel) in service_actions, software configs and
    deployments in service_software, snapshots and restore in service_snapshots."""

    RPC_API_VERSION = rpc_api.ENGINE_RPC_VERSION
    target = oslo_messaging.Target(version=RPC_API_VERSION)

    def __init__(self, host, engine_id):
        self.host = host
        self.engine_id = engine_id
        self._rpc_server = None
        self._service_id = None
        self._stop = threading.Event()

    # -- lifecycle -------------------------------------------------------------------------

    def start(self):
        target = oslo_messaging.Target(
            topic=rpc_api.ENGINE_TOPIC, server=self.host, version=self.RPC_API_VERSION
        )
        self._rpc_server = messaging.get_rpc_server(target, [self])
        self._rpc_server.start()
        LOG.info("heat-lite-engine %s listening on topic %s", self.engine_id, rpc_api.ENGINE_TOPIC)
        self._service_id = db_api.service_create(
            {
                "engine_id": self.engine_id,
                "host": self.host,
                "hostname": socket.gethostname(),
                "binary": "heat-engine",
                "topic": rpc_api.ENGINE_TOPIC,
                "report_interval": CONF.periodic_interval,
            }
        )
        threading.Thread(target=self._heartbeat, daemon=True).start()

    def _heartbeat(self):
        while not self._stop.wait(CONF.periodic_interval):
            db_api.service_update(self._service_id)

    def stop(self):
        self._stop.set()
        if self._rpc_server is not None:
            self._rpc_server.stop()
            self._rpc_server.wait()
            self._rpc_server = None
        if self._service_id is not None:
            db_api.service_delete(self._service_id)
            self._service_id = None

    # -- lookups ---------------------------------------------------------------------------

    def _get_stack_row(self, cnxt, stack_identity, show_deleted=False):
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

    def _load_stack(self, cnxt, stack_identity, show_deleted=False):
        row = self._get_stack_row(cnxt, stack_identity, show_deleted)
        tags = db_api.stack_tags_get([row.id]).get(row.id)
        return parser.Stack.load(cnxt, row=row, tags=tags)

    @expected
    def identify_stack(self, cnxt, stack_name):
        row = None
        if UUID_RE.match(stack_name):
            row = db_api.stack_get(stack_name, show_deleted=True)
            if row is not None and not cnxt.is_admin and row.tenant != cnxt.project_id:
                row = None
        if row is None:
            row = db_api.stack_get_by_name(cnxt.project_id, stack_name)
        if row is None:
            raise exception.EntityNotFound(entity="Stack", name=stack_name)
        return dict(
            parser.Stack(cnxt, row.name, None, stack_id=row.id, tenant=row.tenant).identifier()
        )

    # -- stacks ----------------------------------------------------------------------------

    @expected
    def list_stacks(self, cnxt, limit=None, marker=None, sort_keys=None, sort_dir=None, **query):
        """The caller's stacks (every project's for an admin context, as Heat's
        ``_query_stack_get_all``); ``query`` is the selection of spec §4.1.1 (filters,
        show_deleted, show_nested, show_hidden, tags, tags_any, not_tags, not_tags_any)."""
        query = _translated(query)
        rows = db_api.stack_get_all(
            self._listing_tenant(cnxt),
            limit=limit,
            marker=marker,
            sort_keys=sort_keys,
            sort_dir=sort_dir,
            **query,
        )
        all_tags = db_api.stack_tags_get([r.id for r in rows])
        return [api.format_stack_db_object(r, all_tags.get(r.id)) for r in rows]

    @expected
    def count_stacks(self, cnxt, **query):
        """How many stacks list_stacks would give for the same ``query`` (no paging)."""
        return db_api.stack_count_all(self._listing_tenant(cnxt), **_translated(query))

    @staticmethod
    def _listing_tenant(cnxt):
        return None if cnxt.is_admin else cnxt.project_id

    @expected
    def show_stack(self, cnxt, stack_identity, resolve_outputs=True):
        stack = self._load_stack(cnxt, stack_identity, show_deleted=True)
        outputs = None
        if resolve_outputs and not (
            stack.action == rpc_api.DELETE and stack.status == rpc_api.COMPLETE
        ):
            outputs = self._format_outputs(stack)
        return [api.format_stack(stack, outputs)]

    def _format_outputs(self, stack):
        stack.node_data = self._node_data_of(stack)
        return [api.format_stack_output(o) for o in stack.t.outputs(stack).values()]

    @staticmethod
    def _node_data_of(stack):
        data = {}
        for row in db_api.resource_get_all_by_stack(stack.id):
            if row.attr_data_id is not None and row.replaced_by is None:
                data[row.name] = db_api.resource_attr_data_get(row.attr_data_id)
        return data

    @expected
    def create_stack(
        self,
        cnxt,
        stack_name,
        template,
        params,
        files,
        args,
        environment_files=None,
        files_container=None,
        owner_id=None,
        nested_depth=0,
        user_creds_id=None,
        stack_user_project_id=None,
        parent_resource_name=None,
        template_id=None,
    ):
        """Validate and store a new stack, then start its CREATE traversal.

        :returns: the stack identity
        :raises: StackExists, RequestLimitExceeded, StackValidationFailed and the
                 template errors (all 400/409 at the API); NotSupported for an adopt
                 unless CONF.enable_stack_adopt
        """
        adopt_data = (args or {}).get(rpc_api.PARAM_ADOPT_STACK_DATA)
        if adopt_data and not CONF.enable_stack_adopt:
            raise exception.NotSupported(feature="Stack Adopt")
        if isinstance(adopt_data, str):
            adopt_data = template_format.simple_parse(adopt_data)
        if adopt_data:
            # the abandoned stack's parameters, overridden by the request's
            new_params = dict((adopt_data.get("environment") or {}).get("parameters") or {})
            new_params.update((params or {}).get("parameters") or {})
            params = dict(params or {}, parameters=new_params)
        stack = self._parse_template_and_validate_stack(
            cnxt,
            stack_name,
            template,
            params,
            files,
            args,
            environment_files,
            owner_id,
            nested_depth,
            stack_user_project_id,
            parent_resource_name,
        )
        stack.user_creds_id = user_creds_id or db_api.user_creds_create(cnxt)
        templates.store(stack.t)
        stack.store()
        if adopt_data:
            stack.converge_stack(stack.t, action=rpc_api.ADOPT, adopt_stack_data=adopt_data)
        else:
            stack.converge_stack(stack.t, action=rpc_api.CREATE)
        return dict(stack.identifier())

    def _parse_template_and_validate_stack(
        self,
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
        self._check_stack_limit(cnxt, owner_id)
        env = environment.merge(params, files or {}, environment_files)
        tmpl = tmpl_mod.Template(template, files=files or {}, env=env)
        environment.register_template_types(env, tmpl)
        self._check_resource_limit(tmpl)
        stack = parser.Stack(
            cnxt,
            stack_name,
            tmpl,
            action=rpc_api.CREATE,
            status=rpc_api.IN_PROGRESS,
            timeout_mins=args.get(rpc_api.PARAM_TIMEOUT) or None,
            disable_rollback=_bool(args.get(rpc_api.PARAM_DISABLE_ROLLBACK, True)),
            owner_id=owner_id,
            nested_depth=nested_depth,
            tags=_tags(args.get("tags")),
            parent_resource_name=parent_resource_name,
            stack_user_project_id=stack_user_project_id,
            current_traversal=str(uuid.uuid4()),
            # the id exists before the row does, so OS::stack_id/OS::stack_name resolve
            stack_id=str(uuid.uuid4()),
        )
        stack.validate()
        return stack

    @staticmethod
    def _check_stack_limit(cnxt, owner_id):
        limit = CONF.max_stacks_per_tenant
        if owner_id is not None or cnxt.is_admin or limit < 0:
            return
        if db_api.stack_count_all(cnxt.project_id) >= limit:
            raise exception.RequestLimitExceeded(
                message=(
                    "You have reached the maximum stacks per tenant, %d. Please delete some "
                    "stacks." % limit
                )
            )

    @staticmethod
    def _check_resource_limit(tmpl):
        limit = CONF.max_resources_per_stack
        if limit != -1 and len(tmpl.resource_names()) > limit:
            raise exception.RequestLimitExceeded(message="Maximum resources per stack exceeded.")

    @expected
    def update_stack(
        self,
        cnxt,
        stack_identity,
        template,
        params,
        files,
        args,
        environment_files=None,
        files_container=None,
        template_id=None,
    ):
        """Validate the new definition and start an UPDATE traversal (spec §4.2).

        A running traversal is superseded. With ``args['existing']`` (PATCH) the stack's
        template, files and environment are the base that the request amends.

        :raises: NotSupported while the stack is suspended or deleted, and the template
                 and validation errors of create_stack
        """
        args = args or {}
        stack = self._load_stack(cnxt, stack_identity)
        tmpl, _updated = self._updated_stack(
            cnxt, stack, template, params, files, args, environment_files
        )
        stack.update_settings(
            timeout_mins=args.get(rpc_api.PARAM_TIMEOUT) or stack.timeout_mins,
            disable_rollback=_bool(
                args.get(rpc_api.PARAM_DISABLE_ROLLBACK, stack.disable_rollback)
            ),
            # as Heat: PATCH keeps the tags, PUT without tags drops them
            tags=_tags(args["tags"])
            if "tags" in args
            else (stack.tags if args.get(rpc_api.PARAM_EXISTING) else None),
        )
        templates.store(tmpl)
        stack.converge_stack(
            tmpl, action=rpc_api.UPDATE, converge=_bool(args.get(rpc_api.PARAM_CONVERGE, False))
        )
        return dict(stack.identifier())

    def _updated_stack(self, cnxt, stack, template, params, files, args, environment_files):
        """(template, validated Stack) an update of ``stack`` would converge to; PATCH
        (``args['existing']``) amends the stack's template, files and environment.

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
        self._check_resource_limit(tmpl)
        updated = parser.Stack(
            cnxt, stack.name, tmpl, stack_id=stack.id, tenant=stack.tenant, username=stack.username
        )
        updated.validate()
        return tmpl, updated

    @expected
    def delete_stack(self, cnxt, stack_identity):
        """Start the DELETE traversal: converge to an empty template."""
        stack = self._load_stack(cnxt, stack_identity)
        if stack.action == rpc_api.DELETE and stack.status == rpc_api.COMPLETE:
            raise exception.EntityNotFound(entity="Stack", name=stack.name)
        with service_actions.cancelling_running(stack):
            stack.converge_stack(templates.empty_like(stack.t), action=rpc_api.DELETE)

    # -- resources and events --------------------------------------------------------------

    @expected
    def list_stack_resources(
        self, cnxt, stack_identity, nested_depth=0, with_detail=False, filters=None
    ):
        stack = self._load_stack(cnxt, stack_identity, show_deleted=True)
        # as Heat: status=CREATE_COMPLETE filters on action CREATE and status COMPLETE
        filters = api.translate_filters(filters)
        return self._stack_resources(cnxt, stack, nested_depth, with_detail, filters)

    def _stack_resources(self, cnxt, stack, nested_depth, with_detail, filters):
        """The stack's resources, then (``nested_depth`` > 0) those of its child stacks,
        each marked with the ``parent_resource`` that owns its stack."""
        rows = _current_rows(db_api.resource_get_all_by_stack(stack.id))
        children = _child_stacks(stack)
        names = {r.id: r.name for r in rows}
        result = []
        for row in rows:
            child = children.get(row.nova_instance)
            info = self._format_resource(cnxt, stack, row, names, rows, with_detail, child=child)
            if _matches(info, filters):
                result.append(info)
        for row in rows if nested_depth and nested_depth > 0 else ():
            child = children.get(row.nova_instance)
            if child is None:
                continue
            child_stack = parser.Stack.load(cnxt, row=child)
            result.extend(
                self._stack_resources(cnxt, child_stack, nested_depth - 1, with_detail, filters)
            )
        return result

    @expected
    def describe_stack_resource(self, cnxt, stack_identity, resource_name, with_attr=None):
        stack = self._load_stack(cnxt, stack_identity, show_deleted=True)
        rows = _current_rows(db_api.resource_get_all_by_stack(stack.id))
        for row in rows:
            if row.name == resource_name:
                return self._resource_detail(cnxt, stack, rows, row, with_attr)
        raise exception.ResourceNotFound(resource_name=resource_name, stack_name=stack.name)

    def _resource_detail(self, cnxt, stack, rows, row, with_attr=None):
        """One resource of ``rows`` in detail (description, attributes, metadata)."""
        names = {r.id: r.name for r in rows}
        child = _child_stacks(stack).get(row.nova_instance)
        return self._format_resource(cnxt, stack, row, names, rows, True, with_attr, child=child)

    def _format_resource(self, cnxt, stack, row, names, rows, detail, with_attr=None, child=None):
        """Heat's format_stack_resource; ``child`` is the row of the stack it owns, if any."""
        tmpl = templates.load(row.current_template_id) if row.current_template_id else stack.t
        rsrc_type = tmpl.resource_type(row.name)
        required_by = sorted(names[r.id] for r in rows if row.id in (r.requires or []))
        info = api.format_stack_resource(row, stack, rsrc_type, required_by, child)
        if detail:
            info.update(self._details(cnxt, stack, row, tmpl, with_attr))
        return info

    @staticmethod
    def _details(cnxt, stack, row, tmpl, with_attr):
        """``description``, ``metadata`` and ``attributes`` (all of the type's, plus
        ``with_attr``); the API shows metadata only through its own endpoint."""
        from heat_lite.engine import resource as rsrc_mod

        rsrc_stack = stack
        if tmpl is not stack.t:
            rsrc_stack = parser.Stack.load(cnxt, row=db_api.stack_get(stack.id, True))
            rsrc_stack.t = tmpl
        defn = rsrc_stack.definitions.get(row.name)
        metadata = row.rsrc_metadata or {}
        if defn is None:
            return {"description": "", "metadata": metadata, "attributes": {}}
        details = {"description": defn.description, "metadata": metadata, "attributes": {}}
        try:
            rsrc = rsrc_mod.Resource.load(row, rsrc_stack, defn)
        except exception.HeatException:
            return details
        for name in _attribute_names(rsrc) + list(with_attr or []):
            try:
                details["attributes"][name] = rsrc.get_attribute(name)
            except Exception:
                details["attributes"][name] = None
        return details

    @expected
    def list_events(
        self,
        cnxt,
        stack_identity,
        filters=None,
        limit=None,
        marker=None,
        sort_keys=None,
        sort_dir=None,
        nested_depth=None,
    ):
        """The stack's events; with ``nested_depth`` also those of its nested stacks down
        to that depth, each with a ``root_stack`` (the clients then skip their own walk)."""
        stack = self._load_stack(cnxt, stack_identity, show_deleted=True)
        idents = {stack.id: stack.identifier()}
        root = None
        if nested_depth:
            root = idents[stack.id]
            idents.update(_descendants(stack.id, min(nested_depth, CONF.max_nested_stack_depth)))
        rows = db_api.event_get_all_by_stacks(
            list(idents),
            filters=filters,
            limit=limit,
            marker=marker,
            sort_keys=sort_keys,
            sort_dir=sort_dir,
        )
        # one event asked for by its uuid (event show) comes with its resource's
        # properties at the time, as Heat's list_events does
        with_props = bool(filters and "uuid" in filters)
        return [
            api.format_event(
                r,
                idents[r.stack_id],
                root,
                db_api.resource_properties_data_get(r.rsrc_prop_data_id)
                if with_props and r.rsrc_prop_data_id is not None
                else None,
            )
            for r in rows
        ]


def _attribute_names(rsrc):
    """The attributes resource show lists: the type's schema; for a provider template
    resource (Heat's TemplateResource) the outputs of its template."""
    names = list(type(rsrc).attributes_schema)
    if getattr(rsrc, "template_name", None):
        try:
            child = rsrc.child_template()
        except (exception.HeatException, ValueError):
            return names
        names += [n for n in (child.get("outputs") or child.get("Outputs") or {}) if n not in names]
    return names


def _descendants(stack_id, depth):
    """{id: HeatIdentifier} of the nested stacks under ``stack_id``, ``depth`` levels down."""
    found, level = {}, [stack_id]
    for _ in range(depth):
        if not level:
            break
        rows = db_api.stack_get_all(
            None, show_nested=True, show_deleted=True, filters={"owner_id": level}
        )
        found.update((r.id, identifier.HeatIdentifier(r.tenant, r.name, r.id)) for r in rows)
        level = [r.id for r in rows]
    return found


def _child_stacks(stack):
    """{id: row} of the stacks whose owner is ``stack`` (its nested stacks)."""
    rows = db_api.stack_get_all(None, show_nested=True, filters={"owner_id": stack.id})
    return {row.id: row for row in rows}


def _translated(query):
    """The stack selection with its filters in column names (api.translate_filters)."""
    if query.get("filters"):
        query = dict(query, filters=api.translate_filters(query["filters"]))
    return query


def _current_rows(rows):
    """One row per resource name: the live one, not a replaced or deleted leftover."""
    by_name = {}
    for row in rows:
        best = by_name.get(row.name)
        if (
            best is None
            or (row.replaced_by is None and best.replaced_by is not None)
            or row.id > best.id
            and row.replaced_by is None
        ):
            by_name[row.name] = row
    return sorted(by_name.values(), key=lambda r: r.id)


def _matches(info, filters):
    for key, value in (filters or {}).items():
        values = value if isinstance(value, list) else [value]
        field = {
            "name": "resource_name",
            "status": "resource_status",
            "action": "resource_action",
            "type": "resource_type",
            "id": "resource_identity",
            "physical_resource_id": "physical_resource_id",
        }.get(key, key)
        actual = info.get(field)
        if key == "type":
            if not any(v in (actual or "") for v in values):
                return False
        elif key != "id" and actual not in values:
            return False
    return True


def _bool(value):
    if isinstance(value, str):
        return value.lower() in ("true", "1", "yes", "on")
    return bool(value)


def _tags(value):
    if not value:
        return None
    if isinstance(value, str):
        return [t.strip() for t in value.split(",") if t.strip()]
    return list(value)
