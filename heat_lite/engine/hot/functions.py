"""The HOT intrinsic functions. Each template version maps names to these classes
(``heat_lite.engine.hot.template``); a class per behaviour change, as in Heat.

    get_param: name | [name, key_or_index, ...]
    get_resource: name
    get_attr: [resource, attribute, key_or_index, ...] | [resource]   (all attributes)
    str_replace: {template: 'http://$host/', params: {$host: ...}}
    list_join: [', ', [a, b], [c]]
    get_file: path-in-files
    equals / not / and / or (conditions), if: [condition, when_true, when_false]
"""

import collections.abc
import functools
import itertools
import json

from heat_lite.common import exception
from heat_lite.engine import attributes, function


def _is_list(value):
    return isinstance(value, collections.abc.Sequence) and not isinstance(value, str)


class GetParam(function.Function):
    """``get_param: <name>`` or ``get_param: [<name>, <key or index>, ...]``."""

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
    """``get_resource: <name>`` -- the resource's reference id."""

    def _resource_name_arg(self):
        return self.args

    def result(self):
        return self.stack.resource_reference(self._resource())


class GetAttThenSelect(_ResourceRef):
    """``get_attr: [<resource>, <attribute>, <path>...]`` of HOT 2013-05-23."""

    # whether a missing attribute name means "all attributes" (HOT 2015-10-15 on)
    _allow_all_attributes = False

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        self._resource_name, self._attribute, self._path_components = self._parse_args()

    def _parse_args(self):
        if not _is_list(self.args):
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
    """get_attr from HOT 2014-10-16: the path is passed to the resource."""

    def _attr_path(self):
        path = function.resolve(self._path_components)
        return tuple([function.resolve(self._attribute)] + list(path))

    def result(self):
        path = function.resolve(self._path_components)
        attr = function.resolve(self._attribute)
        return self.stack.resource_attribute(self._resource(), attr, *path)


class GetAttAllAttributes(GetAtt):
    """get_attr from HOT 2015-10-15: ``get_attr: [<resource>]`` gives every attribute."""

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


class Replace(function.Function):
    """``str_replace: {template: <string>, params: {<key>: <value>, ...}}``.

    Longer keys win where keys overlap; among equal lengths the smaller key.
    """

    _strict = False
    _allow_empty_value = True

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        self._mapping, self._string = self._parse_args()
        if not isinstance(self._mapping, (collections.abc.Mapping, function.Function)):
            raise TypeError('"%s" parameters must be a mapping' % self.fn_name)

    def _parse_args(self):
        if not isinstance(self.args, collections.abc.Mapping):
            raise TypeError('Arguments to "%s" must be a map' % self.fn_name)
        try:
            return self.args["params"], self.args["template"]
        except KeyError:
            example = (
                "%s:\n              template: This is var1 template var2\n"
                "              params:\n                var1: a\n"
                "                var2: string" % self.fn_name
            )
            raise KeyError('"%s" syntax should be %s' % (self.fn_name, example))

    def _validate_replacement(self, value, param):
        if value is None:
            return ""
        if not isinstance(value, (str, int, float, bool)):
            raise TypeError(
                '"%s" params must be strings or numbers, param %s is not valid'
                % (self.fn_name, param)
            )
        return str(value)

    def result(self):
        template = function.resolve(self._string)
        mapping = function.resolve(self._mapping)
        if not isinstance(template, str):
            raise TypeError('"%s" template must be a string' % self.fn_name)
        if not isinstance(mapping, collections.abc.Mapping):
            raise TypeError('"%s" params must be a map' % self.fn_name)
        unreplaced = set(mapping)
        keys = sorted(sorted(mapping), key=len, reverse=True)
        result = self._replace([template], keys, mapping, unreplaced)[0]
        if self._strict and unreplaced:
            raise ValueError(
                "The following params were not found in the template: %s"
                % ",".join(sorted(sorted(unreplaced), key=len, reverse=True))
            )
        return result

    def _replace(self, strings, keys, mapping, unreplaced):
        if not keys:
            return strings
        placeholder, rest = keys[0], keys[1:]
        if not isinstance(placeholder, str):
            raise TypeError('"%s" param placeholders must be strings' % self.fn_name)
        value = self._validate_replacement(mapping[placeholder], placeholder)
        out = []
        for s in strings:
            parts = s.split(placeholder)
            if len(parts) > 1:
                unreplaced.discard(placeholder)
            out.append(value.join(self._replace(parts, rest, mapping, unreplaced)))
        return out


class ReplaceJson(Replace):
    """str_replace from HOT 2015-10-15: maps and lists are substituted as JSON."""

    def _empty(self, param):
        raise ValueError(
            "%s has an undefined or empty value for param %s, must be a defined "
            "non-empty value" % (self.fn_name, param)
        )

    def _validate_replacement(self, value, param):
        if value is None:
            if self._allow_empty_value:
                return ""
            self._empty(param)
        if isinstance(value, (str, int, float, bool)):
            text = str(value)
        elif isinstance(value, (collections.abc.Mapping, collections.abc.Sequence)):
            if not self._allow_empty_value and len(value) == 0:
                self._empty(param)
            try:
                text = json.dumps(value, sort_keys=True)
            except TypeError:
                raise TypeError(
                    '"%s" params must be strings, numbers, list or map. '
                    "Failed to json serialize %s" % (self.fn_name, value)
                )
        else:
            raise TypeError('"%s" params must be strings, numbers, list or map.' % self.fn_name)
        if not self._allow_empty_value and not text:
            self._empty(param)
        return text


