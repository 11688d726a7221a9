"""Nested stacks: the StackResource base and provider templates (TemplateResource).

A nested stack resource owns a real child stack: ``handle_create`` asks the engine (over
RPC, as Heat's ``stack_resource`` does) to create the child with ``owner_id`` = this
stack and ``nested_depth`` one deeper; ``check_*_complete`` poll the child's row. The
child inherits the parent's environment (resource_registry, parameter_defaults) and
files; its parameters are the resource's own. Attributes are the child's outputs.

    rsrc.handle_create()              # -> child stack id, stored as resource_id
    rsrc.get_attribute('fixed_ip')    # -> the child's output "fixed_ip"
"""

import copy
import json
import logging
import re
import urllib.parse

from heat_lite.common import exception, identifier, template_format
from heat_lite.conf import CONF
from heat_lite.engine import environment, hooks, properties, resource, templates
from heat_lite.rpc import api as rpc_api

LOG = logging.getLogger(__name__)

P = properties.Schema

STACK_ID_OUTPUT = "OS::stack_id"

# a child stack's failure reason: "Resource CREATE failed: ValueError: resources.x: msg"
_CHILD_REASON_RE = re.compile(
    r"^(?:Resource [A-Z_]+ failed: )?(?:([A-Za-z_]\w*): )?(resources(?:\.[^.:\[\]\s]+|\[\d+\])+): "
    r"(.*)$",
    re.S,
)
_PATH_ITEM_RE = re.compile(r"\.([^.:\[\]\s]+)|\[(\d+)\]")


def as_stored(value):
    """``value`` as it comes back from the database (JSON), for comparisons."""
    return json.loads(json.dumps(value, default=str, sort_keys=True))


def _template(child_template):
    from heat_lite.engine import template as tmpl_mod

    return tmpl_mod.Template(child_template)


# -- validation before anything is stored (Heat's validate_nested_stack) ------------------


def _nested_failure(ex, path):
    """``ex`` from inside a child as the parent's StackValidationFailed at ``path``."""
    if isinstance(ex, exception.StackValidationFailed):
        return exception.StackValidationFailed(
            error=ex.error, path=path + ex.path, message=ex.error_message
        )
    return exception.StackValidationFailed(error=type(ex).__name__, path=path, message=str(ex))


class NestedValidation:
    """What a nested stack resource checks while its (root) stack is validated: the child
    it would create parses and validates (without values), recursively; its depth and
    the resource budget of the whole tree (max_resources_per_stack) hold."""

    # what error paths show between <> (TemplateResource: the template's name)
    template_url = "nested_stack"

    def validate_nested_stack(self, strict=True):
        if (self.stack.nested_depth or 0) and strict:
            return  # the root validated the whole tree already
        try:
            child = self.parse_nested_stack(self.validation_template())
            child.validate(strict=False)
        except Exception as ex:
            path = [self.stack.t.RESOURCES, "%s<%s>" % (self.name, self.template_url)]
            raise _nested_failure(ex, path)

    def validation_template(self):
        return self.child_template()

    def parse_nested_stack(self, child_template):
        """The child Stack (not stored) this resource would create from ``child_template``."""
        from heat_lite.engine import stack as parser
        from heat_lite.engine import template as tmpl_mod

        self._check_depth()
        tmpl = tmpl_mod.Template(child_template, files=self.child_files(), env=self.child_env())
        self.check_resource_budget(tmpl)
        child = parser.Stack(
            self.stack.context,
            "%s-%s" % (self.stack.name, self.name),
            tmpl,
            owner_id=self.stack.id,
            nested_depth=(self.stack.nested_depth or 0) + 1,
            parent_resource_name=self.name,
        )
        child.parent_resource = self
        return child

    def check_resource_budget(self, tmpl):
        """max_resources_per_stack over the whole tree: the child's resources plus every
        resource under the root stack, less the child's own existing ones (an update)."""
        limit = CONF.max_resources_per_stack
        if limit == -1:
            return
        total = len(tmpl.resource_names())
        if self.stack.id is not None:
            total += self.stack.total_resources()
        if self.resource_id:
            total -= len(self.stack_resource_rows(self.resource_id))
        if total > limit:
            raise exception.resource_limit_exceeded()


