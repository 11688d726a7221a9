"""Templates: the version registry, the snippet parser, and what every format shares.

``Template(data)`` returns an instance of the class registered for the data's version
key and value: HOT (``heat_template_version``, ``engine/hot/template.py``) or CFN
(``AWSTemplateFormatVersion`` / ``HeatTemplateFormatVersion``, ``engine/cfn/template.py``):

    tmpl = Template(template_format.parse(text), files={'boot.sh': '...'})
    tmpl.version                          # ('heat_template_version', '2018-08-31')
    tmpl.validate()                       # top-level sections and resource keys
    params = tmpl.parameters(identifier, user_params)
    defns = tmpl.resource_definitions(stack)
    deps = tmpl.dependencies(stack)       # Dependencies of resource names; cycles raise
    tmpl.resource_names(), tmpl.resource_type('server')

What the API's ``template_versions`` endpoints show:

    template_versions()
    # [{'version': 'heat_template_version.2016-10-14', 'type': 'hot',
    #   'aliases': ['heat_template_version.newton']}, ...]
    template_functions('heat_template_version.pike', with_condition=True)
    # [{'functions': 'get_attr',
    #   'description': 'A function for resolving resource attributes.'}, ...]
"""

import collections.abc
import copy
import datetime
import functools
import importlib
import pydoc

from heat_lite.common import exception, template_format
from heat_lite.engine import dependencies, function, parameters

HOT_VERSION_KEY = template_format.HOT_VERSION_KEY
CFN_VERSION_KEYS = template_format.CFN_VERSION_KEYS
DEFAULT_EMPTY_VERSION = (HOT_VERSION_KEY, "2015-04-30")

# (version key, version string (date or release name)) -> Template class; see register()
_template_classes = {}

# the format modules, loaded by name as Heat loads its ``heat.templates`` entry points: they
# subclass Template, so this module never imports them (importing one registers its versions)
PLUGIN_MODULES = ("heat_lite.engine.cfn.template", "heat_lite.engine.hot.template")


def register(cls, version_key, *versions):
    """Make ``cls`` the class of templates declaring ``version_key: <any of versions>``."""
    for version in versions:
        _template_classes[(version_key, version)] = cls


def load_plugins(prepare=False):
    """Import the template format modules (each registers its versions); with
    ``prepare``, also run each one's ``prepare()``, if it has one: what it would
    otherwise build at its first use (a service starting: resources.initialise())."""
    for module_name in PLUGIN_MODULES:
        module = importlib.import_module(module_name)
        if prepare and hasattr(module, "prepare"):
            module.prepare()


def available_versions(version_key=HOT_VERSION_KEY):
    """The version strings (dates and aliases) known for ``version_key``, sorted."""
    load_plugins()
    return sorted(v for k, v in _template_classes if k == version_key)


def _version_text(value):
    if isinstance(value, datetime.date):
        return value.isoformat()
    return value


def get_version(template_data):
    """(version key, version value) of a template dict; dates become 'YYYY-MM-DD'."""
    if not isinstance(template_data, collections.abc.Mapping):
        raise exception.InvalidTemplateVersion(explanation="Template version was not provided")
    keys = [
        k
        for k in template_format.VERSION_KEYS
        if isinstance(template_data.get(k), (str, datetime.date))
    ]
    if len(keys) > 1:
        raise exception.InvalidTemplateVersion(
            explanation="Ambiguous versions (%s)" % ", ".join(keys)
        )
    if not keys:
        raise exception.InvalidTemplateVersion(explanation="Template version was not provided")
    return keys[0], _version_text(template_data[keys[0]])


def get_template_class(template_data):
    key, version = get_version(template_data)
    load_plugins()
    try:
        return _template_classes[(key, version)]
    except KeyError:
        available = available_versions(key)
        should = "should be one of" if len(available) > 1 else "should be"
        raise exception.InvalidTemplateVersion(
            explanation='"%s: %s". "%s" %s: %s' % (key, version, key, should, ", ".join(available))
        )


def template_versions():
    """Every version, dates first with their release-name aliases (GET /template_versions)."""
    load_plugins()
    versions = []
    by_class = {}
    for key, version in sorted(_template_classes):
        cls = _template_classes[(key, version)]
        name = "%s.%s" % (key, version)
        if cls.CANONICAL_VERSION == version:
            entry = {"version": name, "type": cls.FORMAT_TYPE, "aliases": []}
            by_class[(key, cls)] = entry
            versions.append(entry)
    for key, version in sorted(_template_classes):
        cls = _template_classes[(key, version)]
        if cls.CANONICAL_VERSION != version:
            by_class[(key, cls)]["aliases"].append("%s.%s" % (key, version))
    return versions


