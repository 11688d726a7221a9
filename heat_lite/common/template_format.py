"""The one parser of template, environment and file text, for the API and the engine alike.

JSON first, then YAML, as Heat does:

    tmpl = parse(request_body['template'])      # str (JSON or YAML) or an already parsed dict
    data = load(text, kind='Environment', limit=CONF.max_json_body_size)   # any document
    body = load_json(req.body)                  # JSON only, depth-checked
    check_size(text)                            # RequestLimitExceeded past max_template_size

Errors are ValueError with Heat's messages ("Error parsing template [root stack] ...",
"The template is not a JSON object or YAML mapping.", "Template format version not
found."); the API shows them as "Template not in valid format: <message>".

Hostile text is refused before anything big is built from it:

* YAML aliases are counted, not expanded: a document whose aliases would make it bigger
  than its size limit (the "billion laughs", 566 bytes of text standing for gigabytes) is
  ``RequestLimitExceeded``, as the same document written out in full would be; a
  recursive alias is a ValueError.
* Data nested more than ``MAX_NESTING_DEPTH`` levels deep (JSON or YAML) is a ValueError:
  every later step (validation, function resolution, the RPC serializer) walks the data
  recursively and must stay well inside Python's recursion limit.

YAML timestamps stay strings (``heat_template_version: 2018-08-31`` is '2018-08-31').
"""

import collections.abc
import json

import yaml

from heat_lite.common import exception
from heat_lite.conf import CONF

HOT_VERSION_KEY = "heat_template_version"
CFN_VERSION_KEYS = ("AWSTemplateFormatVersion", "HeatTemplateFormatVersion")
VERSION_KEYS = (HOT_VERSION_KEY,) + CFN_VERSION_KEYS

# Each level of data costs the engine's recursive walks (parse, validate, resolve,
# deepcopy, the RPC serializer) up to ~4 Python frames: 100 levels stay far inside the
# default recursion limit (1000), and far beyond what any real template nests.
MAX_NESTING_DEPTH = 100

# Above this size a YAML error keeps libyaml's message (line and column, no snippet):
# the pure-Python composer would hold the process for seconds to word it.
PYTHON_COMPOSER_MAX = 65536

_loader_base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class yaml_loader(_loader_base):
    """Safe loader whose strings and timestamps are plain str."""

    def _construct_yaml_str(self, node):
        return self.construct_scalar(node)


yaml_loader.add_constructor("tag:yaml.org,2002:str", yaml_loader._construct_yaml_str)
yaml_loader.add_constructor("tag:yaml.org,2002:timestamp", yaml_loader._construct_yaml_str)


class StructureError(ValueError):
    """Text that parses, but into a structure the engine refuses to hold."""


class NestingTooDeep(StructureError):
    """Data nested deeper than MAX_NESTING_DEPTH."""

    def __init__(self):
        super().__init__("data nested more than %d levels deep" % MAX_NESTING_DEPTH)


def _node_children(node):
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def _measure_nodes(root):
    """(size, depth) of a composed YAML document with every alias expanded, computed
    without building it: a scalar counts its length, a collection 1 + its children."""
    measures = {}  # id(node) -> (size, depth); None while the node's children are walked
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if not children_done:
            if id(node) not in measures:
                measures[id(node)] = None
                stack.append((node, True))
                stack.extend((c, False) for c in _node_children(node) if id(c) not in measures)
            continue
        if isinstance(node, yaml.ScalarNode):
            measures[id(node)] = (max(len(node.value), 1), 1)
            continue
        children = [measures[id(c)] for c in _node_children(node)]
        if None in children:  # a child still being walked is an ancestor
            raise StructureError("recursive YAML aliases are not allowed")
        size = 1 + sum(m[0] for m in children)
        depth = 1 + max((m[1] for m in children), default=0)
        if depth > MAX_NESTING_DEPTH:
            raise NestingTooDeep()
        measures[id(node)] = (size, depth)
    return measures[id(root)]


def _check_expanded(size, kind, limit):
    if size > limit:
        raise exception.RequestLimitExceeded(
            message="%s size with its YAML aliases expanded (%s bytes or more) exceeds "
            "maximum allowed size (%s bytes)." % (kind, size, limit)
        )