class StackResource(NestedValidation, resource.Resource):
    """Base of the resources whose physical resource is a child stack."""

    nested_stack = True
    # outputs of the child: any attribute name may be asked for
    dynamic_attributes = True
    # a preview shows the child's resources in place of this one (Heat's preview)
    preview_nested = True

    # -- what the child is made of (subclasses) ---------------------------------------------

    def child_template(self):
        raise NotImplementedError

    def child_params(self):
        return {}

    def owner_stack(self):
        """The stack the resource's current definition belongs to: during an update the
        new one (its files and environment are what the child gets)."""
        return getattr(self.t, "stack", None) or self.stack

    def child_files(self):
        return dict(self.owner_stack().t.files or {})

    def child_timeout(self):
        return self.stack.timeout_mins

    def child_env(self):
        """The parent's environment with this resource's parameters (as Heat's
        ``get_child_environment``: registry and parameter_defaults are inherited)."""
        env = copy.deepcopy(self.owner_stack().env or {})
        env.pop(environment.ENCRYPTED_PARAM_NAMES, None)
        env[environment.PARAMETERS] = self.child_params()
        # per-resource entries (hooks, mappings): the child gets what is under this name
        registry = env.setdefault(environment.RESOURCE_REGISTRY, {})
        registry["resources"] = hooks.child_resources(self.owner_stack().env, self.name)
        return {key: value for key, value in env.items() if value is not None}

    # -- the child stack -------------------------------------------------------------------

    def _client(self):
        from heat_lite.rpc import client

        return client.EngineClient()

    def _child_row(self, show_deleted=False):
        if not self.resource_id:
            return None
        return self.stack_row(self.resource_id, show_deleted=show_deleted)

    def _child_identity(self, row):
        return {"tenant": row.tenant, "stack_name": row.name, "stack_id": row.id, "path": ""}

    def child_stack(self):
        """The child Stack (None before it exists)."""
        from heat_lite.engine import stack as parser

        row = self._child_row()
        if row is None:
            return None
        return parser.Stack.load(self.stack.context, row=row)

    def child_outputs(self):
        """The child's output values (an output that cannot be resolved is None)."""
        return {name: value for name, (value, _error) in self._child_output_results().items()}

    def _child_output_results(self):
        """{output name: (value, the error resolving it or None)} of the child stack."""
        child = self.child_stack()
        if child is None:
            return {}
        child.node_data = child.stored_node_data()
        results = {}
        for name, output in child.t.outputs(child).items():
            try:
                results[name] = (output.get_value(), None)
            except Exception as exc:
                results[name] = (None, exc)
        return results

    def nested_identifier(self):
        """The child's HeatIdentifier (None before it exists)."""
        row = self._child_row()
        if row is None:
            return None
        return identifier.HeatIdentifier(row.tenant, row.name, row.id)

    def nested_resources(self):
        """{name: Resource} of the child's current resources (created, not replaced)."""
        from heat_lite.engine import resource as rsrc_mod

        child = self.child_stack()
        if child is None:
            return {}
        rows = self.stack_resource_rows(child.id)
        resources = {}
        for row in rows:
            defn = child.definitions.get(row.name)
            if row.replaced_by is None and row.action != "INIT" and defn is not None:
                resources[row.name] = rsrc_mod.Resource.load(row, child, defn)
        return resources

    def nested_attribute(self, key, *path):
        """``resource.<name>[.<attr>]`` (Heat's grouputils.get_nested_attrs): a child
        resource's reference, or its attribute selected along the rest of ``path``."""
        parts = key.split(".", 2)[1:] + list(path)
        member = self.nested_resources().get(str(parts[0]))
        if member is None:
            return None
        if len(parts) == 1:
            return member.get_reference_id()
        return member.get_attribute(*parts[1:])

    def metadata_get(self):
        """This resource's metadata as the child's ``resource_facade: metadata`` reads it
        (Heat's metadata_get): what is stored for it, else its definition's."""
        if self.id is not None:
            row = self.stored_row()
            if row is not None and row.rsrc_metadata is not None:
                return row.rsrc_metadata
        return self._resolved_metadata(self.t)

    def start_values(self, action):
        """The resolved metadata, stored by the write that starts a create or update
        (before the child is created or updated), so that the child's
        ``resource_facade: metadata`` reads the current one, as Heat stores it when the
        action starts."""
        if action not in (rpc_api.CREATE, rpc_api.UPDATE):
            return {}
        return {"rsrc_metadata": self._resolved_metadata(self.t)}

    # -- convergence hooks -----------------------------------------------------------------

    def _check_depth(self):
        limit = CONF.max_nested_stack_depth
        if (self.stack.nested_depth or 0) >= limit:
            raise exception.RequestLimitExceeded(message="Recursion depth exceeds %d." % limit)

    def handle_create(self):
        return self.create_with_template(self.child_template())

    def _unrecorded_children(self):
        """Live child stacks made for this resource's name that no resource of the parent
        records: a worker killed between the child's create and resource_id_set left one
        (the takeover, or the delete, finds it here)."""
        children = self.stack.child_stack_rows(self.name)
        mine = [
            c for c in children if c.parent_resource_name == self.name and c.id != self.resource_id
        ]
        if not mine:  # (the common case: no other child than the one this resource records)
            return []
        recorded = {r.nova_instance for r in self.stack_resource_rows(self.stack.id)}
        return [c for c in mine if c.id not in recorded]

    def create_with_template(self, child_template):
        """Create the child stack from ``child_template``; returns its id. A child an
        earlier try made but could not record (its worker was killed) is taken instead."""
        self._check_depth()
        self.check_resource_budget(_template(child_template))
        for orphan in self._unrecorded_children():
            LOG.info("%s takes the child stack %s an earlier try made", self.name, orphan.id)
            self.resource_id_set(orphan.id)
            return orphan.id
        ident = self._client().create_stack(
            self.stack.context,
            self.physical_resource_name(),
            child_template,
            self.child_env(),
            self.child_files(),
            {rpc_api.PARAM_TIMEOUT: self.child_timeout(), rpc_api.PARAM_DISABLE_ROLLBACK: True},
            owner_id=self.stack.id,
            nested_depth=(self.stack.nested_depth or 0) + 1,
            user_creds_id=self.stack.user_creds_id,
            stack_user_project_id=self.stack.stack_user_project_id,
            parent_resource_name=self.name,
        )
        # stored at once: `stack hook clear parent nest/inner` finds the child through it
        self.resource_id_set(ident["stack_id"])
        return ident["stack_id"]

    def watched_stack(self, token):
        """check_*_complete waits for the child: its end wakes the poll (stack_watch)."""
        return self.resource_id or (token if isinstance(token, str) else None)

    def _check_child(self, action):
        row = self._child_row()
        if row is None:
            raise exception.NotFound("Nested stack %s not found" % self.resource_id)
        if row.action != action:
            return False
        if row.status == rpc_api.FAILED:
            raise self._child_failure(row.status_reason, action)
        return row.status == rpc_api.COMPLETE

    def _child_failure(self, reason, action):
        """The child's failure as this resource's: ``ValueError: resources.bad: msg`` of
        the child becomes ``ValueError: resources.<name>.resources.bad: msg``."""
        failure = exception.ResourceFailure(reason or "", self, action)
        match = _CHILD_REASON_RE.match(reason or "")
        if match is None:
            return failure
        error, path_text, message = match.groups()
        path = ["resources", self.name, "resources"] + [
            dotted or indexed for dotted, indexed in _PATH_ITEM_RE.findall(path_text)
        ]
        exception.HeatExceptionWithPath.__init__(failure, error=error, path=path, message=message)
        return failure

    def check_create_complete(self, token):
        return self._check_child(rpc_api.CREATE)

    def needs_replace(self, prop_diff, after):
        """A nested stack is updated, whatever changed, unless its plugin needs a new one."""
        return self.needs_replace_with_prop_diff(prop_diff, after)

    def update_needed_anyway(self, new_defn):
        """The properties did not change, yet the child would: its template (e.g. the
        provider template's file content), files or parameters differ from the stored
        child's. (Heat updates a nested stack on every update of its parent.)"""
        row = self._child_row()
        if row is None:
            return False
        new = copy.copy(self)
        new.t = new_defn
        new.properties = (
            new_defn.properties(self.properties_schema) if self.validate_properties else None
        )
        stored = templates.load(row.raw_template_id)
        stored_params = (stored.env or {}).get(environment.PARAMETERS) or {}
        return (
            as_stored(new.child_template()) != as_stored(stored.t)
            or as_stored(new.child_params()) != as_stored(stored_params)
            or new.child_files() != dict(stored.files or {})
        )

    def handle_update(self, new_defn, prop_diff):
        return self.update_with_template(self.child_template())

    def update_with_template(self, child_template):
        """Update the child stack to ``child_template``; returns its id."""
        row = self._child_row()
        if row is None:
            raise exception.NotFound("Nested stack %s not found" % self.resource_id)
        self.check_resource_budget(_template(child_template))
        self._client().update_stack(
            self.stack.context,
            self._child_identity(row),
            child_template,
            self.child_env(),
            self.child_files(),
            {rpc_api.PARAM_TIMEOUT: self.child_timeout(), rpc_api.PARAM_DISABLE_ROLLBACK: True},
        )
        return row.id

    def check_update_complete(self, token):
        return self._check_child(rpc_api.UPDATE)

    def handle_delete(self):
        for orphan in self._unrecorded_children():
            LOG.info("%s deletes the child stack %s it did not record", self.name, orphan.id)
            try:
                self._client().delete_stack(self.stack.context, self._child_identity(orphan))
            except exception.EntityNotFound:
                pass
        row = self._child_row()
        if row is None:
            return None
        if row.action == rpc_api.DELETE and row.status == rpc_api.COMPLETE:
            return None
        try:
            self._client().delete_stack(self.stack.context, self._child_identity(row))
        except exception.EntityNotFound:
            pass
        return row.id

    def check_delete_complete(self, token):
        if token is None:
            return True
        row = self.stack_row(token, show_deleted=True)
        if row is None or row.deleted_at is not None:
            return True
        if row.action != rpc_api.DELETE:
            return False
        if row.status == rpc_api.FAILED:
            raise self._child_failure(row.status_reason, rpc_api.DELETE)
        return row.status == rpc_api.COMPLETE

    # -- actions that follow the parent's: suspend, resume, check, abandon -------------------

    def _child_action(self, method):
        """Run stack action ``method`` (an EngineClient method) on the child; the token is
        the action to wait for."""
        row = self._child_row()
        if row is None:
            raise exception.NotFound("Nested stack %s not found" % self.resource_id)
        getattr(self._client(), method)(self.stack.context, self._child_identity(row))
        return row.id

    def handle_suspend(self):
        return self._child_action("stack_suspend")

    def check_suspend_complete(self, token):
        return self._check_child(rpc_api.SUSPEND)

    def handle_resume(self):
        return self._child_action("stack_resume")

    def check_resume_complete(self, token):
        return self._check_child(rpc_api.RESUME)

    def handle_check(self):
        return self._child_action("stack_check")

    def check_check_complete(self, token):
        return self._check_child(rpc_api.CHECK)

    def handle_abandon(self):
        """The parent is abandoned: so is the child (its resources are retained too)."""
        row = self._child_row()
        if row is None:
            return None
        try:
            self._client().abandon_stack(self.stack.context, self._child_identity(row))
        except exception.EntityNotFound:
            return None
        return row.id

    def check_abandon_complete(self, token):
        return self.check_delete_complete(token)

    # -- attributes ------------------------------------------------------------------------

    def get_attribute(self, key, *path):
        results = self.read_once("outputs", self._child_output_results)
        if key not in results:
            return None
        value, error = results[key]
        if error is not None:  # as Heat's get_output
            raise exception.TemplateOutputError(resource=self.name, attribute=key, message=error)
        for part in path:
            if isinstance(value, dict):
                value = value.get(part)
            elif (
                isinstance(value, list)
                and isinstance(part, int)
                and -len(value) <= part < len(value)
            ):
                value = value[part]
            else:
                return None
        return value