def describe(func):
    """A function's description, as Heat shows it: the summary line of its docstring."""
    return pydoc.splitdoc(pydoc.getdoc(func))[0]


def template_functions(version, with_condition=False):
    """The functions of ``version`` ('heat_template_version.pike'), hidden ones left out.

    With ``with_condition`` the condition functions follow (replacing same-named ones in
    place), as GET /template_versions/<v>/functions?with_condition_func=true shows them.
    """
    load_plugins()
    key, _, value = version.partition(".")
    cls = _template_classes.get((key, value))
    if cls is None:
        raise exception.NotFound("Template with version %s not found" % version)
    funcs = dict(cls.functions)
    if with_condition:
        funcs.update(cls.condition_functions)
    return [
        {"functions": name, "description": describe(func)}
        for name, func in funcs.items()
        if func is not function.Removed
    ]


class Template(collections.abc.Mapping):
    """A template of one version; a Mapping of its sections (as Heat's is)."""

    CANONICAL_VERSION = None  # the version date of the concrete class
    FORMAT_TYPE = None  # 'hot' or 'cfn'
    RESOURCES = None  # the resources section's name in this format
    RES_TYPE = None  # the key of a resource's type
    CONDITIONS = "conditions"  # the conditions section's name (in error paths)
    functions = {}
    condition_functions = {}
    SECTIONS = ()
    SECTIONS_NO_DIRECT_ACCESS = frozenset()

    def __new__(cls, tmpl, *args, **kwargs):
        if cls is Template:
            cls = get_template_class(tmpl)
        return super().__new__(cls)

    def __init__(self, tmpl, template_id=None, files=None, env=None):
        key, _value = get_version(tmpl)
        if isinstance(tmpl[key], datetime.date):
            tmpl[key] = _version_text(tmpl[key])
        self.id = template_id
        self.t = tmpl
        self.files = dict(files or {})
        self.env = env
        self.version = (key, self.CANONICAL_VERSION)
        self._parser_condition_functions = self._condition_parser_functions()

    def __deepcopy__(self, memo):
        return Template(copy.deepcopy(self.t, memo), files=self.files, env=self.env)

    def __iter__(self):
        return (s for s in self.SECTIONS if s not in self.SECTIONS_NO_DIRECT_ACCESS)

    def __len__(self):
        return len(list(iter(self)))

    def _resources_section(self):
        resources = self.t.get(self.RESOURCES) or {}
        return resources if isinstance(resources, collections.abc.Mapping) else {}

    def resource_names(self):
        """Names of the resources the template defines (condition-disabled ones too)."""
        return list(self._resources_section())

    def resource_type(self, name):
        """The type a resource declares, None when undefined (or not a string)."""
        snippet = self._resources_section().get(name)
        if not isinstance(snippet, collections.abc.Mapping):
            return None
        rsrc_type = snippet.get(self.RES_TYPE)
        return rsrc_type if isinstance(rsrc_type, str) else None

    def _condition_parser_functions(self):
        invalid = {n: function.Invalid for n in self.functions}
        return dict(invalid, **self.condition_functions)

    def parse(self, stack, snippet, path=""):
        """Turn ``{fn_name: args}`` maps into Function objects of this version."""
        return parse(self.functions, stack, snippet, path, self)

    def parse_condition(self, stack, snippet, path=""):
        """Parse a condition: only condition functions; others are 'invalid in this context'."""
        return parse(self._parser_condition_functions, stack, snippet, path, self)

    def parameters(self, stack_identifier, user_params, param_defaults=None):
        """The stack's Parameters (raises InvalidSchemaError for a bad parameter schema)."""
        return parameters.Parameters(stack_identifier, self, user_params, param_defaults)

    def conditions(self, stack):
        """The template's Conditions, parsed once per stack and kept by the stack: the
        parsed functions hold their stack, so a template (cached per process, shared by
        every stack of its row) that kept them would keep its last stack alive."""
        cache = _conditions_of(stack)
        cached = cache.get(id(self)) if cache is not None else None
        if cached is not None and cached[0] is self:
            return cached[1]
        raw = self._condition_definitions()
        if not isinstance(raw, collections.abc.Mapping):
            raise exception.StackValidationFailed(
                error="Conditions validation error",
                message="Condition definitions must be a map. Found a %s instead"
                % type(raw).__name__,
            )
        parsed = {
            name: self.parse_condition(stack, snippet, "%s.%s" % (self.CONDITIONS, name))
            for name, snippet in raw.items()
        }
        conds = Conditions(parsed)
        if cache is not None:
            cache[id(self)] = (self, conds)
        return conds

    def _condition_definitions(self):
        return {}

    def dependencies(self, stack, definitions=None):
        """The resource dependency graph (names), checked for bad references and cycles.

        Raises InvalidTemplateReference for get_resource/get_attr of an unknown resource
        (key: where, e.g. ``r.Properties.image``) or depends_on an unknown one (key: the
        resource name), and CircularDependencyException for a cycle.
        """
        if definitions is None:
            definitions = self.resource_definitions(stack)
        all_names = set(self.resource_names())
        edges = []
        for name, defn in definitions.items():
            edges.append((name, None))
            for required in sorted(defn.required_resource_names()):
                if required in definitions:
                    edges.append((name, required))
                elif required not in all_names:
                    raise exception.InvalidTemplateReference(resource=required, key=name)
        deps = dependencies.Dependencies(edges)
        deps.validate()
        return deps

    @classmethod
    def create_empty_template(cls, version=DEFAULT_EMPTY_VERSION, from_template=None):
        """An empty template of ``version`` (a (key, value) pair or a HOT version string),
        or ``from_template`` without its resources (env, files and parameters kept)."""
        if from_template is not None:
            tmpl = copy.deepcopy(from_template)
            tmpl.remove_all_resources()
            return tmpl
        if version is None:
            version = DEFAULT_EMPTY_VERSION
        elif isinstance(version, (str, datetime.date)):
            version = (HOT_VERSION_KEY, _version_text(version))
        return Template({version[0]: version[1]})


