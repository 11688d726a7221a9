"""Intrinsic functions: the parsed form of ``{fn_name: args}`` in a template snippet.

``Template.parse(stack, snippet)`` turns every single-key map whose key names a function
of the template's version into a ``Function`` object; the module helpers then walk any
parsed snippet:

    parsed = tmpl.parse(stack, {'name': {'get_param': 'server_name'}})
    validate(parsed, ['resources', 'r', 'properties'])   # StackValidationFailed with path
    set(dependencies(parsed, 'r.Properties'))            # resource names referenced
    set(dep_attrs(parsed, 'server'))                     # attribute paths used of 'server'
    resolve(parsed)                                      # {'name': 'web-1'}

The ``stack`` a function receives is anything with this protocol (engine/stack.py and the
worker's lightweight stack implement it; tests use a small fake):

* ``stack.t`` -- the ``Template`` (used by conditions and ``if``).
* ``stack.parameters`` -- the ``Parameters`` mapping (``get_param``).
* ``stack.has_resource(name) -> bool`` -- whether the template defines a resource of
  that name; references to anything else are ``InvalidTemplateReference`` (and CFN's
  ``Ref`` of any other name is a parameter reference).
* ``stack.resource_reference(name) -> str`` -- ``get_resource``.
* ``stack.resource_attribute(name, attr, *path)`` -- ``get_attr``: the value of ``attr``
  selected along ``path`` (``attributes.select_from_attribute`` does the selecting;
  anything missing is None; None while the resource has no value yet). The 2013-05-23
  ``get_attr`` passes no path and selects itself.
* ``stack.all_resource_attributes(name) -> dict | None`` -- ``get_attr: [name]``.
* ``stack.resource_attribute_names(name) -> set | None`` -- the attribute names valid
  for that resource's type, None when unknown (then any name is accepted).
* optional ``stack.parent_resource`` -- for a nested stack, the resource it implements
  (``metadata_get()`` and ``t``, its ResourceDefinition); ``resource_facade`` reads it.
* optional ``stack.resource_in_init(name) -> bool`` -- True while that resource has
  not been created; property values that depend on one are not checked against the
  schema during validation (Heat does the same).

Attribute paths (``dep_attrs``) are tuples: ``('first_address',)``,
``('networks', 'private', 0)``, and ``(attributes.ALL_ATTRIBUTES,)`` for ``get_attr: [r]``.
"""

import abc
import collections.abc
import itertools

from heat_lite.common import exception
from heat_lite.common.template_format import SCALAR_TYPES
from heat_lite.conf import CONF


class Function(metaclass=abc.ABCMeta):
    """A template function: ``{fn_name: args}``, args already parsed."""

    def __init__(self, stack, fn_name, args):
        self.stack = stack
        self.fn_name = fn_name
        self.args = args

    def validate(self):
        """Check the arguments without resolving; subclasses add their own checks."""
        validate(self.args)

    @abc.abstractmethod
    def result(self):
        """The resolved value."""

    def dependencies(self, path):
        """Names of the resources this function references (checked to exist)."""
        return dependencies(self.args, ".".join([path, self.fn_name]))

    def dep_attrs(self, resource_name):
        """Attribute paths (tuples) of ``resource_name`` that this function reads."""
        return dep_attrs(self.args, resource_name)

    def all_dep_attrs(self):
        """(resource name, attribute path) pairs of every attribute read."""
        return all_dep_attrs(self.args)

    def __reduce__(self):
        # copy.deepcopy of a parsed snippet gives back the template's own form
        return dict, ([(self.fn_name, self.args)],)

    def __repr__(self):
        try:
            result = repr(self.result())
        except Exception:
            result = "???"
        return "<%s {%s: %r} -> %s>" % (type(self).__name__, self.fn_name, self.args, result)

    def __eq__(self, other):
        """Functions compare by their results (definition diffs rely on it)."""
        try:
            result = self.result()
            if isinstance(other, Function):
                return result == other.result()
            return result == other
        except (TypeError, ValueError):
            return NotImplemented

    def __ne__(self, other):
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None


class Macro(Function, metaclass=abc.ABCMeta):
    """A function that controls how its own arguments are parsed (``if``)."""

    def __init__(self, stack, fn_name, raw_args, parse_func, template):
        super().__init__(stack, fn_name, raw_args)
        self.template = template
        self.parsed = self.parse_args(parse_func)

    @abc.abstractmethod
    def parse_args(self, parse_func):
        """Return the parsed snippet this macro stands for."""

    def validate(self):
        validate(self.parsed)

    def result(self):
        return resolve(self.parsed, nullable=True)

    def dependencies(self, path):
        return dependencies(self.parsed, ".".join([path, self.fn_name]))

    def dep_attrs(self, resource_name):
        return dep_attrs(self.parsed, resource_name)

    def all_dep_attrs(self):
        return all_dep_attrs(self.parsed)

    def __reduce__(self):
        if isinstance(self.parsed, Function):
            return self.parsed.__reduce__()
        if self.parsed is None:
            return type(None), ()
        if self.parsed is Ellipsis:
            return type(Ellipsis), ()
        return type(self.parsed), (self.parsed,)


class Invalid(Function):
    """Stands for a function that may not appear here (e.g. get_resource in conditions)."""

    def __init__(self, stack, fn_name, args):
        raise ValueError('The function "%s" is invalid in this context' % fn_name)

    def result(self):  # pragma: no cover - never constructed
        return {self.fn_name: self.args}