def _load_yaml(text, kind, limit):
    loader = yaml_loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        if "&" not in text:  # no anchor, no alias: nothing to expand
            data = loader.construct_document(node)
            check_depth(data)
            return data
        size, _depth = _measure_nodes(node)
        _check_expanded(size, kind, limit)
        return loader.construct_document(node)
    finally:
        loader.dispose()


# the exact types of a parsed document's scalars: the walks over templates (here and in
# heat_lite.engine's parse, resolve, validate and dependencies) pass them by with one set
# look-up instead of the ABC checks (Mapping, Iterable) a container needs
SCALAR_TYPES = frozenset((str, int, float, bool, type(None)))


def check_depth(data):
    """ValueError when ``data`` (parsed JSON/YAML) nests more than MAX_NESTING_DEPTH deep.

    Level by level, scalars passed by as SCALAR_TYPES."""
    level, depth = [data], 1
    while level:
        children, containers = [], False
        for value in level:
            kind = type(value)
            if kind in SCALAR_TYPES:
                continue
            if kind is dict or isinstance(value, collections.abc.Mapping):
                children.extend(value.values())
            elif kind is list or isinstance(value, list | tuple):
                children.extend(value)
            else:
                continue
            containers = True
        if containers and depth > MAX_NESTING_DEPTH:
            raise NestingTooDeep()
        level, depth = children, depth + 1


def load_json(text):
    """``json.loads`` whose too-deep input is a ValueError, not a RecursionError."""
    try:
        data = json.loads(text)
    except RecursionError:
        raise NestingTooDeep()
    check_depth(data)
    return data


def _parse_yaml(text, kind, limit):
    try:
        return _load_yaml(text, kind, limit)
    except yaml.YAMLError as c_error:
        if "exceeded maximum nesting depth" in str(c_error):  # libyaml stops at 1000
            raise NestingTooDeep()
        error = c_error
    if len(text) > PYTHON_COMPOSER_MAX:
        raise ValueError(str(error))
    # the pure-Python composer words the message with the offending snippet
    try:
        yaml.compose(text, Loader=yaml.SafeLoader)
    except yaml.YAMLError as py_error:
        error = py_error
    except RecursionError:
        raise NestingTooDeep()
    raise ValueError(str(error))


def load(text, kind="Template", limit=None):
    """JSON or YAML text -> data (None for an empty document), guarded as above.

    ``kind`` and ``limit`` (default max_template_size) word and bound the size check of
    a document that YAML aliases expand. A YAML syntax error is a ValueError with
    PyYAML's message; a refused structure is a StructureError.
    """
    limit = CONF.max_template_size if limit is None else limit
    try:
        return load_json(text)
    except StructureError:
        raise
    except ValueError:
        return _parse_yaml(text, kind, limit)


def simple_parse(tmpl_str, tmpl_url=None):
    """Parse template JSON or YAML text into a dict (no version check)."""
    where = tmpl_url or "[root stack]"
    try:
        tpl = load(tmpl_str)
    except StructureError as ex:
        raise ValueError("Error parsing template %s: %s" % (where, ex))
    except ValueError as ex:
        raise ValueError("Error parsing template %s %s" % (where, ex))
    if tpl is None:
        tpl = {}
    if not isinstance(tpl, dict):
        raise ValueError("The template is not a JSON object or YAML mapping.")
    return tpl


def check_size(text):
    """RequestLimitExceeded when ``text`` is longer than ``max_template_size``."""
    limit = CONF.max_template_size
    if len(text) > limit:
        raise exception.RequestLimitExceeded(
            message="Template size (%s bytes) exceeds maximum allowed size (%s bytes)."
            % (len(text), limit)
        )


def parse(tmpl, tmpl_url=None):
    """A template as a dict, from JSON/YAML text or a dict; checks size, depth, version key."""
    if isinstance(tmpl, collections.abc.Mapping):
        check_depth(tmpl)
        check_size(str(tmpl))
        tpl = dict(tmpl)
    else:
        check_size(str(tmpl))
        tpl = simple_parse(tmpl, tmpl_url)
    if not any(key in tpl for key in VERSION_KEYS):
        raise ValueError("Template format version not found.")
    return tpl