def _conditions_of(stack):
    """The stack's {id(template): (template, Conditions)} (None: it cannot hold one)."""
    try:
        return vars(stack).setdefault("_parsed_conditions", {})
    except TypeError:
        return None


def parse(functions, stack, snippet, path="", template=None):
    """Parse a raw snippet: single-key maps naming a function become Function objects.

    A function whose arguments are wrong raises StackValidationFailed at its path
    (``resources.r.properties.name.list_join: Incorrect arguments to ...``).
    """
    if type(snippet) in template_format.SCALAR_TYPES:
        return snippet
    recurse = functools.partial(parse, functions, stack, template=template)
    if isinstance(snippet, collections.abc.Mapping):
        if len(snippet) == 1:
            fn_name, args = next(iter(snippet.items()))
            func_class = functions.get(fn_name) if isinstance(fn_name, str) else None
            if func_class is not None:
                fn_path = "%s.%s" % (path, fn_name)
                try:
                    if isinstance(func_class, type) and issubclass(func_class, function.Macro):
                        parse_func = functools.partial(recurse, path=fn_path)
                        return func_class(stack, fn_name, args, parse_func, template)
                    return func_class(stack, fn_name, recurse(args, fn_path))
                except (ValueError, TypeError, KeyError) as e:
                    raise exception.StackValidationFailed(path=fn_path, message=str(e))
        return {k: recurse(v, "%s.%s" % (path, k)) for k, v in snippet.items()}
    if isinstance(snippet, (list, tuple)):
        return [recurse(v, "%s[%d]" % (path, i)) for i, v in enumerate(snippet)]
    return snippet


_IN_PROGRESS = object()


class Conditions:
    """Named conditions of a template; each is resolved once, on first use."""

    def __init__(self, conditions_dict):
        self._conditions = dict(conditions_dict)
        self._resolved = {}

    def names(self):
        return set(self._conditions)

    def validate(self):
        for name, cond in self._conditions.items():
            self._check_type(name, cond)
            function.validate(cond)

    @staticmethod
    def _check_type(name, definition):
        if not isinstance(definition, (bool, function.Function)):
            raise exception.StackValidationFailed(
                error="Condition validation error",
                message='The definition of condition "%s" is invalid: %s' % (name, definition),
            )

    def is_enabled(self, condition_name):
        """Whether the named condition holds (None and booleans pass through)."""
        if condition_name is None:
            return True
        if isinstance(condition_name, bool):
            return condition_name
        if not (isinstance(condition_name, str) and condition_name in self._conditions):
            raise ValueError('Invalid condition "%s"' % condition_name)
        if condition_name not in self._resolved:
            self._resolved[condition_name] = _IN_PROGRESS
            resolved = function.resolve(self._conditions[condition_name])
            self._check_type(condition_name, resolved)
            self._resolved[condition_name] = resolved
        result = self._resolved[condition_name]
        if result is _IN_PROGRESS:
            raise exception.StackValidationFailed(
                error="Condition validation error",
                message='Circular definition for condition "%s"' % condition_name,
            )
        return result

    def __repr__(self):
        return "Conditions(%r)" % self._conditions
