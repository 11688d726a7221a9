"""HOT functions that read the stack: parameters, resources, files, the parent resource.

Each template version maps names to classes (``heat_lite.engine.hot.template``); there is
a class per behaviour change, as in Heat. The first docstring line of each class is the
description ``GET /template_versions/<v>/functions`` shows (Heat's wording).

Where the HOT functions live:

* here -- ``get_param``, ``get_resource``, ``get_attr``, ``get_file``,
  ``resource_facade``, ``digest``, ``yaql``
* ``string_functions`` -- ``str_replace*``, ``list_join``, ``str_split``, ``make_url``
* ``list_functions`` -- ``repeat``, ``map_merge``, ``map_replace``, ``filter``,
  ``list_concat*``, ``contains``
* ``condition_functions`` -- ``equals``, ``not``, ``and``, ``or``, ``if``

    get_param: name | [name, key_or_index, ...]
    get_resource: name
    get_attr: [resource, attribute, key_or_index, ...] | [resource]   (all attributes)
    get_file: path-in-files
    resource_facade: metadata | deletion_policy | update_policy
    digest: [sha256, value]
    yaql: {expression: '$.data.l.sum()', data: {l: [1, 2]}}
"""

import collections
import collections.abc
import functools
import hashlib
import itertools

import yaql
from yaql.language import exceptions as yaql_exc

from heat_lite.common import cpu_budget, exception
from heat_lite.conf import CONF
from heat_lite.engine import attributes, function


class GetParam(function.Function):
    """A function for resolving parameter references.

    ``get_param: <name>`` or ``get_param: [<name>, <key or index>, ...]``.
    """

    def result(self):
        args = function.resolve(self.args)
        if not args:
            raise ValueError('Function "%s" must have arguments' % self.fn_name)
        if isinstance(args, str):
            name, path = args, []
        elif isinstance(args, collections.abc.Sequence):
            name, path = args[0], args[1:]
        else:
            raise TypeError('Argument to "%s" must be string or list' % self.fn_name)
        if not isinstance(name, str):
            raise TypeError('Parameter name in "%s" must be string' % self.fn_name)
        try:
            value = self.stack.parameters[name]
        except KeyError:
            raise exception.UserParameterMissing(key=name)
        try:
            return functools.reduce(self._component, path, value)
        except (KeyError, IndexError, TypeError):
            return ""

    def _component(self, collection, key):
        if not isinstance(collection, (collections.abc.Mapping, collections.abc.Sequence)):
            raise TypeError('"%s" can\'t traverse path' % self.fn_name)
        if not isinstance(key, (str, int)):
            raise TypeError('Path components in "%s" must be strings' % self.fn_name)
        if isinstance(collection, collections.abc.Sequence) and isinstance(key, str):
            try:
                key = int(key)
            except ValueError:
                raise TypeError(
                    "Path components in '%s' must be a string that can be parsed "
                    "into an integer." % self.fn_name
                )
        return collection[key]


class _ResourceRef(function.Function):
    """Shared by get_resource and get_attr: a reference that must name a resource."""

    def _res_name(self):
        return function.resolve(self._resource_name_arg())

    def _resource(self, path="unknown"):
        name = self._res_name()
        if not isinstance(name, str) or not self.stack.has_resource(name):
            raise exception.InvalidTemplateReference(resource=name, key=path)
        return name

    def dependencies(self, path):
        return itertools.chain(super().dependencies(path), [self._resource(path)])


class GetResource(_ResourceRef):
    """A function for resolving resource references.

    ``get_resource: <name>`` -- the resource's reference id.
    """

    def _resource_name_arg(self):
        return self.args

    def result(self):
        return self.stack.resource_reference(self._resource())


