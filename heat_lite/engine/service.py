"""The engine: the RPC server of topic ``engine`` (version 1.36) and its stack endpoint.

The server's endpoints are plain classes, one per family of calls, listed by
``endpoints()`` (heat-lite-engine passes them explicitly): StackMethods here (list, show,
create, update, delete), InfoMethods (service_info), ResourceMethods (service_resources),
ActionMethods (service_actions), SoftwareMethods (service_software) and SnapshotMethods
(service_snapshots). They share stack_loader (a stack by its identity, the stack a
request asks for), not each other.

Each method checks what it must synchronously, stores state, and returns; long work
(a traversal) runs in the background and in the workers. Business errors are declared
as expected so they cross RPC to the API without traceback noise.

    engine = EngineService(host='h', engine_id='e1', endpoints=endpoints('e1'))
    engine.start()
"""

import logging
import re

import oslo_messaging

from heat_lite.common import exception, messaging, template_format
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import (
    api,
    liveness,
    recovery,
    service_actions,
    service_info,
    service_resources,
    service_snapshots,
    service_software,
    stack_loader,
    templates,
    threads,
    worker,
)
from heat_lite.engine import stack as parser
from heat_lite.engine.clients.rest import session
from heat_lite.rpc import api as rpc_api

LOG = logging.getLogger(__name__)

expected = oslo_messaging.expected_exceptions(exception.HeatException)

STACK_NAME_RE = stack_loader.STACK_NAME_RE  # (the API tests' fake engine checks with it)
UUID_RE = re.compile(r"^[0-9a-fA-F]{8}-?([0-9a-fA-F]{4}-?){3}[0-9a-fA-F]{12}$")
# a delete loses its compare-and-swap only to a traversal started after the stack was
# loaded; it then supersedes that one (a few times at most, or 409 as a lock would)
_DELETE_ATTEMPTS = 3


def endpoints(engine_id):
    """The endpoint objects of the RPC server on topic ``engine``: every method of the
    engine's RPC API is one of theirs (their names do not overlap)."""
    return [
        StackMethods(),
        service_info.InfoMethods(),
        service_resources.ResourceMethods(),
        service_actions.ActionMethods(engine_id),
        service_software.SoftwareMethods(),
        service_snapshots.SnapshotMethods(),
    ]


_default_endpoints = endpoints  # (EngineService's, when it is given none)


def endpoint_method(name):
    """The function that serves RPC method ``name`` (None if none does), as the server
    dispatches it: the first endpoint class that has it."""
    for endpoint in endpoints(None):
        if not name.startswith("_") and hasattr(type(endpoint), name):
            return getattr(type(endpoint), name)
    return None


class EngineService:
    """heat-lite-engine's service: its registration (service row, listener), the RPC
    server of topic ``engine`` on ``endpoints`` (default: endpoints(engine_id)) and the
    convergence watchdog."""

    RPC_API_VERSION = rpc_api.ENGINE_RPC_VERSION

    def __init__(self, host, engine_id, endpoints=None):
        self.host = host
        self.engine_id = engine_id
        self.endpoints = endpoints if endpoints is not None else _default_endpoints(engine_id)
        self._rpc_server = None
        self._registration = liveness.Registration(
            host, engine_id, "heat-engine", rpc_api.ENGINE_TOPIC
        )
        self._watchdog = recovery.Watchdog(engine_id)

    # -- lifecycle -------------------------------------------------------------------------

    def start(self):
        """Register (service row, listener), serve topic ``engine``, and watch the
        traversals in progress: its first pass resumes what a dead engine left."""
        target = oslo_messaging.Target(
            topic=rpc_api.ENGINE_TOPIC, server=self.host, version=self.RPC_API_VERSION
        )
        self._registration.start()
        self._rpc_server = messaging.get_rpc_server(target, self.endpoints)
        self._rpc_server.start()
        LOG.info("heat-lite-engine %s listening on topic %s", self.engine_id, rpc_api.ENGINE_TOPIC)
        self._watchdog.start()
        threads.spawn(session.warm_up)  # the first stack's first cloud call, made ready

    def stop(self):
        self._watchdog.stop()
        if self._rpc_server is not None:
            self._rpc_server.stop()
            self._rpc_server.wait()
            self._rpc_server = None
        self._registration.stop()


