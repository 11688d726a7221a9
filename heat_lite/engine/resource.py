"""Resource: the base of every resource plugin, and its convergence actions.

A plugin declares ``properties_schema`` and ``attributes_schema`` and implements any of
``handle_create``/``check_create_complete``/``handle_delete``/``check_delete_complete``
and ``get_attribute``. The base class does the rest: the per-resource lock (``engine_id``
plus a compare-and-swap on ``atomic_key``), state changes with their events, and the
data a resource sends to the nodes that depend on it.

    rsrc = Resource.load(row, stack)
    rsrc.create_convergence(template_id, requires, engine_id, timeout)
    rsrc.node_data()   # {'id', 'name', 'reference_id', 'attrs', 'status', 'action', 'uuid'}
"""

import logging
import time

from heat_lite.common import exception, short_id
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import event, hooks, stack_watch
from heat_lite.rpc import api as rpc_api

INIT, CREATE, DELETE, UPDATE = rpc_api.INIT, rpc_api.CREATE, rpc_api.DELETE, rpc_api.UPDATE
SUSPEND, RESUME, CHECK = rpc_api.SUSPEND, rpc_api.RESUME, rpc_api.CHECK
SNAPSHOT = rpc_api.SNAPSHOT
ADOPT = rpc_api.ADOPT
IN_PROGRESS, FAILED, COMPLETE = rpc_api.IN_PROGRESS, rpc_api.FAILED, rpc_api.COMPLETE

LOG = logging.getLogger(__name__)

# resource task polling: start fast, back off to a modest cap (Heat polls every 1 s)
POLL_START, POLL_CAP = 0.005, 0.25
# a poll whose end is announced (a nested stack's, stack_watch) wakes at once: between
# wake-ups it backs off to Heat's 1 s step, which only a lost announcement ever waits for
# (10 clusters' ~80 waiting parents polled their children ~300 times a second at 0.25 s)
WATCHED_POLL_CAP = 1.0


# Heat's reason for a FAILED resource its update neither changes nor replaces
KEPT_FAILED_REASON = "Update status to COMPLETE for FAILED resource neither update nor replace."


def went_down_reason(action):
    """Heat's status reason of a resource whose engine went down during ``action``."""
    return "Worker went down during resource %s" % action


