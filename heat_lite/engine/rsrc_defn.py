"""Resource and output definitions: one ``resources``/``outputs`` entry, functions parsed.

defns = tmpl.resource_definitions(stack)          # {name: ResourceDefinition}
web = defns['web']
web.resource_type, web.depends_on                 # 'OS::Nova::Server', ['db']
web.required_resource_names()                     # {'db', 'port'} (depends_on + refs)
web.dep_attrs('port')                             # {('fixed_ips', 0, 'ip_address')}
web.properties(Server.properties_schema)['flavor']
outputs = tmpl.outputs(stack)                     # {name: OutputDefinition}
outputs['ip'].get_value()

Error paths use the template's own spelling: ``resources.web.properties`` for HOT,
``Resources.web.Properties`` for CFN (the template passes ``section_names``).
"""

import collections
import copy
import itertools

from heat_lite.common import exception
from heat_lite.engine import function, properties

# the section names as Heat passes them internally, and their HOT spelling
FIELDS = (
    TYPE,
    PROPERTIES,
    METADATA,
    DELETION_POLICY,
    UPDATE_POLICY,
    DEPENDS_ON,
    DESCRIPTION,
    EXTERNAL_ID,
    CONDITION,
) = (
    "type",
    "properties",
    "metadata",
    "deletion_policy",
    "update_policy",
    "depends_on",
    "description",
    "external_id",
    "condition",
)
RESOURCES, OUTPUTS, VALUE = "resources", "outputs", "value"
# CFN spellings appear in InvalidTemplateReference paths ("r.Properties.image")
_REF_SECTIONS = {PROPERTIES: "Properties", METADATA: "Metadata"}


def _section_name(section_names, field):
    """``field``'s spelling in the template (``section_names`` maps; HOT by default)."""
    return (section_names or {}).get(field, field)


def _attr_map(snippets):
    attr_map = collections.defaultdict(set)
    for name, path in itertools.chain.from_iterable(map(function.all_dep_attrs, snippets)):
        try:
            attr_map[name].add(path)
        except TypeError:  # an unhashable path component: that get_attr resolves to None
            continue
    return attr_map