def _resolved_props(rsrc):
    if rsrc.properties is not None:
        return {key: rsrc.properties[key] for key in rsrc.properties}
    return dict(rsrc.t.resolved_properties() or {})


class TemplateResource(StackResource):
    """A resource whose type is a provider template (from ``files``): its properties are
    the child's parameters, its attributes the child's outputs; its reference is the
    child's ``OS::stack_id`` output when there is one, else the child stack's ARN."""

    template_name = None
    # the properties are the provider template's parameters, checked by the child stack
    validate_properties = False
    attributes_schema = {}

    def child_template(self):
        files = self.child_files()
        if self.template_name not in files:
            raise not_fetched(self.template_name)
        return template_format.parse(files[self.template_name])

    @property
    def template_url(self):
        return self.template_name

    def take_class(self, new_cls):
        """Another provider template file (the environment maps the type to
        ``new/nested.yaml`` now) is an update of the child to that file's template, not a
        replacement: Heat has one TemplateResource class for every file."""
        if not issubclass(new_cls, TemplateResource):
            return False
        self.template_name = new_cls.template_name
        return True

    def child_env(self):
        """As Heat's get_child_environment(item_to_remove=...): the mapping that made this
        resource a provider template is not inherited, so a template that uses the type it
        stands in for gets the built-in type, not itself again."""
        env = super().child_env()
        registry = env.get(environment.RESOURCE_REGISTRY) or {}
        if registry.get(self.type_name) == self.template_name:
            del registry[self.type_name]
        return env

    def validate_nested_stack(self, strict=True):
        """The properties against the provider template's parameters, then the child."""
        self.validate_provider_properties(strict)
        super().validate_nested_stack(strict)
        self.validate_against_facade()

    def provider_schema(self):
        """(property schemas from the template's parameters, its output names); None
        when the template does not parse (its own validation reports that)."""
        tmpl = self.child_template()
        if not isinstance(tmpl, dict):
            return None
        from heat_lite.engine import template as tmpl_mod

        defaults = (self.owner_stack().env or {}).get(environment.PARAMETER_DEFAULTS)
        try:
            parsed = tmpl_mod.Template(tmpl, files=self.child_files())
            schemata = parsed.param_schemata(defaults)
            outputs = set(parsed.t.get(parsed.OUTPUTS) or {})
        except (exception.HeatException, AttributeError, TypeError):
            return None
        return properties.schema_from_params(schemata), outputs

    def validate_provider_properties(self, strict=True):
        """The properties as Heat's TemplateResource schema (its parameters) sees them:
        unknown ones; with ``strict`` also required ones not given and value types."""
        schema = self.provider_schema()
        if schema is not None:
            self.t.properties(schema[0]).validate(with_value=strict)

    def facade_class(self):
        """The plugin type this template stands in for (an environment maps a built-in
        type to it), None for a type of its own."""
        from heat_lite.engine import resources

        if environment.is_template(self.type_name):
            return None
        try:
            return resources.get_class(self.type_name)
        except exception.HeatException:
            return None

    def validate_against_facade(self):
        """As Heat's TemplateResource._validate_against_facade: the template offers what
        the type it stands in for has (required properties of the same type, every
        attribute) and requires no property that type does not know."""
        facade, schema = self.facade_class(), self.provider_schema()
        if facade is None or schema is None:
            return
        props, outputs = schema
        kind = self.type_name
        for name, fs in facade.properties_schema.items():
            if fs.required and name not in props:
                raise exception.StackValidationFailed(
                    message="Required property %s for facade %s missing in provider" % (name, kind)
                )
            if name in props and _param_prop_type(fs.type) != props[name].type:
                raise exception.StackValidationFailed(
                    message="Property %s type mismatch between facade %s (%s) and provider (%s)"
                    % (name, kind, fs.type, props[name].type)
                )
        for name, ps in props.items():
            if ps.required and name not in facade.properties_schema:
                raise exception.StackValidationFailed(
                    message="Provider requires property %s unknown in facade %s" % (name, kind)
                )
        for attr in facade.attributes_schema:
            if attr not in outputs and attr != "show":
                raise exception.StackValidationFailed(
                    message="Attribute %s for facade %s missing in provider" % (attr, kind)
                )

    def child_params(self):
        params = {}
        for key, value in _resolved_props(self).items():
            if value is None:
                continue
            params[key] = value
        return params

    def get_reference_id(self):
        """The child's ``OS::stack_id`` output, else the child's ARN identifier."""
        if self.resource_id is None:
            return self.name
        try:
            outputs = self.child_outputs()
        except Exception:
            outputs = {}
        if outputs.get(STACK_ID_OUTPUT) is not None:
            return outputs[STACK_ID_OUTPUT]
        ident = self.nested_identifier()
        return ident.arn() if ident is not None else self.resource_id

    def get_attribute(self, key, *path):
        if key.startswith("resource."):
            return self.nested_attribute(key, *path)
        return super().get_attribute(key, *path)


def _param_prop_type(prop_type):
    """The property type a parameter gives for ``prop_type`` (an Integer property comes
    from a number parameter), as Heat's Schema.allowed_param_prop_type."""
    return properties.Schema.NUMBER if prop_type == properties.Schema.INTEGER else prop_type


_TEMPLATE_CLASSES = {}


def not_fetched(name):
    """A provider template missing from ``files``: heat-lite fetches no URL, so Heat's
    answer for a scheme it may not fetch (``Invalid URL scheme file``)."""
    scheme = urllib.parse.urlparse(name).scheme
    return exception.StackValidationFailed(
        message='Could not fetch remote template "%s": Invalid URL scheme %s' % (name, scheme)
    )


def template_class(name, files=None):
    """The TemplateResource class of provider template ``name`` (one class per name, so
    a resource keeps its class while the template's content changes)."""
    if name not in (files or {}):
        raise not_fetched(name)
    cls = _TEMPLATE_CLASSES.get(name)
    if cls is None:
        cls = type("TemplateResource", (TemplateResource,), {"template_name": name})
        _TEMPLATE_CLASSES[name] = cls
    return cls
