"""The base of resource plugins backed by a cloud service (Nova, Neutron, Cinder, Octavia).

A plugin names its service (``default_client_name``) and the service's entity
(``entity``); the base gives the rest of Heat's usual behaviour:

* ``client_plugin()``: the service's client plugin (heat_lite.engine.clients), acting
  for the stack's project;
* ``handle_delete``/``check_delete_complete``: delete the physical resource (gone
  already is fine) and wait until the service no longer shows it;
* attributes: ``show`` is the service's view of the object, other attributes are its
  fields (plugins override ``_resolve_attribute``);
* ``wait_for_status``: the check_*_complete step of objects that build asynchronously,
  raising ResourceInError ("Went to status ERROR due to ...") when they fail.

    class Volume(ClientResource):
        default_client_name, entity = 'cinder', 'volume'
"""

import time

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.engine import attributes, clients, resource
from heat_lite.engine.clients import client_exception
from heat_lite.rpc import api as rpc_api


class ClientResource(resource.Resource):
    default_client_name = None
    entity = None
    # cloud objects are polled (as Heat does), not spun on
    poll_cap = 0.1

    def __init__(self, name, definition, stack):
        super().__init__(name, definition, stack)
        # custom constraints (nova.flavor, neutron.network...) look names up in the
        # stack's project
        self.properties = definition.properties(self.properties_schema, stack.context)

    def client_plugin(self, name=None):
        return clients.client_plugin(self.stack.context, name or self.default_client_name)

    # -- validating (stack validation; Heat's Resource.validate) ---------------------------

    # groups of properties of which at least one must be given / at most one may be given
    one_of = ()
    exclusive = ()

    def given(self, *names):
        """The names set in the template (a value still to come from a resource counts)."""
        data = self.t.properties_data
        if not isinstance(data, dict):
            return list(names)  # the whole map is a function: cannot tell
        return [n for n in names if data.get(n) is not None]

    def validate(self):
        for names in self.one_of:
            if not self.given(*names):
                raise exception.PropertyUnspecifiedError(*names)
        for names in self.exclusive:
            if len(self.given(*names)) > 1:
                raise exception.ResourcePropertyConflict(*names)

    # -- creating ---------------------------------------------------------------------------

    def _create_steps(self):
        """Heat's create retries: a build that fails "in error" (or a 409) is deleted and
        made again, up to ``[DEFAULT] action_retry_limit`` times; then the failure stands."""
        handle, check = super()._create_steps()
        retries = {"left": max(CONF.action_retry_limit, 0)}

        def attempt(box):
            try:
                box["token"] = handle()
            except client_exception.Conflict as exc:
                retry(box, exc)

        def retry(box, failure):
            if retries["left"] <= 0:
                raise failure
            retries["left"] -= 1
            token = self.handle_delete()
            while not self.check_delete_complete(token):
                time.sleep(self.poll_cap)
            self.resource_id_set(None)
            attempt(box)

        def handle_with_retries():
            box = {}
            attempt(box)
            return box

        def check_with_retries(box):
            try:
                return check(box.get("token"))
            except (exception.ResourceInError, client_exception.Conflict) as exc:
                retry(box, exc)
                return False

        return handle_with_retries, check_with_retries

    def created_name(self):
        """The name the create gives the object (Heat's: the ``name`` property, else the
        physical resource name, which the resource's uuid makes unique); None when the
        entity has no name."""
        if "name" not in self.properties_schema:
            return None
        return self.properties["name"] or self.physical_resource_name()

    def unrecorded_object_filters(self):
        """The list filters that single out the object this resource's create makes (the
        name it gives it), or None when nothing does."""
        name = self.created_name()
        return {"name": name} if name else None

    def find_unrecorded_object(self):
        """The object of the plugin's entity that ``unrecorded_object_filters`` single out
        and no resource records: a worker killed between the cloud's answer to the create
        and resource_id_set made it (several such: None, nothing is guessed)."""
        try:
            filters = self.unrecorded_object_filters() if self.entity else None
        except (client_exception.NotFound, exception.EntityNotFound):
            filters = None  # what it refers to is gone: so is the object
        if not filters:
            return None
        ids = [obj["id"] for obj in self.client_plugin().list(self.entity, **filters)]
        unrecorded = set(ids) - self.physical_ids_recorded(ids)
        return unrecorded.pop() if len(unrecorded) == 1 else None

    # -- a FAILED resource's next update (Heat's needs_replace_failed) ----------------------

    # None: a FAILED resource is replaced (Heat's default); a tuple of states: its object
    # is kept unless it is gone or in one of them (a create a dead worker left is taken
    # over, not made again; () keeps it in any state)
    replace_failed_in = None

    def needs_replace_failed(self):
        if self.replace_failed_in is None or self.resource_id is None:
            return True
        try:
            obj = self._status_resource()
        except (client_exception.NotFound, exception.EntityNotFound):
            return True
        return obj.get("status") in self.replace_failed_in

    # -- replacing (Heat's _prepare_update_replace) -----------------------------------------

    def needs_replace(self, prop_diff, after):
        """Whether the update needs a new physical resource; if so, the old one first
        makes way for it (``prepare_for_replace``), as Heat does before the replacement."""
        if not super().needs_replace(prop_diff, after):
            return False
        self.prepare_for_replace()
        return True

    def prepare_for_replace(self):
        """Free what the replacement needs (a server's ports, a port's addresses)."""

    def update_convergence(self, template_id, requires, engine_id, timeout, new_defn):
        """In a rollback, a resource that was replaced first takes back what its
        replacement took (Heat's restore_prev_rsrc(convergence=True))."""
        rolling_back = (self.stack.action, self.stack.status) == (
            rpc_api.ROLLBACK,
            rpc_api.IN_PROGRESS,
        )
        if rolling_back and self.replaced_by is not None:
            try:
                self.restore_prev_rsrc(self.replacement_resource_id())
            except Exception as exc:
                raise exception.ResourceFailure(exc, self, rpc_api.UPDATE)
        super().update_convergence(template_id, requires, engine_id, timeout, new_defn)

    def restore_prev_rsrc(self, replacement_id):
        """Take back from the replacement (``replacement_id``) what prepare_for_replace gave."""

    # -- reading ----------------------------------------------------------------------------

    def _show_resource(self):
        return self.client_plugin().show(self.entity, self.resource_id)

    def _resolve_attribute(self, name, obj):
        return obj.get(name)

    def get_attribute(self, key, *path):
        if self.resource_id is None:
            return None
        try:
            obj = self.read_once("show", self._show_resource)
        except (client_exception.NotFound, exception.EntityNotFound):
            return None
        value = obj if key == attributes.SHOW_ATTR else self._resolve_attribute(key, obj)
        return attributes.select_from_attribute(value, path) if path else value

    def _status_resource(self):
        """The object whose ``status`` (and ``fault``) wait_for_status reads: the shown
        one, unless a plugin's show adds look-ups a status needs not."""
        return self._show_resource()

    def wait_for_status(self, ready, failed=("ERROR", "error"), obj=None):
        """True once the object (``obj``, when the caller read it already) is ``ready``;
        its error state raises ResourceInError."""
        if obj is None:
            obj = self._status_resource()
        if obj["status"] == ready:
            return True
        if obj["status"] in failed:
            fault = obj.get("fault") or {}
            reason = "Message: %s, Code: %s" % (
                fault.get("message", "Unknown"),
                fault.get("code", "Unknown"),
            )
            raise exception.ResourceInError(resource_status=obj["status"], status_reason=reason)
        return False

    # -- checking (stack CHECK) ---------------------------------------------------------------

    # the states CHECK accepts (Heat's _verify_check_conditions); None: it must only exist
    check_states = None

    def handle_check(self):
        obj = self._show_resource()
        expected = self.check_states
        if expected is None:
            return
        valid = (
            obj["status"] in expected if isinstance(expected, list) else obj["status"] == expected
        )
        if not valid:
            raise exception.Error("'status': expected '%s', got '%s'" % (expected, obj["status"]))

    # -- observing (update --converge, observe_on_update) ------------------------------------

    def get_live_state(self, resource_properties):
        """The object as its service has it now (Heat's get_live_resource_data, then
        parse_live_resource_data); EntityNotFound when it is gone."""
        try:
            obj = self._show_resource()
        except (client_exception.NotFound, exception.EntityNotFound):
            raise exception.EntityNotFound(entity="Resource", name=self.name)
        return self.parse_live_resource_data(resource_properties, obj)

    def parse_live_resource_data(self, resource_properties, obj):
        """The update-allowed scalar properties the object reports (a ``name`` the
        template left unset stays unset: the physical name stood in for it). Lists and
        maps are shaped differently in the API than in the template (``fixed_ips`` with
        ``subnet_id`` and the allocated address): plugins that can map them override this."""
        live = {}
        for key, schema in self.properties_schema.items():
            if (
                schema.update_allowed
                and key in obj
                and isinstance(obj[key], (str, int, float, bool, type(None)))
            ):
                if key == "name" and resource_properties.get(key) is None:
                    continue
                live[key] = obj[key]
        return live

    # -- deleting ---------------------------------------------------------------------------

    def _delete_resource(self, resource_id):
        """Ask the service to delete (plugins with a special call override)."""
        self.client_plugin().delete(self.entity, resource_id)

    def handle_delete(self):
        if self.resource_id is None:
            return None
        try:
            self._delete_resource(self.resource_id)
        except client_exception.NotFound:
            return None
        return self.resource_id

    def check_delete_complete(self, resource_id):
        if resource_id is None:
            return True
        return self.client_plugin().get(self.entity, resource_id) is None
