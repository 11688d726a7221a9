"""CFN intrinsic functions (``Ref``, ``Fn::*``), also offered by HOT 2013-05-23.

{"Ref": "KeyName"}                                  # a parameter's value
{"Ref": "WebServer"}                                # a resource's reference id
{"Fn::GetAtt": ["WebServer", "PublicIp"]}
{"Fn::Join": [",", ["a", "b"]]}                     # "a,b"
{"Fn::Select": ["1", ["a", "b"]]}                   # "b" ('' when out of range)
{"Fn::Split": [",", "a,b"]}                         # ["a", "b"]
{"Fn::Replace": [{"$x": "1"}, "x=$x"]}              # "x=1"
{"Fn::FindInMap": ["RegionMap", "RegionOne", "AMI"]}
{"Fn::GetAZs": ""}                                  # ["nova"]: the simulated cloud's AZ
{"Fn::Base64": "text"}                              # unchanged: Heat takes plain text
{"Fn::MemberListToMap": ["Name", "Value", [".member.0.Name=k", ".member.0.Value=v"]]}
{"Fn::If": ["Prod", "big", "small"]}, Fn::Equals, Fn::Not, Fn::And, Fn::Or
"""

import collections.abc
import itertools
import json
import re

from heat_lite.common import exception
from heat_lite.engine import function
from heat_lite.engine.hot import condition_functions as cond_funcs
from heat_lite.engine.hot import functions as hot_funcs
from heat_lite.engine.hot import string_functions as str_funcs

# the availability zones of the simulated cloud (a default devstack has just this one)
AVAILABILITY_ZONES = ("nova",)


class FindInMap(function.Function):
    """A function for resolving keys in the template mappings.

    ``{"Fn::FindInMap": [<mapping>, <key>, <value>]}`` -- ``Mappings[mapping][key][value]``.
    """

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        try:
            self._mapname, self._mapkey, self._mapvalue = self.args
        except ValueError as ex:
            raise KeyError(str(ex))

    def result(self):
        mapping = self.stack.t.maps[function.resolve(self._mapname)]
        return mapping[function.resolve(self._mapkey)][function.resolve(self._mapvalue)]


class GetAZs(function.Function):
    """A function for retrieving the availability zones.

    ``{"Fn::GetAZs": "<region>"}`` -- the region is ignored, as in Heat.
    """

    def result(self):
        return list(AVAILABILITY_ZONES)


class ParamRef(function.Function):
    """A function for resolving parameter references.

    ``{"Ref": "<param_name>"}`` -- a parameter (or pseudo parameter) value.
    """

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        self.parameters = self.stack.parameters

    def result(self):
        name = function.resolve(self.args)
        try:
            return self.parameters[name]
        except KeyError:
            raise exception.InvalidTemplateReference(resource=name, key="unknown")


def Ref(stack, fn_name, args):
    """A function for resolving parameters or resource references.

    ``{"Ref": "<param_name>"}`` or ``{"Ref": "<resource_name>"}``: a name the template
    defines as a resource is a resource reference, anything else a parameter.
    """
    hash(args)  # an unhashable argument is an error, as in Heat
    if stack is None or stack.has_resource(args):
        return hot_funcs.GetResource(stack, fn_name, args)
    return ParamRef(stack, fn_name, args)


class GetAtt(hot_funcs.GetAttThenSelect):
    """A function for resolving resource attributes.

    ``{"Fn::GetAtt": [<resource_name>, <attribute_name>]}``.
    """

    def _parse_args(self):
        try:
            resource_name, attribute = self.args
        except ValueError:
            raise ValueError(
                'Arguments to "%s" must be of the form [resource_name, attribute]' % self.fn_name
            )
        return resource_name, attribute, []


class Select(function.Function):
    """A function for selecting an item from a list or map.

    ``{"Fn::Select": [<index>, [<value>, ...]]}`` or ``[<key>, {<key>: <value>}]``; a
    JSON string is parsed first; a missing index or key (or no value yet) gives ''.
    """

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        try:
            self._lookup, self._strings = self.args
        except ValueError:
            raise ValueError(
                'Arguments to "%s" must be of the form [index, collection]' % self.fn_name
            )

    def result(self):
        index = function.resolve(self._lookup)
        strings = function.resolve(self._strings)
        if strings == "":
            return ""
        if isinstance(strings, str):
            try:
                strings = json.loads(strings)
            except ValueError as json_ex:
                raise ValueError('"%s": %s' % (self.fn_name, json_ex))
        if isinstance(strings, collections.abc.Mapping):
            if not isinstance(index, str):
                raise TypeError('Index to "%s" must be a string' % self.fn_name)
            return strings.get(index, "")
        try:
            index = int(index)
        except (ValueError, TypeError):
            pass
        if isinstance(strings, collections.abc.Sequence) and not isinstance(strings, str):
            if not isinstance(index, int):
                raise TypeError('Index to "%s" must be an integer' % self.fn_name)
            try:
                return strings[index]
            except IndexError:
                return ""
        if strings is None:
            return ""
        raise TypeError("Arguments to %s not fully resolved" % self.fn_name)


class Join(str_funcs.Join):
    """A function for joining strings.

    ``{"Fn::Join": [<delimiter>, [<string>, ...]]}``.
    """


def _list_usage(fn_name, example):
    return 'Incorrect arguments to "%s" should be: %s' % (fn_name, example)


