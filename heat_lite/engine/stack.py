"""Stack: a stack row with its template, and the convergence operations on it.

Convergence only (no legacy path). ``converge_stack`` starts a traversal: a new traversal
id stored with a compare-and-swap on the previous one, the graph of update and cleanup
nodes, one sync point per node (plus one for the stack), and ``check_resource`` casts for
the leaves. The workers do the rest (heat_lite.engine.check_resource); the stack's own
state changes (``mark_complete``, ``mark_failed``) are CAS writes on the traversal too.

    stack = Stack.load(ctx, stack_id)
    stack.converge_stack(templates.empty_like(stack.t), action='DELETE')
"""

import copy
import datetime
import functools
import uuid

from heat_lite.common import exception, identifier
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.db import snapshots as db_snapshots
from heat_lite.engine import (
    attributes,
    environment,
    event,
    hooks,
    liveness,
    notification,
    parameter_groups,
    snapshots,
    stack_watch,
    sync_point,
    templates,
    threads,
)
from heat_lite.engine import resource as rsrc_mod
from heat_lite.engine.dependencies import Dependencies
from heat_lite.rpc import api as rpc_api

CREATE, DELETE, UPDATE, ROLLBACK, ADOPT, RESTORE, SNAPSHOT = (
    rpc_api.CREATE,
    rpc_api.DELETE,
    rpc_api.UPDATE,
    rpc_api.ROLLBACK,
    rpc_api.ADOPT,
    rpc_api.RESTORE,
    rpc_api.SNAPSHOT,
)
IN_PROGRESS, FAILED, COMPLETE = rpc_api.IN_PROGRESS, rpc_api.FAILED, rpc_api.COMPLETE


def node_from_json(node):
    return int(node[0]), bool(node[1])


def deps_from_json(current_deps):
    """The graph of ``current_deps``; each node is one tuple however many edges name it
    (a 10,000-resource layered graph: 42 MB instead of 64 in a worker's cache)."""
    deps, nodes = Dependencies(), {}

    def node(value):
        key = node_from_json(value)
        return nodes.setdefault(key, key)

    for requirer, required in (current_deps or {}).get("edges", []):
        deps.add(node(requirer), node(required) if required else None)
    return deps


def deps_to_json(deps, traversal):
    """Heat's ``{"edges": [...]}``, plus the traversal the graph belongs to (the nodes stay
    tuples, which JSON writes as the same arrays: 90,000 edges under full fan-in)."""
    edges = [[a, b] for a, b in deps.edges()]
    return {"edges": edges, "traversal": traversal}


