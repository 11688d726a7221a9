"""Reading a stack's other resources for implicit dependencies (Heat's ``add_dependencies``).

A plugin whose cloud API creates hidden objects (a server's ports take addresses from
every subnet of its network, a floating IP needs the router of its external network)
declares ``implied_dependencies(defn, stack)``: the names of the stack's resources it
must follow although no ``get_resource`` says so. The graph builder
(``ResourceDefinition.required_resource_names``) adds them.

Values are read as Heat reads them at that moment: functions resolved against the stack
(a resource not created yet is known by its name, an attribute not known yet is None),
deprecated keys standing in for their successors, names not looked up in the cloud.

    for name, props in implicit.resources_of(stack, subnet.Subnet, but=defn.name):
        if implicit.value(props, "network", "network_id") == my_network:
            yield name
"""

from heat_lite.common import exception

# a property that cannot be read yet (an invalid value: validation reports it later)
UNREADABLE = object()


def resources_of(stack, plugin_class, but=None):
    """(name, Properties) of the stack's resources whose plugin is a ``plugin_class``."""
    for name in stack.t.resource_names():
        if name != but:
            props = resource_properties(stack, name, plugin_class)
            if props is not None:
                yield name, props


def resource_properties(stack, name, plugin_class):
    """The Properties of resource ``name`` if its plugin is a ``plugin_class``, else None."""
    defn = stack.definition(name)
    if defn is None:
        return None
    try:
        cls = stack.resource_class(defn)
    except exception.HeatException:
        return None
    if isinstance(cls, type) and issubclass(cls, plugin_class):
        return properties_of(defn, cls, stack)
    return None


def properties_of(defn, plugin_class, stack):
    """A Properties view of ``defn`` under the plugin's schema (functions resolve on read)."""
    return defn.properties(plugin_class.properties_schema, stack.context)


def value(properties, *keys):
    """The first of ``keys`` with a value (Heat's translation of a deprecated key into its
    successor), None when none has one, UNREADABLE when a value cannot be read."""
    try:
        for key in keys:
            found = properties[key]
            if found:
                return found
    except (ValueError, TypeError, exception.HeatException):
        return UNREADABLE
    return None
