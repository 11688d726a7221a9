"""A fake of the ``stack`` protocol template functions use (heat_lite.engine.function)."""

from heat_lite.common.identifier import HeatIdentifier
from heat_lite.engine import attributes, function
from heat_lite.engine.template import Template


class FakeStack:
    """Template, parameters and resource data from dicts; any template format.

    ``attrs`` maps resource names to attribute dicts; ``attr_names`` to the valid
    attribute names (None: anything goes); ``parent_resource`` is what
    ``resource_facade`` reads.
    """

    def __init__(
        self,
        tmpl,
        params=None,
        attrs=None,
        attr_names=None,
        files=None,
        identifier=HeatIdentifier("proj", "st", "sid"),
        parent_resource=None,
    ):
        self.t = tmpl if isinstance(tmpl, Template) else Template(tmpl, files=files)
        self.parameters = self.t.parameters(identifier, params or {})
        self.attrs = attrs or {}
        self.attr_names = attr_names or {}
        self.parent_resource = parent_resource
        self.calls = []

    def has_resource(self, name):
        return name in self.t.resource_names()

    def resource_reference(self, name):
        return "%s-id" % name

    def resource_attribute(self, name, attr, *path):
        self.calls.append((name, attr) + path)
        value = self.attrs.get(name, {}).get(attr)
        return attributes.select_from_attribute(value, path)

    def all_resource_attributes(self, name):
        return dict(self.attrs.get(name, {}))

    def resource_attribute_names(self, name):
        return self.attr_names.get(name)


def hot_stack(version="2018-08-31", **sections):
    """A FakeStack of a HOT template with these sections (``resources`` defaults to {})."""
    tmpl = {"heat_template_version": version, "resources": {}}
    tmpl.update({k: v for k, v in sections.items() if k not in _STACK_ARGS})
    return FakeStack(tmpl, **{k: v for k, v in sections.items() if k in _STACK_ARGS})


_STACK_ARGS = ("params", "attrs", "attr_names", "files", "identifier", "parent_resource")


def parse(snippet, stack=None, version="2018-08-31"):
    stack = stack or hot_stack(version)
    return stack.t.parse(stack, snippet, "outputs.o.value")


def resolve(snippet, stack=None, version="2018-08-31"):
    return function.resolve(parse(snippet, stack, version))


def validate(snippet, stack=None, version="2018-08-31"):
    function.validate(parse(snippet, stack, version), ["outputs", "o", "value"])