class GetAttThenSelect(_ResourceRef):
    """A function for resolving resource attributes.

    ``get_attr: [<resource>, <attribute>, <path>...]`` of HOT 2013-05-23: the path
    selects inside the attribute's value.
    """

    # whether a missing attribute name means "all attributes" (HOT 2015-10-15 on)
    _allow_all_attributes = False

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        self._resource_name, self._attribute, self._path_components = self._parse_args()

    def _parse_args(self):
        if not function.is_list(self.args):
            raise TypeError('Argument to "%s" must be a list' % self.fn_name)
        if len(self.args) < 2:
            raise ValueError(
                'Arguments to "%s" must be of the form '
                "[resource_name, attribute, (path), ...]" % self.fn_name
            )
        return self.args[0], self.args[1], self.args[2:]

    def _resource_name_arg(self):
        return self._resource_name

    def _attr_path(self):
        return (function.resolve(self._attribute),)

    def dep_attrs(self, resource_name):
        attrs = []
        if self._res_name() == resource_name:
            try:
                attrs = [self._attr_path()]
            except Exception:
                attrs = []
        return itertools.chain(super().dep_attrs(resource_name), attrs)

    def all_dep_attrs(self):
        try:
            attrs = [(self._res_name(), self._attr_path())]
        except Exception:
            attrs = []
        return itertools.chain(super().all_dep_attrs(), attrs)

    def validate(self):
        super().validate()
        name = self._resource()
        if self._attribute is None and self._allow_all_attributes:
            return
        attr = function.resolve(self._attribute)
        valid = self.stack.resource_attribute_names(name)
        if valid is not None and attr not in valid:
            raise exception.InvalidTemplateAttribute(resource=self._resource_name, key=attr)

    def result(self):
        attr = function.resolve(self._attribute)
        value = self.stack.resource_attribute(self._resource(), attr)
        if value is None:
            return None
        return attributes.select_from_attribute(value, function.resolve(self._path_components))


class GetAtt(GetAttThenSelect):
    """A function for resolving resource attributes.

    get_attr from HOT 2014-10-16: the path is passed to the resource.
    """

    def _attr_path(self):
        path = function.resolve(self._path_components)
        return _nested_attr_path([function.resolve(self._attribute)] + list(path))

    def result(self):
        attr, *path = self._attr_path()
        return self.stack.resource_attribute(self._resource(), attr, *path)


def _nested_attr_path(path):
    """``[resource.<name>, <attr>, ...]`` of a nested stack resource reads as Heat's
    get_nested_attrs does ``resource.<name>.<attr>``: one attribute (computed and sent
    as one), not ``resource.<name>``'s reference selected by ``<attr>``."""
    attr, rest = path[0], path[1:]
    if (
        isinstance(attr, str)
        and attr.startswith("resource.")
        and attr.count(".") == 1
        and rest
        and isinstance(rest[0], str)
    ):
        return ("%s.%s" % (attr, rest[0]),) + tuple(rest[1:])
    return tuple(path)


class GetAttAllAttributes(GetAtt):
    """A function for resolving resource attributes.

    get_attr from HOT 2015-10-15: ``get_attr: [<resource>]`` gives every attribute.
    """

    _allow_all_attributes = True

    def _parse_args(self):
        if not self.args:
            raise ValueError(
                'Arguments to "%s" can be of the next forms: [resource_name] or '
                "[resource_name, attribute, (path), ...]" % self.fn_name
            )
        if not isinstance(self.args, collections.abc.Sequence):
            raise TypeError('Argument to "%s" must be a list' % self.fn_name)
        if len(self.args) > 1:
            return super()._parse_args()
        return self.args[0], None, []

    def _attr_path(self):
        if self._attribute is None:
            return (attributes.ALL_ATTRIBUTES,)
        return super()._attr_path()

    def result(self):
        if self._attribute is None:
            return self.stack.all_resource_attributes(self._resource())
        return super().result()


class GetFile(function.Function):
    """A function for including a file inline.

    ``get_file: <path>`` -- the content of that entry of the template's files.
    """

    def result(self):
        key = function.resolve(self.args)
        if not isinstance(key, str):
            raise TypeError('Argument to "%s" must be a string' % self.fn_name)
        content = self.stack.t.files.get(key)
        if content is None:
            raise ValueError(
                'No content found in the "files" section for %s path: %s' % (self.fn_name, key)
            )
        return content