class Removed(Function):
    """A function of older template versions, removed from this one."""

    def validate(self):
        raise exception.InvalidTemplateVersion(
            explanation="The function %s is not supported in this version of HOT." % self.fn_name
        )

    def result(self):
        return {self.fn_name: self.args}


def is_list(value):
    """A list-like argument: a Sequence that is not a string."""
    return isinstance(value, collections.abc.Sequence) and not isinstance(value, str)


def _is_list(snippet):
    kind = type(snippet)
    if kind is list:
        return True
    if kind in SCALAR_TYPES or kind is dict:
        return False
    return isinstance(snippet, collections.abc.Iterable) and not isinstance(
        snippet, (str, bytes, collections.abc.Mapping)
    )


def value_size(value, stop_above=None):
    """The size of a resolved value: a string (or bytes) its length, a list or map 1 plus
    the sizes of its items (and keys), anything else 1. The walk ends once the count
    passes ``stop_above``."""
    size, pending = 0, [value]
    while pending:
        item = pending.pop()
        if isinstance(item, str | bytes):
            size += max(len(item), 1)
        elif isinstance(item, collections.abc.Mapping):
            size += 1
            pending.extend(item.keys())
            pending.extend(item.values())
        elif _is_list(item) and isinstance(item, collections.abc.Sized):
            size += 1
            pending.extend(item)
        else:
            size += 1
        if stop_above is not None and size > stop_above:
            break
    return size


def check_size(fn_name, size):
    """RequestLimitExceeded when a value of ``size`` (made or about to be made by
    ``fn_name``) is above ``max_resolved_value_size``."""
    limit = CONF.max_resolved_value_size
    if 0 <= limit < size:
        raise exception.RequestLimitExceeded(
            message="The value of %s (%s bytes or more) exceeds the maximum allowed size "
            "(%s bytes)." % (fn_name, size, limit)
        )


def check_result_size(fn_name, value):
    limit = CONF.max_resolved_value_size
    if limit >= 0:
        check_size(fn_name, value_size(value, stop_above=limit))


def resolve(snippet, nullable=False):
    """Resolve every function in a parsed snippet.

    Ellipsis (an ``if`` without else-branch whose condition is false) removes the
    enclosing map entry or list item; at the top level it becomes None unless nullable.
    No function's result may be bigger than ``max_resolved_value_size`` (check_size).
    """
    if type(snippet) in SCALAR_TYPES:
        return snippet
    if isinstance(snippet, Function):
        result = snippet.result()
        check_result_size(snippet.fn_name, result)
        if result is Ellipsis and not nullable:
            return None
        return result
    if isinstance(snippet, collections.abc.Mapping):
        items = ((k, resolve(v, nullable=True)) for k, v in snippet.items())
        return {k: v for k, v in items if v is not Ellipsis}
    if _is_list(snippet):
        values = (resolve(v, nullable=True) for v in snippet)
        return [v for v in values if v is not Ellipsis]
    return snippet


def validate(snippet, path=None):
    """Validate every function; errors become StackValidationFailed at their path."""
    if type(snippet) in SCALAR_TYPES:
        return
    if path is None:
        path = []
    elif isinstance(path, str):
        path = [path]
    if isinstance(snippet, Function):
        try:
            snippet.validate()
        except AssertionError:
            raise
        except Exception as e:
            raise exception.StackValidationFailed(path=path + [snippet.fn_name], message=str(e))
    elif isinstance(snippet, collections.abc.Mapping):
        for k, v in snippet.items():
            validate(v, path + [k])
    elif _is_list(snippet):
        basepath = list(path)
        parent = basepath.pop() if basepath else ""
        for i, v in enumerate(snippet):
            validate(v, basepath + ["%s[%d]" % (parent, i)])


def dependencies(snippet, path=""):
    """Iterate over the names of resources referenced in a parsed snippet."""
    if type(snippet) in SCALAR_TYPES:
        return iter(())
    if isinstance(snippet, Function):
        return snippet.dependencies(path)
    if isinstance(snippet, collections.abc.Mapping):
        return itertools.chain.from_iterable(
            dependencies(v, "%s.%s" % (path, k)) for k, v in snippet.items()
        )
    if _is_list(snippet):
        return itertools.chain.from_iterable(
            dependencies(v, "%s[%d]" % (path, i)) for i, v in enumerate(snippet)
        )
    return iter(())


def dep_attrs(snippet, resource_name):
    """Iterate over the attribute paths of ``resource_name`` used in a parsed snippet."""
    if isinstance(snippet, Function):
        return snippet.dep_attrs(resource_name)
    if isinstance(snippet, collections.abc.Mapping):
        snippet = snippet.values()
    elif not _is_list(snippet):
        return iter(())
    return itertools.chain.from_iterable(dep_attrs(v, resource_name) for v in snippet)


def all_dep_attrs(snippet):
    """Iterate over (resource name, attribute path) pairs used in a parsed snippet."""
    if isinstance(snippet, Function):
        return snippet.all_dep_attrs()
    if isinstance(snippet, collections.abc.Mapping):
        snippet = snippet.values()
    elif not _is_list(snippet):
        return iter(())
    return itertools.chain.from_iterable(all_dep_attrs(v) for v in snippet)