class Split(function.Function):
    """A function for splitting strings.

    ``{"Fn::Split": [<delimiter>, <string>]}`` -- the list of parts.
    """

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        usage = _list_usage(self.fn_name, '"%s" : [ ",", "str1,str2"]]' % self.fn_name)
        if isinstance(self.args, (str, collections.abc.Mapping)):
            raise TypeError(usage)
        try:
            self._delim, self._strings = self.args
        except ValueError:
            raise ValueError(usage)

    def result(self):
        strings = function.resolve(self._strings)
        if not isinstance(self._delim, str):
            raise TypeError("Delimiter for %s must be string" % self.fn_name)
        if not isinstance(strings, str):
            raise TypeError("String to split must be string; got %s" % type(strings))
        return strings.split(self._delim)


class Replace(str_funcs.Replace):
    """A function for performing string substitutions.

    ``{"Fn::Replace": [{<key>: <value>, ...}, <string>]}``; longer keys win where keys
    overlap, then the lexicographically smaller.
    """

    def _parse_args(self):
        example = '{"%s": [ {"$var1": "foo", "%%var2%%": "bar"}, "$var1 is %%var2%%"]}' % (
            self.fn_name
        )
        usage = _list_usage(self.fn_name, example)
        if isinstance(self.args, (str, collections.abc.Mapping)):
            raise TypeError(usage)
        try:
            mapping, string = self.args
        except ValueError:
            raise ValueError(usage)
        return mapping, string


class Base64(function.Function):
    """A placeholder function for converting to base64.

    ``{"Fn::Base64": <string>}`` -- the string unchanged (Heat takes UserData as text).
    """

    def result(self):
        resolved = function.resolve(self.args)
        if not isinstance(resolved, str):
            raise TypeError('"%s" argument must be a string' % self.fn_name)
        return resolved


_MEMBER_USAGE = """
            {'Fn::MemberListToMap': ['Name', 'Value',
                                     ['.member.0.Name=key',
                                      '.member.0.Value=door']]}
            """
_MEMBER_KEY = re.compile(r"\.member\.([0-9]+)\.(.*)")


def _member_pairs(params, keyname, valuename):
    """{key: value} from AWS member-list pairs ``.member.N.<keyname>/<valuename>``."""
    members = []
    for name, value in params.items():
        match = _MEMBER_KEY.match(name)
        if match:
            members.append((int(match.group(1)), (match.group(2), value)))
    members.sort(key=lambda m: m[0])
    groups = (dict(kv for _, kv in m) for _, m in itertools.groupby(members, lambda m: m[0]))
    return {g[keyname]: g[valuename] for g in groups if keyname in g and valuename in g}


class MemberListToMap(function.Function):
    """A function to convert lists with enumerated keys and values to mapping.

    ``{"Fn::MemberListToMap": ["Name", "Value", [".member.0.Name=<key>",
    ".member.0.Value=<value>", ...]]}`` -- ``{<key>: <value>, ...}``.
    """

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        try:
            self._keyname, self._valuename, self._list = self.args
        except ValueError:
            raise TypeError('Wrong Arguments try: "%s"' % _MEMBER_USAGE)
        if not isinstance(self._keyname, str):
            raise TypeError("%s Key Name must be a string" % self.fn_name)
        if not isinstance(self._valuename, str):
            raise TypeError("%s Value Name must be a string" % self.fn_name)

    def result(self):
        member_list = function.resolve(self._list)
        if not isinstance(member_list, collections.abc.Iterable):
            raise TypeError("Member list must be a list")

        def item(s):
            if not isinstance(s, str):
                raise TypeError("Member list items must be strings")
            return s.split("=", 1)

        partials = dict(item(s) for s in member_list)
        return _member_pairs(partials, self._keyname, self._valuename)


class ResourceFacade(hot_funcs.ResourceFacade):
    """A function for retrieving data in a parent provider template.

    ``{"Fn::ResourceFacade": "Metadata" | "DeletionPolicy" | "UpdatePolicy"}``.
    """

    _RESOURCE_ATTRIBUTES = (METADATA, DELETION_POLICY, UPDATE_POLICY) = (
        "Metadata",
        "DeletionPolicy",
        "UpdatePolicy",
    )


class If(cond_funcs.If):
    """A function to return corresponding value based on condition evaluation.

    ``{"Fn::If": [<condition_name>, <value_if_true>, <value_if_false>]}``.
    """


class Equals(cond_funcs.Equals):
    """A function for comparing whether two values are equal.

    ``{"Fn::Equals": [<value_1>, <value_2>]}``.
    """


class Not(cond_funcs.Not):
    """A function that acts as a NOT operator on a condition.

    ``{"Fn::Not": [<condition>]}`` -- a list of exactly one condition.
    """

    def _check_args(self):
        msg = 'Arguments to "%s" must be of the form: [condition]' % self.fn_name
        if not self.args or not function.is_list(self.args) or len(self.args) != 1:
            raise ValueError(msg)
        self.condition = self.args[0]


class And(cond_funcs.And):
    """A function that acts as an AND operator on conditions.

    ``{"Fn::And": [<condition_1>, <condition_2>, ...]}`` (two at least).
    """


class Or(cond_funcs.Or):
    """A function that acts as an OR operator on conditions.

    ``{"Fn::Or": [<condition_1>, <condition_2>, ...]}`` (two at least).
    """