class Stack:
    """A stack and its template; also the ``stack`` that template functions resolve against.

    ``node_data`` maps resource names to the data their resources sent
    (docs/rpc-and-convergence.md §4.9), so
    get_resource/get_attr resolve without loading the resources themselves.
    """

    def __init__(
        self,
        context,
        name,
        tmpl,
        stack_id=None,
        action=None,
        status=None,
        status_reason="",
        timeout_mins=None,
        disable_rollback=True,
        owner_id=None,
        nested_depth=0,
        tenant=None,
        username=None,
        user_creds_id=None,
        created_time=None,
        updated_time=None,
        deleted_time=None,
        current_traversal=None,
        prev_raw_template_id=None,
        tags=None,
        parent_resource_name=None,
        stack_user_project_id=None,
        current_deps=None,
    ):
        self.context = context
        self.name = name
        self.t = tmpl
        self.id = stack_id
        self.action, self.status, self.status_reason = action, status, status_reason
        self.timeout_mins = timeout_mins
        self.disable_rollback = disable_rollback
        self.owner_id = owner_id
        self.nested_depth = nested_depth
        self.tenant = tenant if tenant is not None else context.project_id
        self.username = username if username is not None else context.username
        self.user_creds_id = user_creds_id
        self.created_time, self.updated_time = created_time, updated_time
        self.deleted_time = deleted_time
        self.current_traversal = current_traversal
        self.prev_raw_template_id = prev_raw_template_id
        self.tags = tags
        self.parent_resource_name = parent_resource_name
        self.stack_user_project_id = stack_user_project_id or self.tenant
        self.current_deps = current_deps
        self.node_data = {}
        self._root_stack_id = None
        self._parent_resource = None
        self._parameters = None
        self._definitions = None

    # -- loading and storing ---------------------------------------------------------------

    @classmethod
    def load(cls, context, stack_id=None, row=None, show_deleted=False, tags=None):
        if row is None:
            row = db_api.stack_get(stack_id, show_deleted=show_deleted)
            if row is None:
                raise exception.EntityNotFound(entity="Stack", name=stack_id)
        return cls(
            context,
            row.name,
            templates.load(row.raw_template_id),
            stack_id=row.id,
            action=row.action,
            status=row.status,
            status_reason=row.status_reason,
            timeout_mins=row.timeout,
            disable_rollback=row.disable_rollback,
            owner_id=row.owner_id,
            nested_depth=row.nested_depth,
            tenant=row.tenant,
            username=row.username,
            user_creds_id=row.user_creds_id,
            created_time=row.created_at,
            updated_time=row.updated_at,
            deleted_time=row.deleted_at,
            current_traversal=row.current_traversal,
            prev_raw_template_id=row.prev_raw_template_id,
            tags=tags,
            parent_resource_name=row.parent_resource_name,
            stack_user_project_id=row.stack_user_project_id,
        )

    def _store(self, max_stacks, engine_id):
        """Insert this new stack's row as converge_stack starts its first traversal: with
        its template and credentials if not stored yet, its first event and its lock, in
        one transaction (a refusal leaves nothing behind).

        :raises: StackExists; RequestLimitExceeded when the project already has
                 ``max_stacks`` top-level stacks (both decided by the insert itself)
        """
        self.created_time = db_api.utcnow()
        new_template = templates.row(self.t) if getattr(self.t, "id", None) is None else None
        template_id, self.user_creds_id = db_api.stack_create(
            {
                "id": self.id,
                "name": self.name,
                "raw_template_id": self.t.id if new_template is None else None,
                "username": self.username,
                "tenant": self.tenant,
                "user_creds_id": self.user_creds_id,
                "owner_id": self.owner_id,
                "parent_resource_name": self.parent_resource_name,
                "timeout": self.timeout_mins,
                "disable_rollback": self.disable_rollback,
                "stack_user_project_id": self.stack_user_project_id,
                "nested_depth": self.nested_depth,
                "convergence": True,
                "current_traversal": self.current_traversal,
                "action": self.action,
                "status": self.status,
                "status_reason": self.status_reason,
                "created_at": self.created_time,
                "updated_at": self.updated_time,
            },
            tags=self.tags,
            max_stacks=max_stacks,
            template=new_template,
            creds_of=self.context if self.user_creds_id is None else None,
            event=event.stack_event(self),
            engine_id=engine_id,
        )
        self.t.id = template_id

    def root_stack_id(self):
        """The id of the top stack of this one's tree (its owners walked up)."""
        if self.owner_id is None:
            return self.id
        if self._root_stack_id is None:
            root = db_api.stack_get(self.owner_id, show_deleted=True)
            while root is not None and root.owner_id is not None:
                root = db_api.stack_get(root.owner_id, show_deleted=True)
            self._root_stack_id = root.id if root is not None else self.owner_id
        return self._root_stack_id

    def total_resources(self):
        """How many resource rows the whole tree under this stack's root holds (Heat's
        Stack.total_resources, which max_resources_per_stack bounds)."""
        return db_api.resource_count_by_root(self.root_stack_id())

    def child_stack_rows(self, parent_resource_name):
        """The rows of the live child stacks this stack made for its resource
        ``parent_resource_name`` (a nested stack resource's, recorded or not)."""
        return db_api.stack_get_all(
            filters={"owner_id": self.id, "parent_resource_name": parent_resource_name},
            show_nested=True,
        )

    def identifier(self):
        return identifier.HeatIdentifier(self.tenant, self.name, self.id)

    @property
    def parent_resource(self):
        """For a nested stack, the resource of its owner it implements (resource_facade)."""
        if self._parent_resource is None and self.owner_id and self.parent_resource_name:
            self._parent_resource = self._load_parent_resource()
        return self._parent_resource

    def _load_parent_resource(self):
        """The owner's resource this stack is the child of (None if gone): its current row
        (the one whose physical id is this stack, else the newest)."""
        parent = Stack.load(self.context, self.owner_id)
        defn = parent.definition(self.parent_resource_name)
        rows = [
            row
            for row in db_api.resource_get_all_by_stack(self.owner_id)
            if row.name == self.parent_resource_name
        ]
        if defn is None or not rows:
            return None
        mine = [row for row in rows if row.nova_instance == self.id]
        return rsrc_mod.Resource.load((mine or rows)[-1], parent, defn)

    @parent_resource.setter
    def parent_resource(self, rsrc):
        self._parent_resource = rsrc

    # -- definitions -----------------------------------------------------------------------

    @property
    def env(self):
        return self.t.env or {}

    def resource_class(self, defn):
        """The plugin class of a definition under this stack's environment (the
        resource_registry may alias its type, map it to a provider template, ...)."""
        return environment.get_class(self.env, defn.resource_type, defn.name, self.t.files)

    @property
    def parameters(self):
        if self._parameters is None:
            ident = self.identifier() if self.id else None
            self._parameters = self.t.parameters(
                ident, self.env.get("parameters") or {}, self.env.get("parameter_defaults")
            )
        return self._parameters

    @property
    def definitions(self):
        if self._definitions is None:
            self._definitions = self.t.resource_definitions(self)
        return self._definitions

    def definition(self, name):
        """One resource's definition, without parsing the others (None if undefined)."""
        if self._definitions is not None:
            return self._definitions.get(name)
        return self.t.resource_definition(self, name)

    def dependencies(self):
        """The template's dependency graph of resource names (bad references, cycles raise)."""
        return self.t.dependencies(self, self.definitions)

    def validate(self, strict=True):
        """Template sections, parameters, resource types and properties, nested stacks,
        outputs, graph. Without ``strict`` (a child validated with its root) parameter
        and property values are not checked."""
        hooks.validate(self.env)
        self.t.validate()
        # resource types first: Heat loads the resources before it checks parameter values
        classes = {name: self._class_of(defn) for name, defn in self.definitions.items()}
        # custom constraints (nova.flavor, neutron.network...) look names up in this project
        self.parameters.validate(validate_value=strict, context=self.context)
        self.validate_groups_and_names()
        for defn in self.definitions.values():
            defn.validate()
            cls = classes[defn.name]
            if defn.external_id() is not None:
                cls(defn.name, defn, self).validate_external()  # as Heat: nothing else
                continue
            if cls.validate_properties:
                defn.properties(cls.properties_schema, self.context).validate(with_value=strict)
                if defn.update_policy_data is not None:
                    policy_schema = getattr(cls, "update_policy_schema", {})
                    defn.update_policy(policy_schema).validate(with_value=strict)
            if hasattr(cls, "validate_nested_stack"):
                cls(defn.name, defn, self).validate_nested_stack(strict)
            if hasattr(cls, "validate"):
                # the plugin's own checks (Heat's Resource.validate, run without values too)
                self._validate_plugin(cls(defn.name, defn, self))
        for output in self.t.outputs(self).values():
            output.validate()
        self.dependencies()

    def _validate_plugin(self, rsrc):
        """``rsrc.validate()``; an error that is not Heat's own names the resource, as
        Heat's ``StackValidationFailed(error=ex, resource=res)``."""
        try:
            rsrc.validate()
        except exception.HeatException:
            raise
        except (ValueError, TypeError, KeyError) as ex:
            raise exception.StackValidationFailed(
                error=type(ex).__name__, path=[self.t.RESOURCES, rsrc.name], message=str(ex)
            )

    def _class_of(self, defn):
        try:
            return self.resource_class(defn)
        except exception.ResourceTypeNotFound as exc:
            # Heat reports this as a plain validation failure
            raise exception.StackValidationFailed(message=exc.error_message)

    def validate_groups_and_names(self):
        """parameter_groups, conditions, and no parameter named like a resource (Heat's
        ``Duplicate names {'x'}``)."""
        parameter_groups.validate(self.t.t.get(parameter_groups.PARAMETER_GROUPS), self.parameters)
        self.t.conditions(self).validate()
        duplicates = set(self.parameters) & set(self.definitions)
        if duplicates:
            raise exception.StackValidationFailed(message="Duplicate names %s" % duplicates)

    # -- the `stack` protocol of template functions (heat_lite.engine.function) -----------

    def has_resource(self, name):
        return name in self.t.resource_names()

    def resource_in_init(self, name):
        """True while no data of that resource is known (validation before create)."""
        return name not in self.node_data

    def resource_reference(self, name):
        """``get_resource``: the reference id; a resource not created yet is known by its
        name (Heat's ``get_reference_id`` without a resource id), e.g. in a preview."""
        data = self.node_data.get(name)
        return data.get("reference_id") if data else name

    def resource_attribute(self, name, attr, *path):
        data = self.node_data.get(name)
        if data and attr in (data.get("attr_errors") or ()):
            raise exception.AttributeResolutionError(message=data["attr_errors"][attr])
        value = (data.get("attrs") or {}).get(attr) if data else None
        return attributes.select_from_attribute(value, path) if path else value

    def all_resource_attributes(self, name):
        data = self.node_data.get(name)
        return dict((data.get("attrs") or {}) if data else {})

    def resource_attribute_names(self, name):
        defn = self.definitions.get(name)
        if defn is None:
            return None
        try:
            cls = self.resource_class(defn)
        except exception.StackValidationFailed:
            return None
        if getattr(cls, "dynamic_attributes", False):
            return None
        return set(cls.attributes_schema) | {"show"}

    def stored_node_data(self, names=None):
        """``node_data`` from the database, outside a traversal (outputs shown, a parent's
        get_attr): the cached attribute values of the live resources (of ``names`` only,
        if given: a show reads the resources its outputs name)."""
        if names is not None and not names:
            return {}
        return db_api.resource_attr_data_get(self.id, names)

    # -- abandon and export ----------------------------------------------------------------

    def prepare_abandon(self):
        """The stack and its defined resources, as abandon and export give them
        (docs/heat-api.md §5.7); a snapshot stores the same data."""
        rows = {}
        for row in db_api.resource_get_all_by_stack(self.id):
            if row.replaced_by is None and not (row.action == DELETE and row.status == COMPLETE):
                if row.name not in rows or row.id > rows[row.name].id:
                    rows[row.name] = row
        resources = {}
        for name in self.t.resource_names():
            row = rows.get(name)
            child = self._child_stack_row(row)
            if child is not None:
                # a nested stack resource is abandoned as its whole child stack (as Heat's
                # StackResource.prepare_abandon)
                resources[name] = Stack.load(self.context, row=child).prepare_abandon()
                continue
            resources[name] = {
                "name": name,
                "resource_id": row.nova_instance if row is not None else None,
                "type": self.t.resource_type(name),
                "action": row.action if row is not None else rpc_api.INIT,
                "status": row.status if row is not None else COMPLETE,
                "metadata": (row.rsrc_metadata if row is not None else None) or {},
                "resource_data": db_api.resource_data_get_all(row.id) if row is not None else {},
            }
        return {
            "name": self.name,
            "id": self.id,
            "action": self.action,
            "environment": copy.deepcopy(self.env),
            "files": dict(self.t.files or {}),
            "status": self.status,
            "template": copy.deepcopy(self.t.t),
            "resources": resources,
            "project_id": self.tenant,
            "stack_user_project_id": self.stack_user_project_id,
            "tags": self.tags or [],
        }

    def _child_stack_row(self, row):
        """The child stack of resource ``row`` when it is a nested stack resource, else None."""
        if row is None or not row.nova_instance:
            return None
        try:
            uuid.UUID(row.nova_instance)
        except ValueError:
            return None
        child = db_api.stack_get(row.nova_instance)
        return child if child is not None and child.owner_id == self.id else None

    # -- state -----------------------------------------------------------------------------

    def timeout_secs(self):
        return self.timeout_mins * 60 if self.timeout_mins else CONF.stack_action_timeout

    def time_remaining(self):
        start = self.updated_time or self.created_time or db_api.utcnow()
        elapsed = (db_api.utcnow() - start).total_seconds()
        return self.timeout_secs() - elapsed

    def has_timed_out(self):
        return self.status == IN_PROGRESS and self.time_remaining() <= 0

    def state_set(self, action, status, reason, notify=True):
        """Record the event, then write the state with a CAS on the current traversal;
        the state is announced (notification.send) once stored, unless ``notify`` is
        false (the caller announces it later)."""
        self.action, self.status, self.status_reason = action, status, reason
        values = {"action": action, "status": status, "status_reason": reason}
        if (action, status) == (DELETE, COMPLETE):
            # gone from every list the moment a client can see DELETE_COMPLETE
            values["deleted_at"] = db_api.utcnow()
        stored = db_api.stack_update(
            self.id, values, exp_trvsl=self.current_traversal, event=event.stack_event(self)
        )
        event.maybe_purge(self.id)
        if stored:
            stack_watch.announce(self)
        if stored and notify:
            notification.send(self)
        return stored

    # -- convergence -----------------------------------------------------------------------

    def update_settings(self, timeout_mins, disable_rollback, tags):
        """Take a stack update's settings; converge_stack stores them with the traversal."""
        self.timeout_mins, self.disable_rollback, self.tags = timeout_mins, disable_rollback, tags
        self._settings_changed = True

    def converge_stack(
        self,
        template,
        action=UPDATE,
        new_traversal_id=None,
        abandon=False,
        adopt_stack_data=None,
        pre_converge=None,
        converge=False,
        new=False,
        max_stacks=None,
    ):
        """Start a traversal towards ``template``
        (docs/rpc-and-convergence.md §4.3); the graph is built in a thread. Whether it
        started (not when another traversal started meanwhile).

        ``abandon`` (DELETE only): resources are retained, not physically deleted.
        ``adopt_stack_data`` (ADOPT only): the abandon data whose resources are taken over.
        ``pre_converge``: called once the resource rows and the graph are stored, before
        any node starts (RESTORE hands saved resource data to the rows it will create).
        ``converge`` (UPDATE): every resource compares its live state, not only its stored
        properties, with the template (update ``--converge``).
        ``new``: the stack is not stored yet (create, adopt); its row is inserted already
        started, refused (StackExists, RequestLimitExceeded) if its name is taken or its
        project has ``max_stacks`` top-level stacks.
        """
        self._abandon, self._adopt_stack_data = abandon, adopt_stack_data
        self._converge = converge
        self._pre_converge = pre_converge
        values = {}
        if action not in (rpc_api.CHECK, rpc_api.SUSPEND, rpc_api.RESUME, rpc_api.SNAPSHOT):
            if action not in (CREATE, ADOPT):
                self.prev_raw_template_id = self.t.id
                values["prev_raw_template_id"] = self.t.id
            if getattr(template, "id", None) is None and not new:
                templates.store(template)  # a new stack's is stored with it
            self.t = template
            self._parameters = self._definitions = None
            values["raw_template_id"] = template.id
        if action != CREATE:
            self.updated_time = db_api.utcnow()
            values["updated_at"] = self.updated_time
        if getattr(self, "_settings_changed", False):
            values.update(timeout=self.timeout_mins, disable_rollback=self.disable_rollback)
            db_api.stack_tags_set(self.id, self.tags)
        previous, superseded = self.current_traversal, (self.action, self.status)
        self.current_traversal = new_traversal_id or str(uuid.uuid4())
        self.action, self.status = action, IN_PROGRESS
        self.status_reason = "Stack %s started" % action
        values.update(
            action=action,
            status=IN_PROGRESS,
            status_reason=self.status_reason,
            current_traversal=self.current_traversal,
        )
        # until the leaves are cast, the traversal is this engine's to start (the lock;
        # a dead engine's is resumed by engine/recovery.py)
        engine_id = liveness.own_engine_id()
        if new:
            self._store(max_stacks, engine_id)
        elif not self._store_start(values, previous, engine_id):
            return False
        notification.send(self)
        if previous and not new:
            sync_point.delete_all(self.id, previous)
        if superseded == (SNAPSHOT, IN_PROGRESS):
            # that snapshot (the traversal's id) will never complete now
            db_snapshots.snapshot_update(
                previous,
                {"status": FAILED, "status_reason": "Stack SNAPSHOT cancelled"},
                expected_status=IN_PROGRESS,
            )
        threads.spawn(self._converge_create_or_update, new)
        return True

    def _store_start(self, values, previous, engine_id):
        """Write a traversal's start (``values``) with its event and lock, if
        ``previous`` is still the stack's traversal (or ended meanwhile); whether it was."""
        stored = db_api.stack_update(
            self.id, values, exp_trvsl=previous, event=event.stack_event(self), engine_id=engine_id
        )
        if not stored:
            previous = self._traversal_if_idle(previous)
            stored = previous is not None and db_api.stack_update(
                self.id, values, exp_trvsl=previous
            )
        if not stored:
            self._release_stack_lock()
        return stored

    def _traversal_if_idle(self, loaded):
        """The stored traversal when it is no longer the ``loaded`` one but nothing runs:
        the traversal ended, or purge_db cleared a failed one, after this stack was
        loaded. None when another traversal is running (it was started in between)."""
        row = db_api.stack_get(self.id)
        if row is None or row.status == IN_PROGRESS or row.current_traversal == loaded:
            return None
        return row.current_traversal

    def _release_stack_lock(self):
        engine_id = liveness.own_engine_id()
        if engine_id is not None:
            db_api.stack_lock_release(self.id, engine_id)

    def _converge_create_or_update(self, fresh=False):
        try:
            self._start_traversal(fresh)
        finally:
            self._release_stack_lock()

    def traversal_flags(self):
        """How the traversal goes on (the data every check_resource carries), kept at the
        stack's sync point so that recovery can send its messages again."""
        return {
            "context": self.context.to_dict(),
            "converge": getattr(self, "_converge", False),
            "abandon": getattr(self, "_abandon", False),
            "adopt_stack_data": getattr(self, "_adopt_stack_data", None),
        }

    def _start_traversal(self, fresh=False):
        try:
            ids = self._update_or_store_resources(fresh)
        except exception.RequestLimitExceeded as ex:
            # a parallel nested stack of the tree took the rest of its resource budget
            self.mark_failed(str(ex))
            return
        deps = self._compute_convg_dependencies(ids)
        self.current_deps = deps_to_json(deps, self.current_traversal)
        points = sync_point.rows(
            self.id, self.current_traversal, deps.nodes(), {"traversal": self.traversal_flags()}
        )
        if not db_api.stack_update(
            self.id,
            {"current_deps": self.current_deps},
            exp_trvsl=self.current_traversal,
            sync_points=points,
        ):
            return
        if getattr(self, "_pre_converge", None) is not None:
            self._pre_converge()
        leaves = deps.leaves()
        if not leaves:
            self.mark_complete()
            return
        from heat_lite.rpc import worker_client

        # a wide stack's 1,000 leaves: their publish confirms overlap (cast_all)
        client = worker_client.WorkerClient()
        worker_client.cast_all(
            [
                functools.partial(
                    client.check_resource,
                    self.context,
                    rsrc_id,
                    self.current_traversal,
                    {"input_data": {}},
                    is_update,
                    getattr(self, "_adopt_stack_data", None),
                    converge=getattr(self, "_converge", False),
                    abandon=getattr(self, "_abandon", False),
                )
                for rsrc_id, is_update in sorted(leaves, key=lambda n: n[1])
            ]
        )

    def _active_rows(self):
        return [
            r
            for r in db_api.resource_get_all_by_stack(self.id)
            if not (r.action == DELETE and r.status == COMPLETE)
        ]

    def _update_or_store_resources(self, fresh=False):
        """Pick an existing row for every defined resource, or insert an INIT row.

        Returns {name: resource id}. New rows are inserted dependents-first, as Heat does.
        ``fresh``: the stack was just stored, it has no rows yet.
        """
        self._existing = [] if fresh else self._active_rows()
        by_name = {}
        for row in self._existing:
            by_name.setdefault(row.name, []).append(row)
        ids, new_names = {}, []
        order = list(self._definition_order())
        for name in reversed(order):
            candidates = by_name.get(name)
            if candidates:
                ids[name] = max(candidates, key=self._row_score).id
            else:
                new_names.append(name)
        if not new_names:
            return ids
        shared = {
            "stack_id": self.id,
            "root_stack_id": self.root_stack_id(),
            "action": rpc_api.INIT,
            "status": COMPLETE,
            "status_reason": "",
            "current_template_id": self.t.id,
        }
        new_ids = db_api.resource_init_many(new_names, shared, budget=self._resource_budget())
        ids.update(zip(new_names, new_ids, strict=True))
        return ids

    def _resource_budget(self):
        """The tree's resource budget for a nested stack's new rows (db_api
        resource_create_many): its parent checked it, the insert holds it against
        parallel siblings. A top-level stack's count was checked on the request."""
        limit = CONF.max_resources_per_stack
        if self.owner_id is None or limit == -1:
            return None
        return self.root_stack_id(), limit, self.id, len(self.definitions)

    def _definition_order(self):
        return iter(self.dependencies())

    def _row_score(self, row):
        score = 0
        if row.status == FAILED:
            score -= 30
        if row.action == DELETE:
            score -= 50
        if row.replaced_by is not None:
            score -= 1
        if row.current_template_id == self.prev_raw_template_id:
            score += 5
        if row.current_template_id == self.t.id:
            score += 10
        stamp = row.updated_at or row.created_at or datetime.datetime.min
        return score, stamp

    def _compute_convg_dependencies(self, ids):
        deps = Dependencies()
        for name, defn in self.definitions.items():
            node = (ids[name], True)
            deps.add(node)
            for req in defn.required_resource_names():
                if req in self.definitions:  # a disabled (condition false) one is ignored
                    deps.add(node, (ids[req], True))
        active = {row.id for row in self._existing}
        for row in self._existing:
            cleanup = (row.id, False)
            deps.add(cleanup)
            for required in row.requires or []:
                if required in active:
                    deps.add((required, False), cleanup)
            if row.replaces in active:
                deps.add((row.replaces, False), cleanup)
            if (row.id, True) in deps:
                deps.add(cleanup, (row.id, True))
        return deps

    def mark_complete(self, suffix=""):
        reason = "Stack %s completed successfully%s" % (self.action, suffix)
        # announced after the purge: a deleted stack is out of the list by then
        if self.state_set(self.action, COMPLETE, reason, notify=False):
            self._snapshot_finished(COMPLETE, reason)
            self.purge_db()
            notification.send(self)

    def mark_failed(self, reason):
        if not self.state_set(self.action, FAILED, reason):
            return False
        if not self.disable_rollback and self.action in (CREATE, ADOPT, UPDATE, RESTORE):
            self.rollback()
        else:
            self._snapshot_finished(FAILED, reason)
            self.purge_db()
        return True

    def _snapshot_finished(self, status, reason):
        """A SNAPSHOT traversal ends by storing its snapshot's data (engine/snapshots.py)."""
        if self.action == SNAPSHOT:
            snapshots.update_snapshot(self, status, reason)

    def rollback(self):
        if self.prev_raw_template_id is not None:
            target = templates.load(self.prev_raw_template_id)
        else:
            target = templates.empty_like(self.t)
        self.converge_stack(target, action=ROLLBACK)

    def purge_db(self):
        """Tidy up after a finished traversal (docs/rpc-and-convergence.md §4.11)."""
        db_api.resource_purge_deleted(self.id)
        traversal = self.current_traversal
        values = {}
        if self.status == FAILED:
            values["current_traversal"] = ""
        prev_template = None
        if self.status == COMPLETE and self.prev_raw_template_id is not None:
            prev_template, self.prev_raw_template_id = self.prev_raw_template_id, None
            values["prev_raw_template_id"] = None
        if values and not db_api.stack_update(self.id, values, exp_trvsl=traversal):
            return
        sync_point.delete_all(self.id, traversal)
        if prev_template is not None:
            templates.delete(prev_template)
        if self.action == DELETE and self.status == COMPLETE:
            db_snapshots.snapshot_delete_all_by_stack(self.id)
            # a nested stack shares its root's credentials: only the root lets them go
            creds_id = self.user_creds_id if self.owner_id is None else None
            db_api.stack_soft_delete(self.id, user_creds_id=creds_id)