class ReplaceJsonStrict(ReplaceJson):
    """str_replace_strict: every param must occur in the template."""

    _strict = True


class ReplaceJsonVeryStrict(ReplaceJsonStrict):
    """str_replace_vstrict: ... and no param value may be empty."""

    _allow_empty_value = False


class Join(function.Function):
    """``list_join: [<delimiter>, [<string>, ...]]`` (HOT up to 2015-04-30)."""

    _example = '"%s" : [ " ", [ "str1", "str2"]]'

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        if not isinstance(args, list):
            raise TypeError(self._usage())
        self._delim, self._lists = self._parse_args(args)

    def _usage(self):
        example = self._example % self.fn_name
        return 'Incorrect arguments to "%s" should be: %s' % (self.fn_name, example)

    def _parse_args(self, args):
        if len(args) != 2:
            raise ValueError(self._usage())
        return args[0], [args[1]]

    def _strings(self):
        strings = []
        for item in function.resolve(self._lists):
            if item is None:
                item = []
            if not _is_list(item):
                raise TypeError('"%s" must operate on a list' % self.fn_name)
            strings.extend(item)
        return strings

    def result(self):
        strings = self._strings()
        delim = function.resolve(self._delim)
        if not isinstance(delim, str):
            raise TypeError('"%s" delimiter must be a string' % self.fn_name)
        return delim.join(self._ensure_string(s) for s in strings)

    def _ensure_string(self, s):
        if s is None:
            return ""
        if not isinstance(s, str):
            raise TypeError("Items to join must be strings not %s" % repr(s)[:200])
        return s


class JoinMultiple(Join):
    """list_join from HOT 2015-10-15: several lists; maps and lists joined as JSON."""

    _example = '"%s" : [ " ", [ "str1", "str2"] ...]'

    def _parse_args(self, args):
        if len(args) < 2:
            raise ValueError(self._usage())
        return args[0], args[1:]

    def _strings(self):
        strings = []
        for item in function.resolve(self._lists):
            if item:
                if not _is_list(item):
                    raise TypeError('"%s" must operate on a list' % self.fn_name)
                strings.extend(item)
        return strings

    def _ensure_string(self, s):
        if s is None:
            return ""
        if isinstance(s, str):
            return s
        msg = "Items to join must be string, map or list not %s" % repr(s)[:200]
        if isinstance(s, (collections.abc.Mapping, collections.abc.Sequence)):
            try:
                return json.dumps(s, sort_keys=True)
            except TypeError:
                msg = (
                    "Items to join must be string, map or list. %s failed json serialization"
                    % (repr(s)[:200])
                )
        raise TypeError(msg)


class GetFile(function.Function):
    """``get_file: <path>`` -- the content of that entry of the template's files."""

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


class Equals(function.Function):
    """``equals: [<value_1>, <value_2>]``."""

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        if not self.args or not isinstance(self.args, list) or len(self.args) != 2:
            raise ValueError(
                'Arguments to "%s" must be of the form: [value_1, value_2]' % self.fn_name
            )
        self.value1, self.value2 = self.args

    def result(self):
        return function.resolve(self.value1) == function.resolve(self.value2)


class If(function.Macro):
    """``if: [<condition>, <value_if_true>, <value_if_false>]``, decided when parsed."""

    def _read_args(self):
        if len(self.args) != 3:
            raise ValueError()
        return self.args

    def parse_args(self, parse_func):
        try:
            if not self.args or not _is_list(self.args):
                raise ValueError()
            condition, if_true, if_false = self._read_args()
        except ValueError:
            raise ValueError(
                'Arguments to "%s" must be of the form: '
                "[condition_name, value_if_true, value_if_false]" % self.fn_name
            )
        cond = self.template.parse_condition(self.stack, condition, self.fn_name)
        enabled = self._get_condition(function.resolve(cond))
        return parse_func(if_true if enabled else if_false)

    def _get_condition(self, cond):
        if isinstance(cond, bool):
            return cond
        return self.template.conditions(self.stack).is_enabled(cond)


class IfNullable(If):
    """if from HOT 2021-04-16: without a false branch the item is left out."""

    def _read_args(self):
        if len(self.args) == 2:
            return self.args[0], self.args[1], Ellipsis
        return super()._read_args()


class ConditionBoolean(function.Function):
    """Base of not/and/or: arguments are condition names, booleans or functions."""

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        self._check_args()

    def _check_args(self):
        if not _is_list(self.args):
            raise ValueError('Arguments to "%s" must be a list of conditions' % self.fn_name)
        if len(self.args) < 2:
            raise ValueError(
                'The minimum number of condition arguments to "%s" is 2.' % self.fn_name
            )

    def _get_condition(self, arg):
        if isinstance(arg, bool):
            return arg
        return self.stack.t.conditions(self.stack).is_enabled(arg)


class Not(ConditionBoolean):
    def _check_args(self):
        if self.args is None:
            raise ValueError('Argument to "%s" must be a condition' % self.fn_name)

    def result(self):
        return not self._get_condition(function.resolve(self.args))


class And(ConditionBoolean):
    def result(self):
        return all(self._get_condition(c) for c in function.resolve(self.args))


class Or(ConditionBoolean):
    def result(self):
        return any(self._get_condition(c) for c in function.resolve(self.args))
