"""HOT functions that build or inspect lists and maps.

repeat: {template: 'port-%p%', for_each: {'%p%': [80, 443]}}    # ['port-80', ...]
    (2016-10-14: for_each values may be maps, iterated by key;
     2017-09-01: ``permutations: false`` zips equal-length lists instead of the product)
map_merge: [{a: 1}, {a: 2, b: 3}]                  # {a: 2, b: 3}
map_replace: [{k: v}, {keys: {k: K}, values: {v: V}}]  # {K: V}
filter: [[null], [1, null, 2]]                     # [1, 2]
list_concat: [[1, 2], [2]]                         # [1, 2, 2]
list_concat_unique: [[1, 2], [2]]                  # [1, 2]
contains: [a, [a, b]]                              # true
"""

import collections.abc
import itertools
import json
import math

from heat_lite.engine import function


def _map_or_empty(value, error):
    if value is None:
        return {}
    if isinstance(value, collections.abc.Mapping):
        return value
    raise error


class Repeat(function.Function):
    """A function for iterating over a list of items.

    ``repeat: {template: <body>, for_each: {<var>: <list>, ...}}`` -- a copy of the body
    for each combination of the lists' items (their product), ``<var>`` replaced in
    every string (keys included) by the item.
    """

    _EXAMPLE = (
        "repeat:\n              template: This is %var%\n"
        "              for_each:\n                %var%: ['a', 'b', 'c']"
    )
    _LISTS = ((collections.abc.Sequence, function.Function), "lists")

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        self._parse_args()

    def _parse_args(self):
        if not isinstance(self.args, collections.abc.Mapping):
            raise TypeError('Arguments to "%s" must be a map' % self.fn_name)
        try:
            self._for_each = self.args["for_each"]
            self._template = self.args["template"]
        except KeyError:
            raise KeyError('"repeat" syntax should be %s' % self._EXAMPLE)
        self._nested_loop = True

    def validate(self):
        super().validate()
        if not isinstance(self._for_each, (function.Function, collections.abc.Mapping)):
            raise TypeError('The "for_each" argument to "%s" must contain a map' % self.fn_name)

    def _valid_arg(self, arg, kinds=_LISTS):
        types, what = kinds
        if isinstance(arg, str) or not isinstance(arg, types):
            raise TypeError(
                'The values of the "for_each" argument to "%s" must be %s' % (self.fn_name, what)
            )

    def _replace(self, keys, values, template):
        if isinstance(template, str):
            for key, value in zip(keys, values, strict=True):
                if isinstance(value, str):
                    growth = template.count(key) * (len(value) - len(key))
                    function.check_size(self.fn_name, len(template) + growth)
                template = template.replace(key, value)
            return template
        if isinstance(template, collections.abc.Sequence):
            return [self._replace(keys, values, item) for item in template]
        if isinstance(template, collections.abc.Mapping):
            return {
                self._replace(keys, values, k): self._replace(keys, values, v)
                for k, v in template.items()
            }
        return template

    def result(self):
        for_each = function.resolve(self._for_each)
        keys, lists = zip(*for_each.items(), strict=True)
        values, lengths = [], set()
        for value in lists:
            if value is None:  # a reference without a value yet
                values.append([])
                continue
            self._valid_arg(value)
            values.append(value)
            lengths.add(len(value))
        if not self._nested_loop and len(lengths) > 1:
            raise ValueError(
                "For %s, the length of for_each values should be equal if no nested loop."
                % self.fn_name
            )
        template = function.resolve(self._template)
        count = math.prod(map(len, values)) if self._nested_loop else min(map(len, values))
        function.check_size(self.fn_name, 1 + count * function.value_size(template))
        combine = itertools.product if self._nested_loop else zip
        return [self._replace(keys, items, template) for items in combine(*values)]


class RepeatWithMap(Repeat):
    """A function for iterating over a list of items or a dict of keys.

    repeat from HOT 2016-10-14: a for_each value may also be a map (its keys are used).
    """

    _LISTS_OR_MAPS = (
        (collections.abc.Sequence, collections.abc.Mapping, function.Function),
        "lists or maps",
    )

    def _valid_arg(self, arg, kinds=_LISTS_OR_MAPS):
        super()._valid_arg(arg, kinds)


class RepeatWithNestedLoop(RepeatWithMap):
    """A function for iterating over a list of items or a dict of keys.

    repeat from HOT 2017-09-01: ``permutations: false`` walks the lists side by side
    (they must be lists of one length) instead of over every combination.
    """

    def _parse_args(self):
        super()._parse_args()
        self._nested_loop = self.args.get("permutations", True)
        if not isinstance(self._nested_loop, bool):
            raise TypeError('"permutations" should be boolean type for %s function.' % self.fn_name)

    def _valid_arg(self, arg, kinds=RepeatWithMap._LISTS_OR_MAPS):
        super()._valid_arg(arg, kinds if self._nested_loop else Repeat._LISTS)


class MapMerge(function.Function):
    """A function for merging maps.

    ``map_merge: [<map>, <map>, ...]`` -- later maps win key by key; null counts as {}.
    """

    def _usage(self):
        example = '"%s" : [ { "key1": "val1" }, { "key2": "val2" } ]' % self.fn_name
        return 'Incorrect arguments to "%s" should be: %s' % (self.fn_name, example)

    def result(self):
        args = function.resolve(self.args)
        if not isinstance(args, collections.abc.Sequence):
            raise TypeError(self._usage())
        merged = {}
        for item in args:
            error = TypeError(
                "Incorrect arguments: Items to merge must be maps. "
                "%s is type %s instead of a dict" % (repr(item)[:200], type(item))
            )
            merged.update(_map_or_empty(item, error))
        return merged