class StackMethods:
    """Stacks: identify, list, count, show, create, update, delete."""

    target = oslo_messaging.Target(version=rpc_api.ENGINE_RPC_VERSION)

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
        ``_query_stack_get_all``); ``query`` is the selection of docs/heat-api.md §4.1.1 (filters,
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
        stack = stack_loader.load_stack(cnxt, stack_identity, show_deleted=True)
        outputs = None
        if resolve_outputs and not (
            stack.action == rpc_api.DELETE and stack.status == rpc_api.COMPLETE
        ):
            outputs = self._format_outputs(stack)
        return [api.format_stack(stack, outputs)]

    def _format_outputs(self, stack):
        outputs = stack.t.outputs(stack).values()
        names = set().union(*(o.required_resource_names() for o in outputs))
        stack.node_data = stack.stored_node_data(names)
        return [api.format_stack_output(o) for o in outputs]

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
        stack = stack_loader.new_stack(
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
        # its row, template, credentials (None: its own), first event and lock in one
        # transaction; StackExists or the stack limit are found by the insert (a parallel
        # create won) and leave nothing behind
        stack.user_creds_id = user_creds_id
        stack.converge_stack(
            stack.t,
            action=rpc_api.ADOPT if adopt_data else rpc_api.CREATE,
            adopt_stack_data=adopt_data,
            new=True,
            max_stacks=stack_loader.stack_limit(cnxt, owner_id),
        )
        return dict(stack.identifier())

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
        """Validate the new definition and start an UPDATE traversal
        (docs/rpc-and-convergence.md §4.2).

        A running traversal is superseded. With ``args['existing']`` (PATCH) the stack's
        template, files and environment are the base that the request amends.

        :raises: NotSupported while the stack is suspended or deleted, and the template
                 and validation errors of create_stack
        """
        args = args or {}
        stack = stack_loader.load_stack(cnxt, stack_identity)
        tmpl, _updated = stack_loader.updated_stack(
            cnxt, stack, template, params, files, args, environment_files
        )
        stack.update_settings(
            timeout_mins=args.get(rpc_api.PARAM_TIMEOUT) or stack.timeout_mins,
            disable_rollback=stack_loader.as_bool(
                args.get(rpc_api.PARAM_DISABLE_ROLLBACK, stack.disable_rollback)
            ),
            # as Heat: PATCH keeps the tags, PUT without tags drops them
            tags=stack_loader.as_tags(args["tags"])
            if "tags" in args
            else (stack.tags if args.get(rpc_api.PARAM_EXISTING) else None),
        )
        templates.store(tmpl)
        stack.converge_stack(
            tmpl,
            action=rpc_api.UPDATE,
            converge=stack_loader.as_bool(args.get(rpc_api.PARAM_CONVERGE, False)),
        )
        return dict(stack.identifier())

    @expected
    def delete_stack(self, cnxt, stack_identity):
        """Start the DELETE traversal: converge to an empty template."""
        for _attempt in range(_DELETE_ATTEMPTS):
            stack = stack_loader.load_stack(cnxt, stack_identity)
            if stack.action == rpc_api.DELETE and stack.status == rpc_api.COMPLETE:
                # deleted, but the row is still live: soft-delete it again, as Heat does
                threads.spawn(stack.purge_db)
                raise exception.EntityNotFound(entity="Stack", name=stack.name)
            with worker.cancelling_running(stack):
                if stack.converge_stack(templates.empty_like(stack.t), action=rpc_api.DELETE):
                    return
            # another traversal started after the stack was loaded: a delete wins, again
        raise exception.ActionInProgress(stack_name=stack.name, action=stack.action)


def _translated(query):
    """The stack selection with its filters in column names (api.translate_filters)."""
    if query.get("filters"):
        query = dict(query, filters=api.translate_filters(query["filters"]))
    return query