class ResourceFacade(function.Function):
    """A function for retrieving data in a parent provider template.

    ``resource_facade: metadata | deletion_policy | update_policy`` -- that part of the
    resource (in the parent stack) this nested stack implements: ``stack.parent_resource``
    (None for a top-level stack, which makes the function fail as in Heat).
    """

    _RESOURCE_ATTRIBUTES = (METADATA, DELETION_POLICY, UPDATE_POLICY) = (
        "metadata",
        "deletion_policy",
        "update_policy",
    )

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        if self.args not in self._RESOURCE_ATTRIBUTES:
            raise ValueError(
                'Incorrect arguments to "%s" should be one of: %s'
                % (self.fn_name, ", ".join(self._RESOURCE_ATTRIBUTES))
            )

    def result(self):
        attr = function.resolve(self.args)
        parent = getattr(self.stack, "parent_resource", None)
        if attr == self.METADATA:
            return parent.metadata_get()
        if attr == self.UPDATE_POLICY:
            return function.resolve(parent.t.update_policy_data or {})
        return parent.t.deletion_policy()


class Digest(function.Function):
    """A function for performing digest operations.

    ``digest: [<algorithm>, <value>]`` -- the hex digest; any algorithm hashlib knows
    (md5, sha1, sha224, sha256, sha384, sha512, and OpenSSL's).
    """

    def _check(self, args):
        if not (isinstance(args, list) and all(isinstance(a, str) for a in args)):
            raise TypeError('Argument to function "%s" must be a list of strings' % self.fn_name)
        if len(args) != 2:
            raise ValueError('Function "%s" usage: ["<algorithm>", "<value>"]' % self.fn_name)
        if args[0].lower() not in hashlib.algorithms_available:
            raise ValueError("Algorithm must be one of %s" % str(hashlib.algorithms_available))

    def result(self):
        args = function.resolve(self.args)
        self._check(args)
        algorithm, value = args
        digest = hashlib.new(algorithm)
        digest.update(value.encode("latin-1"))
        return digest.hexdigest()


class Yaql(function.Function):
    """A function for executing a yaql expression.

    ``yaql: {expression: <yaql>, data: {<var>: <value>, ...}}`` -- the expression
    evaluated with ``$.data`` bound to ``data``; ``[yaql] limit_iterators``,
    ``memory_quota`` and ``time_limit`` (CPU seconds, common/cpu_budget.py) bound what an
    expression may use.
    """

    _parser = None
    _context = None

    @classmethod
    def yaql_parser(cls):
        """The process's yaql parser, built at the first call (PLY generates its tables:
        ~80 ms; resources.initialise() calls this as a service starts)."""
        if cls._parser is None:
            options = {
                "yaql.limitIterators": CONF.yaql.limit_iterators,
                "yaql.memoryQuota": CONF.yaql.memory_quota,
            }
            cls._parser = yaql.YaqlFactory().create(options)
            cls._context = yaql.create_context()
        return cls._parser

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        if not isinstance(self.args, collections.abc.Mapping):
            raise TypeError('Arguments to "%s" must be a map.' % self.fn_name)
        try:
            self._expression = self.args["expression"]
            self._data = self.args.get("data", {})
            if set(self.args) - {"expression", "data"}:
                raise KeyError
        except (KeyError, TypeError):
            example = (
                "%s:\n              expression: $.data.var1.sum()\n"
                "              data:\n                var1: [3, 2, 1]" % self.fn_name
            )
            raise KeyError('"%s" syntax should be %s' % (self.fn_name, example))

    def validate(self):
        super().validate()
        if not isinstance(self._expression, function.Function):
            self._parse(self._expression)

    def _parse(self, expression):
        if not isinstance(expression, str):
            raise TypeError('The "expression" argument to %s must contain a string.' % self.fn_name)
        parse = self.yaql_parser()
        try:
            return parse(expression)
        except yaql_exc.YaqlException as yex:
            raise ValueError("Bad expression %s." % yex)

    # (expression, data, time limit, error) of the last evaluations stopped by the time limit: a
    # value is resolved more than once (validation, the action, its events), and each
    # time by a new parse of the template, so this is remembered per process
    _exceeded = collections.deque(maxlen=8)

    def result(self):
        expression = function.resolve(self._expression)
        data = function.resolve(self._data)
        limit = CONF.yaql.time_limit
        for known in list(self._exceeded):
            if known[:3] == (expression, data, limit):
                raise known[3]
        statement = self._parse(expression)
        context = self._context.create_child_context()
        try:
            return cpu_budget.call(
                statement.evaluate,
                {"data": data},
                context,
                seconds=limit,
                what="The yaql expression",
            )
        except exception.RequestLimitExceeded as exc:
            self._exceeded.append((expression, data, limit, exc))
            raise