class MapReplace(function.Function):
    """A function for performing substitutions on maps.

    ``map_replace: [<map>, {keys: {<old>: <new>}, values: {<old>: <new>}}]`` -- the map
    with those keys and values replaced; a new key may not collide with another key.
    """

    def _example(self):
        return (
            '"%s" : [ { "key1": "val1" }, '
            '{"keys": {"key1": "key2"}, "values": {"val1": "val2"}}]' % self.fn_name
        )

    def _usage(self):
        return 'Incorrect arguments to "%s" should be: %s' % (self.fn_name, self._example())

    def _ensure_map(self, value):
        error = TypeError(
            'Incorrect arguments: to "%s", arguments must be a list of maps. Example:  %s'
            % (self.fn_name, self._example())
        )
        return _map_or_empty(value, error)

    def _arguments(self, args):
        if isinstance(args, collections.abc.Mapping):
            raise KeyError(0)  # Heat pops item 0 of the arguments: a map has no such key
        if not isinstance(args, list) or not args:
            raise TypeError(self._usage())
        in_map = self._ensure_map(args[0])
        if len(args) < 2:
            raise TypeError(self._usage())
        repl_map = self._ensure_map(args[1])
        if len(args) > 2:
            raise TypeError(self._usage())
        if set(repl_map) - {"keys", "values"}:
            raise ValueError(self._usage())
        keys = self._ensure_map(repl_map.get("keys", {}))
        values = self._ensure_map(repl_map.get("values", {}))
        return in_map, keys, values

    def result(self):
        in_map, repl_keys, repl_values = self._arguments(function.resolve(self.args))
        replaced = {}
        for k, v in in_map.items():
            key = repl_keys.get(k)
            if key is None:
                key = k
            elif key in in_map and key != k:
                raise ValueError("key replacement %s collides with a key in the input map" % key)
            elif key in replaced:
                raise ValueError("key replacement %s collides with a key in the output map" % key)
            try:
                replaced[key] = repl_values.get(v, v)
            except TypeError:  # an unhashable value is kept as it is
                replaced[key] = v
        return replaced


class Filter(function.Function):
    """A function for filtering out values from lists.

    ``filter: [<values>, <list>]`` -- the list without any of the values.
    """

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        if not function.is_list(self.args):
            raise TypeError('Argument to "%s" must be a list' % self.fn_name)
        if len(self.args) != 2:
            raise ValueError(
                '"%s" expected 2 arguments of the form [values, sequence] but got %d '
                "arguments instead" % (self.fn_name, len(self.args))
            )
        self._values, self._sequence = self.args

    def result(self):
        sequence = function.resolve(self._sequence)
        if not sequence:
            return sequence
        if not isinstance(sequence, list):
            raise TypeError('"%s" only works with lists' % self.fn_name)
        values = function.resolve(self._values)
        if not values:
            return sequence
        if not isinstance(values, list):
            raise TypeError('"%s" filters a list of values' % self.fn_name)
        return [item for item in sequence if item not in values]


class ListConcat(function.Function):
    """A function for extending lists.

    ``list_concat: [<list>, <list>, ...]`` -- one list of all the items; null counts as [].
    """

    _unique = False

    def result(self):
        args = function.resolve(self.args)
        if not function.is_list(args):
            example = '"%s" : [ [ <value 1>, <value 2> ], [ <value 3>, <value 4> ] ]' % (
                self.fn_name
            )
            raise TypeError('Incorrect arguments to "%s" should be: %s' % (self.fn_name, example))
        items = []
        for item in args:
            if item is None:
                continue
            if not function.is_list(item):
                raise TypeError(
                    "Incorrect arguments: Items to concat must be lists. %s contains an item "
                    "that is not a list: %s" % (json.dumps(args), json.dumps(item))
                )
            items.extend(item)
        if not self._unique:
            return items
        unique = []
        for item in items:
            if item not in unique:
                unique.append(item)
        return unique


class ListConcatUnique(ListConcat):
    """A function for extending lists with unique items.

    ``list_concat_unique`` -- list_concat, each item kept once (first occurrence).
    """

    _unique = True


class Contains(function.Function):
    """A function for checking whether specific value is in sequence.

    ``contains: [<value>, <sequence>]`` -- true when the value is an item of the sequence.
    """

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        if not self.args or not isinstance(self.args, list):
            example = '"%s" : [ "value1", [ "value1", "value2"]]' % self.fn_name
            raise TypeError('Incorrect arguments to "%s" should be: %s' % (self.fn_name, example))
        if len(self.args) != 2:
            raise ValueError(
                'Arguments to "%s" must be of the form: [value1, [value1, value2]]' % self.fn_name
            )
        self.value, self.sequence = self.args

    def result(self):
        value = function.resolve(self.value)
        sequence = function.resolve(self.sequence)
        if not isinstance(sequence, collections.abc.Sequence):
            raise TypeError('Second argument to "%s" should be a sequence.' % self.fn_name)
        return value in sequence