class Resource:
    """A resource of a stack; subclasses are the plugins of heat_lite.engine.resources."""

    properties_schema = {}
    attributes_schema = {}
    # pause between polls of check_*_complete; plugins that poll a simulated cloud may raise it
    poll_cap = POLL_CAP
    # set by check_resource: the final COMPLETE write waits for the sync point report
    defer_completion = False
    _pending_write = None
    # False for placeholders (OS::Heat::None) that accept and ignore any properties
    validate_properties = True
    # True when a change of properties is neither updated nor replaced (Heat's
    # NoneResource._needs_update)
    ignores_property_changes = False
    # True for a nested stack (StackResource): an update of its parent always updates it,
    # its own resources decide what changes (update.preview)
    nested_stack = False
    # the type a deprecated one may be changed to in a template, keeping the resource
    # (Heat's support_status substitute_class): updated as that type, not replaced
    substitute_class = None
    # False for plugins whose physical id is made in the engine (a random string, a
    # value): losing it with a dead worker leaks nothing, so resource_id_set does not
    # write it before the state does (one round trip less per resource)
    resource_id_names_an_object = True

    def __init__(self, name, definition, stack):
        self.name = name
        self.t = definition
        self.stack = stack
        self.type_name = definition.resource_type
        self.properties = (
            definition.properties(self.properties_schema) if self.validate_properties else None
        )
        self.id = None
        self.uuid = None
        self.resource_id = None
        self.action, self.status, self.status_reason = INIT, COMPLETE, ""
        self.atomic_key = 0
        self.engine_id = None
        self.requires = []
        self.replaces = self.replaced_by = None
        self.current_template_id = None
        self.properties_data = None
        self.created_time = self.updated_time = None
        self._data = None
        # an in-place update stores the new metadata only if its snippet changed (as Heat)
        self._metadata_changed = False
        # update --converge: observe the live state before comparing (set by the worker)
        self.converge = False
        # a threading.Event the worker sets to cancel a running task (see _poll)
        self.cancel_event = None

    @staticmethod
    def load(row, stack, definition):
        """Build the plugin object for a resource row under ``definition``."""
        cls = stack.resource_class(definition)
        rsrc = cls(row.name, definition, stack)
        rsrc._set_from_row(row)
        return rsrc

    def _set_from_row(self, row):
        self.id, self.uuid, self.resource_id = row.id, row.uuid, row.nova_instance
        self.action, self.status, self.status_reason = row.action, row.status, row.status_reason
        self.atomic_key, self.engine_id = row.atomic_key, row.engine_id
        self.requires = list(row.requires or [])
        self.replaces, self.replaced_by = row.replaces, row.replaced_by
        self.current_template_id = row.current_template_id
        self.properties_data = row.properties_data
        self.created_time, self.updated_time = row.created_at, row.updated_at

    # -- plugin hooks ----------------------------------------------------------------------

    def handle_create(self):
        return None

    def check_create_complete(self, token):
        return True

    def handle_delete(self):
        return None

    def check_delete_complete(self, token):
        return True

    def get_attribute(self, key, *path):
        """The value of attribute ``key`` (plugins override; unknown keys give None)."""
        return None

    def get_reference_id(self):
        return self.resource_id if self.resource_id is not None else self.name

    # -- helpers for plugins ---------------------------------------------------------------

    def physical_resource_name(self):
        return "%s-%s-%s" % (self.stack.name, self.name, short_id.get_id(self.uuid))

    def resource_id_set(self, value):
        """Set the physical id, and, during an action (this engine holds the lock), write
        it at once, as Heat's resource_id_set does: a worker that dies before the action
        ends leaves it on the row, where the takeover and the delete find the object.
        Plugins whose id names nothing outside the engine leave that write to the state's
        (``resource_id_names_an_object``)."""
        self.resource_id = value
        if self.resource_id_names_an_object and self.id is not None and self.engine_id:
            self.write_row({"nova_instance": value}, self.engine_id)

    def write_row(self, values, expected_engine_id=None):
        """A compare-and-swap write of ``values`` (no event) on the row as this resource
        last wrote it, held by ``expected_engine_id`` (None: unlocked). A deferred COMPLETE
        write goes first. Raises UpdateInProgress when the row changed meanwhile."""
        self.flush_state()
        if not db_api.resource_update(self.id, values, self.atomic_key, expected_engine_id):
            raise exception.UpdateInProgress(resource_name=self.name)
        self.atomic_key += 1

    # -- the stored rows a plugin reads (plugins reach the database only through here) --

    def stored_row(self):
        """This resource's row as stored now (None once it is gone)."""
        row, _stack = db_api.resource_get_with_stack(self.id)
        return row

    def replacement_resource_id(self):
        """The physical id of the resource that replaced this one (None if gone)."""
        row, _stack = db_api.resource_get_with_stack(self.replaced_by)
        return row.nova_instance if row is not None else None

    @staticmethod
    def stack_row(stack_id, show_deleted=False):
        """Stack ``stack_id``'s row (None if there is none, or it is deleted and not
        ``show_deleted``): a nested stack resource's child, the stack of a deployment."""
        return db_api.stack_get(stack_id, show_deleted=show_deleted)

    @staticmethod
    def stack_resource_rows(stack_id):
        """The resource rows of stack ``stack_id``, by id."""
        return db_api.resource_get_all_by_stack(stack_id)

    @staticmethod
    def physical_ids_recorded(physical_ids):
        """The ones of ``physical_ids`` that some resource row records as its physical id."""
        return db_api.resource_physical_ids_recorded(physical_ids)

    def data(self):
        if self._data is None:
            self._data = db_api.resource_data_get_all(self.id) if self.id else {}
        return self._data

    def data_set(self, key, value, redact=False):
        db_api.resource_data_set(self.id, key, value, redact)
        self.data()[key] = value

    # -- convergence actions ---------------------------------------------------------------

    def create_convergence(self, template_id, requires, engine_id, timeout):
        """Create the resource; raises ResourceFailure (after storing CREATE_FAILED)."""
        self.requires = sorted(requires, reverse=True)
        self.current_template_id = template_id
        external_id = self.t.external_id()
        if external_id is not None:
            # as Heat: an external resource is adopted by its id, then checked
            self._adopt(engine_id, timeout, {"resource_id": external_id})
            self.check_convergence(engine_id, timeout)
            return
        if self.stack.action == CREATE:
            self._break_if_required(CREATE, hooks.PRE_CREATE, engine_id, timeout)
        self._run_action(CREATE, engine_id, timeout, self._create_steps)
        if self.stack.action == CREATE:
            self._break_if_required(CREATE, hooks.POST_CREATE, engine_id, timeout)

    def _create_steps(self):
        if self.properties is not None:
            self.properties.validate()
        return self.handle_create, self.check_create_complete

    def adopt_convergence(self, template_id, requires, engine_id, timeout, resource_data):
        """Take over an existing physical resource (ADOPT) from its abandon data."""
        self.requires = sorted(requires, reverse=True)
        self.current_template_id = template_id
        self._adopt(engine_id, timeout, resource_data)

    def _adopt(self, engine_id, timeout, resource_data):
        def adopt():
            resource_id = (resource_data or {}).get("resource_id")
            if not resource_id:
                raise Exception("Resource ID was not provided.")
            self.resource_id_set(resource_id)
            data = resource_data.get("resource_data")
            if data and isinstance(data, dict):
                for key, value in data.items():
                    self.data_set(key, value)
            self._adopted_metadata = resource_data.get("metadata") or {}

        self._run_action(ADOPT, engine_id, timeout, lambda: (adopt, lambda token: True))

    def delete_convergence(self, template_id, engine_id, timeout, abandon=False):
        """Delete the resource unless it belongs to ``template_id`` (the new definition).

        ``abandon``: the physical resource is retained (the handlers are not called).
        """
        if self.current_template_id == template_id and self.action != DELETE:
            return
        if self.action == INIT:
            db_api.resource_delete(self.id)
            return
        if self.action == DELETE and self.status == COMPLETE:
            return
        if self.stack.action == DELETE and not abandon:
            self._break_if_required(DELETE, hooks.PRE_DELETE, engine_id, timeout)
        if abandon:
            steps = lambda: (self.handle_abandon, self.check_abandon_complete)  # noqa: E731
        else:
            self._freeze_properties()
            steps = self._delete_steps(
                unrecorded=self.resource_id is None and self.action in (CREATE, DELETE)
            )
        self._run_action(DELETE, engine_id, timeout, steps)
        if self.stack.action == DELETE and not abandon:
            self._break_if_required(DELETE, hooks.POST_DELETE, engine_id, timeout)

    def _delete_steps(self, unrecorded):
        """handle_delete and its check; ``unrecorded``: the create (or an earlier try of
        this delete) may have made an object no row names yet (its worker was killed
        between the cloud's answer and resource_id_set), which the plugin looks for first."""

        def steps():
            if unrecorded:
                found = self.find_unrecorded_object()
                if found is not None:
                    LOG.info(
                        "%s: deleting %s, made by a create that did not record it", self, found
                    )
                    self.resource_id_set(found)
            return self.handle_delete, self.check_delete_complete

        return steps

    def find_unrecorded_object(self):
        """The physical id of an object this resource's create made but did not record,
        or None (plugins that can look their objects up say; the default cannot)."""
        return None

    def _freeze_properties(self):
        """Read the properties from the values stored when the resource was built (Heat's
        frozen_properties): a delete acts on the objects the resource made. A delete
        traversal sends no data of other resources, so a live ``get_resource`` would give
        the other resource's name, not its id."""
        if self.properties_data is not None and self.validate_properties:
            self.properties = self.t.properties(self.properties_schema, stored=self.properties_data)

    def update_convergence(self, template_id, requires, engine_id, timeout, new_defn):
        """Bring the resource to ``new_defn``: in place, or raise UpdateReplace.

        Nothing changed: the resource just records the template and requirements it now
        belongs to (no event). Changed properties that are all ``update_allowed`` are
        updated in place (UPDATE_IN_PROGRESS -> UPDATE_COMPLETE); a changed type, a
        property that cannot change, or a resource whose last action failed needs a
        replacement.
        """
        self.requires = sorted(requires, reverse=True)
        if self._external_update(template_id, new_defn):
            return
        # the class the new environment gives (its resource_registry may map the type
        # elsewhere now), as Heat's update_convergence asks the new stack's registry
        new_cls = new_defn.stack.resource_class(new_defn)
        substituted = new_cls is not type(self) and new_cls is type(self).substitute_class
        if not substituted and not self.take_class(new_cls):
            raise exception.UpdateReplace(self.name)
        self._break_if_required(
            UPDATE, hooks.PRE_UPDATE, engine_id, timeout, env=new_defn.stack.env
        )
        if self.status == FAILED and (self.action == CHECK or self.needs_replace_failed()):
            raise exception.UpdateReplace(self.name)
        prop_diff, after, new_props = self.property_diff(
            new_defn, observe=self.converge or CONF.observe_on_update
        )
        self.current_template_id = template_id
        self._metadata_changed = _metadata_snippet(self.t) != _metadata_snippet(new_defn)
        if not prop_diff and not substituted and not self.update_needed_anyway(new_defn):
            if self.status == FAILED:
                # kept (needs_replace_failed) and nothing to change: Heat's
                # _persist_update_no_change (a create a dead worker left, whose object
                # is there, is not made again)
                self.set_state_locked(self.action, COMPLETE, KEPT_FAILED_REASON, engine_id)
                return
            values = {"requires": self.requires, "current_template_id": template_id}
            if self._metadata_changed:
                values["rsrc_metadata"] = self._resolved_metadata(new_defn)
            self.write_row(values)
            return
        if self.needs_replace(prop_diff, after):
            raise exception.UpdateReplace(self.name)
        self.t, self.properties = new_defn, new_props
        self.type_name = new_defn.resource_type

        def steps():
            if self.properties is not None:
                self.properties.validate()
            return (lambda: self.handle_update(new_defn, prop_diff)), self.check_update_complete

        self._run_action(UPDATE, engine_id, timeout, steps)
        self._break_if_required(
            UPDATE, hooks.POST_UPDATE, engine_id, timeout, env=new_defn.stack.env
        )

    def _external_update(self, template_id, new_defn):
        """Heat's rules for external resources: external_id cannot change (the update
        fails), and an external resource is never updated (True: nothing to do)."""
        external_id = new_defn.external_id()
        if self.t.external_id() != external_id:
            feature = "Update to property external_id of %s (%s)" % (self.name, self.type_name)
            # the resource keeps its state; the stack's update fails (no resource event)
            raise exception.ResourceFailure(exception.NotSupported(feature=feature), self, UPDATE)
        if external_id is None:
            return False
        self.write_row({"requires": self.requires, "current_template_id": template_id})
        self.current_template_id = template_id
        return True

    def validate_external(self):
        """An external resource must exist (Heat's validate_external), where the plugin can
        look its object up."""
        self.resource_id = self.t.external_id()
        try:
            self.get_live_state({})
        except NotImplementedError:
            pass
        except exception.EntityNotFound:
            raise exception.StackValidationFailed(
                message="Invalid external resource: Resource %s (%s) can not be found."
                % (self.resource_id, self.type_name)
            )

    def property_diff(self, new_defn, observe=False):
        """(changed properties, resolved new values, new Properties) of an update to
        ``new_defn``; ``observe``: against the live state. A type that
        ``ignores_property_changes`` (OS::Heat::None) never has changes."""
        new_props = (
            new_defn.properties(self.properties_schema) if self.validate_properties else None
        )
        after = _resolved(new_props, new_defn)
        if self.ignores_property_changes:
            return {}, after, new_props
        before = self.properties_data if self.properties_data is not None else self._props_data()
        if observe:
            before = self._observed(before)
        prop_diff = {
            k: after.get(k) for k in set(before) | set(after) if before.get(k) != after.get(k)
        }
        return prop_diff, after, new_props

    def _observed(self, before):
        """``before`` with what the cloud reports now (Heat's _prepare_update_props with
        converge / observe_on_update): a resource whose physical object is gone, or that
        never got one, is replaced; plugins without a live state are taken as stored."""
        if not before:
            return before
        if not self.resource_id:
            raise exception.UpdateReplace(self.name)
        try:
            live = self.get_live_state(dict(before))
        except exception.EntityNotFound:
            raise exception.UpdateReplace(self.name)
        except NotImplementedError:
            return before
        observed = dict(before)
        observed.update({k: v for k, v in (live or {}).items() if k in before})
        return observed

    def get_live_state(self, resource_properties):
        """The resource's properties as its cloud object has them now.

        :raises NotImplementedError: the plugin cannot observe its object (the default)
        :raises EntityNotFound: the physical object is gone
        """
        raise NotImplementedError

    def _break_if_required(self, action, hook, engine_id, timeout, env=None):
        """Heat's breakpoint: while the environment sets ``hook`` on this resource, hold
        its lock and wait for a signal to clear it (engine/hooks.py)."""
        if not hooks.matches(self.stack.env if env is None else env, self.name, hook):
            return
        self._hold_lock(engine_id)
        deadline = time.monotonic() + timeout if timeout is not None else None
        try:
            hooks.wait_while_set(self, action, hook, deadline)
        except exception.Timeout as exc:
            raise exception.ResourceFailure(exc, self, action)
        finally:
            self._hold_lock(engine_id, release=True)

    def _hold_lock(self, engine_id, release=False):
        """Take (or release) the resource lock without changing anything else."""
        holder = None if release else engine_id
        self.write_row({"engine_id": holder}, engine_id if release else None)
        self.engine_id = holder

    def steal_lock(self, row):
        """The engine holding the lock (``row.engine_id``) is dead: release the lock and
        record ``<ACTION>_FAILED "Worker went down during resource <ACTION>"`` (Heat's
        stale lock). Returns whether this caller did it (another may have been first)."""
        self._set_from_row(row)
        reason = went_down_reason(row.action)
        try:
            self._store_state(row.action, FAILED, reason, unlock=row.engine_id)
        except exception.UpdateInProgress:
            return False
        return True

    def take_class(self, new_cls):
        """Whether the resource stays itself under plugin class ``new_cls`` (a definition
        whose type the new environment maps to that class), and, if so, acts as that class
        from now on. Heat compares the classes: any other class is a replacement."""
        return new_cls is type(self)

    def store_failure(self, action, exc, engine_id):
        """An error outside an action's own handling (a plugin's update check, the data
        sent on after the action): the resource ends ``<ACTION>_FAILED`` with it, as any
        exception of an action does. Returns the ResourceFailure. A row that changed
        meanwhile (another traversal has it) keeps its state."""
        failure = exception.ResourceFailure(exc, self, action)
        try:
            self.flush_state()
            held = engine_id if self.engine_id == engine_id else None
            self._store_state(action, FAILED, str(failure), unlock=held)
        except exception.UpdateInProgress:
            LOG.info("Resource %s changed meanwhile; its failure is not stored", self.name)
        return failure

    def needs_replace_failed(self):
        """Whether a FAILED resource is replaced on its next update (Heat's hook): always,
        unless the plugin can see its object is fine (client_resource.ClientResource)."""
        return True

    def update_needed_anyway(self, new_defn):
        """Whether to run an UPDATE although no property changed (nested stacks)."""
        return False

    def needs_replace_with_prop_diff(self, prop_diff, after):
        """A plugin's own reason to replace the resource when ``prop_diff`` changes (Heat's
        hook of that name, which the update preview asks too)."""
        return False

    def needs_replace(self, prop_diff, after):
        """Whether an update changing ``prop_diff`` needs a new physical resource: the
        plugin's reason, or a changed property its schema does not let update. A plugin that
        finds out only while updating (where Heat's handle_update raises UpdateReplace)
        extends this; the preview does not ask that part."""
        if self.needs_replace_with_prop_diff(prop_diff, after):
            return True
        schema = self.properties_schema
        return any(key not in schema or not schema[key].update_allowed for key in prop_diff)

    def handle_update(self, new_defn, prop_diff):
        return None

    def check_update_complete(self, token):
        return True

    # -- stack actions on existing resources (docs/rpc-and-convergence.md §4.6, §4.17)

    def suspend_convergence(self, engine_id, timeout):
        """SUSPEND_IN_PROGRESS -> handle_suspend/check_suspend_complete -> SUSPEND_COMPLETE."""
        if self.action == DELETE or (self.action != SUSPEND and self.status != COMPLETE):
            raise self._invalid_state(SUSPEND)
        self._run_action(
            SUSPEND, engine_id, timeout, lambda: (self.handle_suspend, self.check_suspend_complete)
        )

    def resume_convergence(self, engine_id, timeout):
        """Only a SUSPEND_COMPLETE (or RESUME_FAILED) resource can be resumed."""
        if (self.action, self.status) not in ((SUSPEND, COMPLETE), (RESUME, FAILED)):
            raise self._invalid_state(RESUME)
        self._run_action(
            RESUME, engine_id, timeout, lambda: (self.handle_resume, self.check_resume_complete)
        )

    def check_convergence(self, engine_id, timeout):
        """CHECK with the plugin's handle_check; without one, CHECK_COMPLETE "not supported"."""
        handle_check = getattr(self, "handle_check", None)
        if handle_check is None:
            reason = "%s not supported for %s" % (CHECK, self.type_name)
            self._store_state(CHECK, COMPLETE, reason, lock=engine_id, with_event=False)
            self._store_state(CHECK, COMPLETE, reason, unlock=engine_id)
            return
        if (self.action, self.status) == (INIT, COMPLETE):
            self._store_state(
                CHECK, FAILED, "Can not check %s, resource not created yet." % self.name
            )
            failure = exception.Error("Resource %s not created yet." % self.name)
            raise exception.ResourceFailure(failure, self, CHECK)
        self._run_action(
            CHECK,
            engine_id,
            timeout,
            lambda: (handle_check, getattr(self, "check_check_complete", lambda token: True)),
        )

    def snapshot_convergence(self, engine_id, timeout):
        """SNAPSHOT_IN_PROGRESS -> handle_snapshot/check_snapshot_complete -> SNAPSHOT_COMPLETE.

        The snapshot's data (this resource's resource_data among it) is stored when the
        stack's SNAPSHOT traversal completes (engine/snapshots.py). A resource never
        created (INIT) has nothing to snapshot and keeps its state.
        """
        if self.action == INIT:
            return
        self._run_action(
            SNAPSHOT,
            engine_id,
            timeout,
            lambda: (self.handle_snapshot, self.check_snapshot_complete),
        )

    def handle_snapshot(self):
        return None

    def check_snapshot_complete(self, token):
        return True

    def set_state_locked(self, action, status, reason, engine_id):
        """Take the lock, write the state (with its event), release the lock."""
        self._store_state(
            self.action, self.status, self.status_reason, lock=engine_id, with_event=False
        )
        self._store_state(action, status, reason, unlock=engine_id)

    def _resolved_metadata(self, defn):
        """The definition's metadata, resolved; {} if it cannot be (never fails the action)."""
        try:
            return defn.metadata()
        except Exception:
            return {}

    def _invalid_state(self, action):
        state = "('%s', '%s')" % (self.action, self.status)
        failure = exception.Error("State %s invalid for %s" % (state, action.lower()))
        return exception.ResourceFailure(failure, self, action)

    def handle_abandon(self):
        """Abandon keeps the physical resource: nothing to do (nested stacks override)."""
        return None

    def check_abandon_complete(self, token):
        return True

    def handle_suspend(self):
        return None

    def check_suspend_complete(self, token):
        return True

    def handle_resume(self):
        return None

    def check_resume_complete(self, token):
        return True

    def make_replacement(self, template_id, requires):
        """Insert the replacement row (INIT) and link it; returns its id."""
        self.flush_state()
        new_id = db_api.resource_make_replacement(
            self.id,
            self.atomic_key,
            template_id,
            sorted(requires, reverse=True),
            {
                "stack_id": self.stack.id,
                "resource_action": UPDATE,
                "resource_status": COMPLETE,
                "resource_name": self.name,
                "physical_resource_id": self.resource_id or "",
                "resource_status_reason": "The Resource %s requires replacement." % self.name,
                "resource_type": self.type_name,
            },
        )
        if new_id is None:
            raise exception.UpdateInProgress(resource_name=self.name)
        return new_id

    def _props_data(self):
        return _resolved(self.properties, self.t)

    def _props_data_or_none(self):
        """_props_data(), or None when a value cannot be resolved (the action fails)."""
        try:
            return self._props_data()
        except Exception:
            return None

    def store_node_data(self, node_data):
        """Cache what outputs need of this resource (reference and attributes)."""
        db_api.resource_attr_data_set(self.id, node_data)

    def _run_action(self, action, engine_id, timeout, steps):
        self._store_state(action, IN_PROGRESS, "state changed", lock=engine_id)
        try:
            handle, check = steps()
            self._poll(handle, check, timeout)
        except exception.CancelOperation:
            # a worker that stops says why (worker.Task.reason); else the user cancelled
            reason_of = getattr(self.cancel_event, "reason", None)
            reason = (
                reason_of(action) if reason_of else "%s aborted (user triggered cancel)" % action
            )
            self._store_state(action, FAILED, reason, unlock=engine_id)
            raise
        except Exception as exc:
            failure = exception.ResourceFailure(exc, self, action)
            self._store_state(action, FAILED, str(failure), unlock=engine_id)
            raise failure
        self._store_state(
            action, COMPLETE, "state changed", unlock=engine_id, defer=self.defer_completion
        )

    def start_values(self, action):
        """More columns the ``action``'s IN_PROGRESS write stores (it takes the lock)."""
        return {}

    def take_pending_write(self):
        """The deferred COMPLETE write (db_api.ResourceWrite), now the caller's to send."""
        write, self._pending_write = self._pending_write, None
        return write

    def flush_state(self):
        """Send the deferred COMPLETE write, if any (raises UpdateInProgress if it did not
        match: the lock was taken over meanwhile)."""
        write = self.take_pending_write()
        if write is not None and not write.run():
            raise exception.UpdateInProgress(resource_name=self.name)

    def _poll(self, handle, check, timeout):
        """handle(), then check(token) until it is true; the wait between checks ends at
        once when the task is cancelled (``cancel_event``, set by the worker), or when
        the stack the check waits for (``watched_stack``) announces its state."""
        deadline = time.monotonic() + timeout if timeout is not None else None
        cancel = self.cancel_event
        token = handle()
        watched = self.watched_stack(token)
        if watched is None:
            self._poll_wait(check, token, deadline, cancel, None)
            return
        with stack_watch.watching(watched) as woken:
            linked = getattr(cancel, "linked", None)
            if linked is not None:
                linked.add(woken)
            try:
                self._poll_wait(check, token, deadline, cancel, woken)
            finally:
                if linked is not None:
                    linked.discard(woken)

    def _poll_wait(self, check, token, deadline, cancel, woken):
        wait = POLL_START
        cap = self.poll_cap if woken is None else max(self.poll_cap, WATCHED_POLL_CAP)
        while True:
            if woken is not None:
                woken.clear()  # before the check: an announcement after it is kept
            if check(token):
                return
            if deadline is not None and time.monotonic() > deadline:
                raise exception.Timeout()
            event = woken if woken is not None else cancel
            if event is None:
                time.sleep(wait)
            else:
                event.wait(wait)
            if cancel is not None and cancel.is_set():
                raise exception.CancelOperation()
            wait = min(wait * 2, cap)

    def watched_stack(self, token):
        """The stack whose end check_*_complete(token) waits for, if any (nested stacks)."""
        return None

    def read_once(self, key, read):
        """``read()``, done once per ``node_data`` (whose attributes share the result)."""
        memo = getattr(self, "_read_memo", None)
        if memo is None:
            return read()
        if key not in memo:
            memo[key] = read()
        return memo[key]

    def _event_properties(self):
        """The template's resolved property values, for events; {} when they cannot be
        resolved (a value past the engine's bounds): the action then fails with why."""
        try:
            return dict(self.t.resolved_properties() or {})
        except Exception:
            return {}

    def _store_state(
        self, action, status, reason, lock=None, unlock=None, with_event=True, defer=False
    ):
        """Write the state (and its event), taking or releasing the resource lock.

        ``lock=engine_id`` takes the lock (the row must be unlocked); ``unlock=engine_id``
        releases it (the row must be held by that engine). Raises UpdateInProgress when the
        compare-and-swap finds the row changed or held by someone else. ``defer``: the
        write is kept (take_pending_write) instead of sent now.
        """
        self.flush_state()
        self.action, self.status, self.status_reason = action, status, reason
        now = db_api.utcnow()
        values = {
            "action": action,
            "status": status,
            "status_reason": reason,
            "nova_instance": self.resource_id,
            "updated_at": now,
        }
        if lock is not None:
            values.update(
                engine_id=lock, requires=self.requires, current_template_id=self.current_template_id
            )
        if unlock is not None:
            values["engine_id"] = None
        props_data = None
        if (status, action) in ((IN_PROGRESS, CREATE), (IN_PROGRESS, ADOPT), (COMPLETE, UPDATE)):
            # the properties the events show from now on (event show), as Heat: the
            # template's (resolved) values, a create's from its start, an update's once done
            props_data = self._event_properties()
            if not props_data and action != UPDATE:
                props_data = None  # nothing to show yet: no row needed
        if status == IN_PROGRESS and lock is not None:
            values.update(self.start_values(action))
        if (status, action) == (IN_PROGRESS, CREATE):
            # what the resource is built from, stored from the create's start as Heat's
            # create() does: a delete reads it even after a failed create
            self.properties_data = values["properties_data"] = self._props_data_or_none()
        elif status == COMPLETE and action in (UPDATE, ADOPT):
            # what the resource was built from: the "before" of its next update
            self.properties_data = values["properties_data"] = self._props_data()
        if status == COMPLETE and action in (CREATE, UPDATE, ADOPT):
            if action == ADOPT:
                values["rsrc_metadata"] = getattr(self, "_adopted_metadata", {})
            elif action == CREATE or self._metadata_changed:
                values["rsrc_metadata"] = self._resolved_metadata(self.t)
        write = db_api.ResourceWrite(
            self.id,
            values,
            self.atomic_key,
            unlock,
            event.resource_event(self) if with_event else None,
            props_data,
        )
        if defer:
            # sent with this node's first sync point report (check_resource): one round
            # trip and one commit; every other write of the resource sends it first
            self._pending_write = write
        elif not write.run():
            raise exception.UpdateInProgress(resource_name=self.name)
        self.atomic_key += 1
        self.engine_id = lock
        self.updated_time = now
        event.maybe_purge(self.stack.id)

    # -- data for dependents ---------------------------------------------------------------

    def node_data(self, attr_names=()):
        """What this resource sends along its graph edges (docs/rpc-and-convergence.md §4.9).

        The attributes are read from one view of the physical resource (``read_once``):
        one GET of the object, one resolution of a child stack's outputs."""
        attrs, errors = {}, {}
        self._read_memo = {}
        try:
            for name in attr_names:
                try:
                    attrs[name] = self.get_attribute(name)
                except Exception as exc:  # sent as None, with the error reading it raises
                    attrs[name] = None
                    errors[name] = str(exc)
        finally:
            self._read_memo = None
        data = {
            "id": self.id,
            "name": self.name,
            "reference_id": self.get_reference_id(),
            "attrs": attrs,
            "status": self.status,
            "action": self.action,
            "uuid": self.uuid,
        }
        if errors:
            data["attr_errors"] = errors
        return data


def _resolved(props, defn):
    """Resolved property values: the schema's view when there is one, else the raw snippet."""
    if props is None:
        return dict(defn.resolved_properties() or {})
    return {key: props[key] for key in props}


def _metadata_snippet(defn):
    """The unresolved ``metadata`` snippet of a definition, for comparison."""
    return defn.render_hot().get("metadata")
