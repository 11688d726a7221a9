"""HOT string functions: substitution, joining, splitting, URLs.

    str_replace: {template: 'http://$host/', params: {$host: ...}}
    str_replace_strict / str_replace_vstrict: the same, every param must be used
        (vstrict: and no value may be empty)
    list_join: [', ', [a, b], [c]]
    str_split: [',', 'a,b,c', 1]              # 'b' (without the index: the list)
    make_url: {scheme: https, host: h, port: 443, path: /v1, query: {a: b}}

The CFN forms (``Fn::Join``, ``Fn::Replace``, ``Fn::Split``) reuse these classes
(heat_lite.engine.cfn.functions).
"""

import collections.abc
import json
from urllib import parse as urlparse

from heat_lite.engine import function


class Replace(function.Function):
    """A function for performing string substitutions.

    ``str_replace: {template: <string>, params: {<key>: <value>, ...}}``.

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
        return self._replace(template, keys, mapping, unreplaced)

    def _replace(self, template, keys, mapping, unreplaced):
        """Heat's substitution: the template is split at every occurrence of the first
        key, the parts at the second, and so on, a value once inserted never being
        searched again. Done in one pass per key over the text not yet replaced (a list
        of segments, the inserted values held by reference) rather than recursing into
        every part for every key (a config of 135 keys: 1 ms, where the recursion takes
        80)."""
        # (is text still to search, text): the values are the odd segments
        segments = [(True, template)]
        for placeholder in keys:
            if not isinstance(placeholder, str):
                raise TypeError('"%s" param placeholders must be strings' % self.fn_name)
            value = self._validate_replacement(mapping[placeholder], placeholder)
            found = False
            out = []
            for searchable, text in segments:
                if not searchable or placeholder not in text:
                    out.append((searchable, text))
                    continue
                found = True
                parts = text.split(placeholder)
                out.append((True, parts[0]))
                for part in parts[1:]:
                    out.append((False, value))
                    out.append((True, part))
            if found:
                unreplaced.discard(placeholder)
                segments = out
        result_size = sum(len(text) for _searchable, text in segments)
        function.check_size(self.fn_name, result_size)
        result = "".join(text for _searchable, text in segments)
        if self._strict and unreplaced:
            raise ValueError(
                "The following params were not found in the template: %s"
                % ",".join(sorted(sorted(unreplaced), key=len, reverse=True))
            )
        return result


class ReplaceJson(Replace):
    """A function for performing string substitutions.

    str_replace from HOT 2015-10-15: maps and lists are substituted as JSON.
    """

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
    """A function for performing string substitutions.

    str_replace_strict: every param must occur in the template.
    """

    _strict = True


class ReplaceJsonVeryStrict(ReplaceJsonStrict):
    """A function for performing string substitutions.

    str_replace_vstrict: ... and no param value may be empty.
    """

    _allow_empty_value = False


class Join(function.Function):
    """A function for joining strings.

    ``list_join: [<delimiter>, [<string>, ...]]`` (HOT up to 2015-04-30).
    """

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
            if not function.is_list(item):
                raise TypeError('"%s" must operate on a list' % self.fn_name)
            strings.extend(item)
        return strings

    def result(self):
        strings = self._strings()
        delim = function.resolve(self._delim)
        if not isinstance(delim, str):
            raise TypeError('"%s" delimiter must be a string' % self.fn_name)
        strings = [self._ensure_string(s) for s in strings]
        size = sum(map(len, strings)) + len(delim) * (len(strings) - 1)
        function.check_size(self.fn_name, size)
        return delim.join(strings)

    def _ensure_string(self, s):
        if s is None:
            return ""
        if not isinstance(s, str):
            raise TypeError("Items to join must be strings not %s" % repr(s)[:200])
        return s


class JoinMultiple(Join):
    """A function for joining one or more lists of strings.

    list_join from HOT 2015-10-15: several lists; maps and lists joined as JSON.
    """

    _example = '"%s" : [ " ", [ "str1", "str2"] ...]'

    def _parse_args(self, args):
        if len(args) < 2:
            raise ValueError(self._usage())
        return args[0], args[1:]

    def _strings(self):
        strings = []
        for item in function.resolve(self._lists):
            if item:
                if not function.is_list(item):
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


class StrSplit(function.Function):
    """A function for splitting delimited strings into a list.

    ``str_split: [<delimiter>, <string>]`` gives the list; with a third argument,
    ``[<delimiter>, <string>, <index>]``, the item at that index.
    """

    def __init__(self, stack, fn_name, args):
        super().__init__(stack, fn_name, args)
        if isinstance(args, (str, collections.abc.Mapping)):
            raise TypeError(self._usage())

    def _usage(self, what="arguments"):
        example = '"%s" : [ ",", "apples,pears", <index>]' % self.fn_name
        return 'Incorrect %s to "%s" should be: %s' % (what, self.fn_name, example)

    def result(self):
        args = function.resolve(self.args)
        if not isinstance(args, list) or len(args) < 2:
            raise ValueError(self._usage())
        delim, text, rest = args[0], args[1], args[2:]
        if text is None:
            return None
        parts = text.split(delim)
        if not rest:
            return parts
        try:
            index = int(rest[0])
        except ValueError:
            raise ValueError(self._usage("index"))
        try:
            return parts[index]
        except IndexError:
            raise ValueError(
                'Incorrect index to "%s" should be between 0 and %s'
                % (self.fn_name, len(parts) - 1)
            )


class MakeURL(function.Function):
    """A function for performing substitutions on maps.

    ``make_url: {scheme, username, password, host, port, path, query: {k: v}, fragment}``
    gives a correctly escaped URL (an IPv6 host is bracketed).
    """

    _ARG_KEYS = (SCHEME, USERNAME, PASSWORD, HOST, PORT, PATH, QUERY, FRAGMENT) = (
        "scheme",
        "username",
        "password",
        "host",
        "port",
        "path",
        "query",
        "fragment",
    )

    def _check_args(self, args):
        for arg in self._ARG_KEYS:
            if arg not in args:
                continue
            value = args[arg]
            if arg == self.QUERY:
                if not isinstance(value, (function.Function, collections.abc.Mapping)):
                    raise TypeError('The "%s" argument to "%s" must be a map' % (arg, self.fn_name))
                return  # Heat checks nothing after the query
            if arg == self.PORT:
                self._check_port(value, args)
            elif not isinstance(value, (function.Function, str)):
                raise TypeError('The "%s" argument to "%s" must be a string' % (arg, self.fn_name))

    def _check_port(self, port, args):
        if isinstance(port, function.Function):
            return
        if not isinstance(port, int):
            try:
                port = int(port)
            except ValueError:
                raise ValueError(
                    'Invalid URL port "%s" for %s called with %s' % (port, self.fn_name, args)
                )
        if not 0 < port <= 65535:
            raise ValueError("Invalid URL port %d, must be in range 1-65535" % port)

    def validate(self):
        super().validate()
        if not isinstance(self.args, collections.abc.Mapping):
            raise TypeError('The arguments to "%s" must be a map' % self.fn_name)
        invalid = set(self.args) - set(self._ARG_KEYS)
        if invalid:
            raise ValueError('Invalid arguments to "%s": %s' % (self.fn_name, ", ".join(invalid)))
        self._check_args(self.args)

    def result(self):
        args = function.resolve(self.args)
        self._check_args(args)
        scheme = args.get(self.SCHEME, "")
        if ":" in scheme:
            raise ValueError("URL \"%s\" should not contain ':'" % self.SCHEME)
        path = urlparse.quote(args.get(self.PATH, ""))
        query = urlparse.urlencode(args.get(self.QUERY, {})).replace("%2F", "/")
        fragment = urlparse.quote(args.get(self.FRAGMENT, ""))
        return urlparse.urlunsplit((scheme, self._netloc(args), path, query, fragment))

    def _netloc(self, args):
        parts = []
        username = urlparse.quote(args.get(self.USERNAME, ""), safe="")
        password = urlparse.quote(args.get(self.PASSWORD, ""), safe="")
        if username or password:
            parts.append(username)
            if password:
                parts += [":", password]
            parts.append("@")
        host = args.get(self.HOST, "")
        if host.startswith("[") and host.endswith("]"):
            host = host[1:-1]
        host = urlparse.quote(host, safe=":")
        parts.append("[%s]" % host if ":" in host else host)
        port = args.get(self.PORT, "")
        if port:
            parts += [":", str(port)]
        return "".join(parts)
