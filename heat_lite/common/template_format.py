"""Template (and environment) text -> dict: JSON first, then YAML, as Heat does.

    tmpl = parse(request_body['template'])      # str (JSON or YAML) or an already parsed dict
    check_size(text)                            # RequestLimitExceeded past max_template_size

Errors are ValueError with Heat's messages ("Error parsing template [root stack] ...",
"The template is not a JSON object or YAML mapping.", "Template format version not
found."); the API shows them as "Template not in valid format: <message>".

YAML timestamps stay strings (``heat_template_version: 2018-08-31`` is '2018-08-31'), and
a document whose aliases would expand past ``MAX_EXPANDED_NODES`` nodes (the "billion
laughs") is refused before anything is built from it.
"""

import collections.abc
import json

import yaml

from heat_lite.common import exception
from heat_lite.conf import CONF

VERSION_KEYS = ("heat_template_version", "HeatTemplateFormatVersion", "AWSTemplateFormatVersion")

# far above any template within max_template_size (512 KiB holds < 300k nodes)
MAX_EXPANDED_NODES = 1000000

_loader_base = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class yaml_loader(_loader_base):
    """Safe loader whose strings and timestamps are plain str."""

    def _construct_yaml_str(self, node):
        return self.construct_scalar(node)


yaml_loader.add_constructor("tag:yaml.org,2002:str", yaml_loader._construct_yaml_str)
yaml_loader.add_constructor("tag:yaml.org,2002:timestamp", yaml_loader._construct_yaml_str)


def _children(node):
    if isinstance(node, yaml.MappingNode):
        for key, value in node.value:
            yield key
            yield value
    elif isinstance(node, yaml.SequenceNode):
        yield from node.value


def _expanded_size(root):
    """Node count of the document with every alias expanded (computed, not built)."""
    sizes = {}  # id(node) -> expanded size; None while the node's children are walked
    stack = [(root, False)]
    while stack:
        node, children_done = stack.pop()
        if not children_done:
            if id(node) not in sizes:
                sizes[id(node)] = None
                stack.append((node, True))
                stack.extend((c, False) for c in _children(node) if id(c) not in sizes)
            continue
        child_sizes = [sizes[id(c)] for c in _children(node)]
        if None in child_sizes:  # a child still being walked is an ancestor
            raise ValueError("Error parsing template: recursive YAML aliases are not allowed")
        sizes[id(node)] = 1 + sum(child_sizes)
        if sizes[id(node)] > MAX_EXPANDED_NODES:
            return sizes[id(node)]
    return sizes[id(root)]


def _load_yaml(text):
    loader = yaml_loader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        size = _expanded_size(node)
        if size > MAX_EXPANDED_NODES:
            raise ValueError(
                "Error parsing template: YAML aliases expand the document beyond "
                "%d nodes" % MAX_EXPANDED_NODES
            )
        return loader.construct_document(node)
    finally:
        loader.dispose()


def simple_parse(tmpl_str, tmpl_url=None):
    """Parse JSON or YAML text into a dict (no version check)."""
    try:
        tpl = json.loads(tmpl_str)
    except ValueError:
        try:
            tpl = _load_yaml(tmpl_str)
        except yaml.YAMLError:
            # the pure-Python loader gives the message with the offending snippet
            try:
                tpl = yaml.load(tmpl_str, Loader=yaml.SafeLoader)
            except yaml.YAMLError as yea:
                raise ValueError("Error parsing template %s %s" % (tmpl_url or "[root stack]", yea))
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
    """A template as a dict, from JSON/YAML text or a dict; checks size and version key."""
    if isinstance(tmpl, collections.abc.Mapping):
        check_size(str(tmpl))
        tpl = dict(tmpl)
    else:
        check_size(str(tmpl))
        tpl = simple_parse(tmpl, tmpl_url)
    if not any(key in tpl for key in VERSION_KEYS):
        raise ValueError("Template format version not found.")
    return tpl


def parse_environment(env):
    """An environment file (YAML or JSON text, or an already parsed mapping) as a dict."""
    if isinstance(env, collections.abc.Mapping):
        return dict(env)
    return simple_parse(env) if env else {}