class ResourceDefinition:
    """A resource as the template defines it, independent of its current state."""

    DELETION_POLICIES = (DELETE, RETAIN, SNAPSHOT) = ("Delete", "Retain", "Snapshot")

    def __init__(
        self,
        name,
        resource_type,
        properties=None,
        metadata=None,
        depends=None,
        deletion_policy=None,
        update_policy=None,
        description=None,
        external_id=None,
        condition=None,
        stack=None,
        section_names=None,
    ):
        self.name = name
        self.resource_type = resource_type
        self.description = description or ""
        self._properties = properties
        self._metadata = metadata
        self._depends = list(depends) if depends else None
        self._deletion_policy = deletion_policy
        self._update_policy = update_policy
        self._external_id = external_id
        self._condition = condition
        self._stack = stack
        self._section_names = section_names
        if external_id is not None:
            self._deletion_policy = self.RETAIN
        self._dep_names = None

    @property
    def stack(self):
        """The stack the definition was parsed for (its functions resolve against it)."""
        return self._stack

    @property
    def depends_on(self):
        """The explicit ``depends_on`` names (always a list)."""
        return list(self._depends or [])

    @property
    def properties_data(self):
        """The parsed ``properties`` snippet (functions not resolved)."""
        return self._properties

    @property
    def update_policy_data(self):
        """The parsed ``update_policy`` snippet (functions not resolved)."""
        return self._update_policy

    def _path(self, section):
        names = self._section_names
        return [_section_name(names, RESOURCES), self.name, _section_name(names, section)]

    def validate(self):
        """Validate every function; errors read ``resources.<name>.<section>...: msg``."""
        for section, snippet in (
            (PROPERTIES, self._properties),
            (METADATA, self._metadata),
            (DEPENDS_ON, self._depends),
            (DELETION_POLICY, self._deletion_policy),
            (UPDATE_POLICY, self._update_policy),
            (EXTERNAL_ID, self._external_id),
        ):
            function.validate(snippet, self._path(section))

    def required_resource_names(self):
        """Names this resource needs first: depends_on plus get_resource/get_attr targets.

        A reference to a resource that does not exist raises InvalidTemplateReference
        (``The specified reference "x" (in r.Properties.image) is incorrect.``).
        """
        if self._dep_names is None:
            if self.external_id():
                if self._depends:
                    raise exception.InvalidExternalResourceDependency(
                        external_id=self.external_id(), resource_type=self.resource_type
                    )
                self._dep_names = set()
            else:
                self._dep_names = self.explicit_resource_names() | self._type_dependencies()
        return self._dep_names

    def explicit_resource_names(self):
        """The names the template itself says this resource needs: depends_on plus
        get_resource/get_attr targets (Heat's explicit dependencies)."""
        return self._implicit_names() | set(self.depends_on)

    def _type_dependencies(self):
        """Names the resource type itself requires (Heat's ``add_dependencies``: e.g. a
        floating IP waits for the stack's router interfaces). A plugin declares them in
        ``implied_dependencies(defn, stack)``."""
        resource_class = getattr(self._stack, "resource_class", None)
        if resource_class is None:
            return set()
        try:
            hook = getattr(resource_class(self), "implied_dependencies", None)
        except exception.HeatException:
            return set()
        return set(hook(self, self._stack)) - {self.name} if hook is not None else set()

    def _implicit_names(self):
        names = set()
        for section, snippet in ((PROPERTIES, self._properties), (METADATA, self._metadata)):
            path = "%s.%s" % (self.name, _REF_SECTIONS[section])
            names.update(function.dependencies(snippet, path))
        return names

    def dep_attrs(self, resource_name):
        """Attribute paths (tuples) of ``resource_name`` used in properties and metadata."""
        return self.all_dep_attrs().get(resource_name, set())

    def all_dep_attrs(self):
        """{resource name: set of attribute paths} used in properties and metadata."""
        return dict(_attr_map([self._properties, self._metadata]))

    def resolved_properties(self):
        """The property snippet with every function resolved."""
        return function.resolve(self._properties) or {}

    def properties(self, schema, context=None, stored=None):
        """A Properties view of this definition against a resource type's schema; with
        ``stored``, of those resolved values instead (Heat's frozen definition)."""
        return properties.Properties(
            schema,
            (self._properties or {}) if stored is None else stored,
            function.resolve,
            parent_name=".".join(self._path(PROPERTIES)),
            context=context,
            rsrc_description=self.description,
            is_pending=self._is_pending,
        )

    def _is_pending(self, snippet):
        in_init = getattr(self._stack, "resource_in_init", None)
        if in_init is None:
            return False
        return any(in_init(name) for name in function.dependencies(snippet))

    def update_policy(self, schema, context=None):
        """A Properties view of ``update_policy`` against the type's policy schema."""
        return properties.Properties(
            schema,
            self._update_policy or {},
            function.resolve,
            parent_name=".".join(self._path(UPDATE_POLICY)),
            context=context,
        )

    def metadata(self):
        return function.resolve(self._metadata) or {}

    def deletion_policy(self):
        return function.resolve(self._deletion_policy) or self.DELETE

    def external_id(self):
        return function.resolve(self._external_id)

    def condition(self):
        """The condition name (or bool) deciding whether the resource exists, or None."""
        return function.resolve(self._condition)

    def render_hot(self):
        """The definition as a HOT snippet (functions back in their template form)."""
        fields = (
            (TYPE, self.resource_type),
            (PROPERTIES, self._properties),
            (METADATA, self._metadata),
            (DELETION_POLICY, self._deletion_policy),
            (UPDATE_POLICY, self._update_policy),
            (DEPENDS_ON, self._depends),
            (EXTERNAL_ID, self._external_id),
            (CONDITION, self._condition),
        )
        return {k: copy.deepcopy(v) for k, v in fields if v is not None}

    def __eq__(self, other):
        """Equal when rendered the same (the name and function results are ignored)."""
        if not isinstance(other, ResourceDefinition):
            return NotImplemented
        return self.render_hot() == other.render_hot()

    def __hash__(self):
        return hash(self.resource_type)

    def __repr__(self):
        return "ResourceDefinition(%r, %r, properties=%r, depends=%r)" % (
            self.name,
            self.resource_type,
            self._properties,
            self._depends,
        )


class OutputDefinition:
    """A stack output: its value snippet (functions parsed) and description."""

    def __init__(self, name, value, description=None, section_names=None):
        self.name = name
        self._value = value
        self._description = description
        self._section_names = section_names
        self._resolved = None
        self._deps = None

    @property
    def value_data(self):
        return self._value

    def validate(self):
        """Validate the value's functions; errors read ``outputs.<name>.value...: msg``
        (``Outputs.<name>.Value`` in CFN)."""
        names = self._section_names
        path = [_section_name(names, OUTPUTS), self.name, _section_name(names, VALUE)]
        function.validate(self._value, path)
        if not self.required_resource_names():
            self._check_bounds(path)

    def _check_bounds(self, path):
        """A value that needs no resource is resolved now, so that one past the engine's
        bounds (max_resolved_value_size, [yaql] time_limit) fails validation rather than
        the stack; any other error stays the output's own, shown with it as in Heat."""
        try:
            function.resolve(self._value)
        except exception.RequestLimitExceeded as exc:
            raise exception.StackValidationFailed(path=path, message=exc.message)
        except Exception:
            pass

    def required_resource_names(self):
        """Names of the resources the value refers to (empty if a reference is broken)."""
        if self._deps is None:
            try:
                self._deps = set(function.dependencies(self._value))
            except (exception.InvalidTemplateAttribute, exception.InvalidTemplateReference):
                self._deps = set()
        return self._deps

    def dep_attrs(self, resource_name):
        """Attribute paths (tuples) of ``resource_name`` the value uses."""
        return _attr_map([self._value]).get(resource_name, set())

    def all_dep_attrs(self):
        return dict(_attr_map([self._value]))

    def get_value(self):
        """The resolved value (resolved once, then cached)."""
        if self._resolved is None:
            self._resolved = function.resolve(self._value)
        return self._resolved

    def description(self):
        if self._description is None:
            return "No description given"
        return str(self._description)

    def render_hot(self):
        rendered = {"value": copy.deepcopy(self._value)}
        if self._description is not None:
            rendered["description"] = self._description
        return rendered
