"""Resource attribute schemas, and selecting a path inside an attribute value.

attributes_schema = {
    'first_address': Schema('The first IP address', type=Schema.STRING),
    'networks': Schema('Addresses by network', type=Schema.MAP),
}
select_from_attribute({'private': ['10.0.0.3']}, ['private', 0]) == '10.0.0.3'
"""

import collections.abc
import functools

from heat_lite.engine import constraints as constr

# the attribute "name" used by ``get_attr: [resource]`` (all attributes)
ALL_ATTRIBUTES = "*"

BASE_ATTRIBUTES = (SHOW_ATTR,) = ("show",)


class Schema(constr.Schema):
    """The schema of one attribute: a description and an optional type."""

    KEYS = (DESCRIPTION, TYPE) = ("description", "type")
    TYPES = (UNKNOWN, STRING, MAP, LIST, INTEGER, BOOLEAN, NUMBER) = (
        None,
        "String",
        "Map",
        "List",
        "Integer",
        "Boolean",
        "Number",
    )
    CACHE_MODES = (CACHE_LOCAL, CACHE_NONE) = ("cache_local", "cache_none")

    def __init__(self, description=None, type=UNKNOWN, cache_mode=CACHE_LOCAL):
        super().__init__(type, description)
        self.cache_mode = cache_mode

    def __getitem__(self, key):
        if key == self.DESCRIPTION and self.description is not None:
            return self.description
        if key == self.TYPE and self.type is not None:
            return self.type.lower()
        raise KeyError(key)


def select_from_attribute(attribute_value, path):
    """Index ``attribute_value`` with each key/index of ``path``; None if anything misses."""

    def component(collection, key):
        if not isinstance(collection, (collections.abc.Mapping, collections.abc.Sequence)):
            raise TypeError("Can't traverse attribute path")
        if not isinstance(key, (str, int)):
            raise TypeError("Path components in attributes must be strings")
        return collection[key]

    try:
        return functools.reduce(component, path, attribute_value)
    except (KeyError, IndexError, TypeError):
        return None


# Every resource type has these besides its own (heat/engine/resource.py).
BASE_ATTRIBUTES_SCHEMA = {
    SHOW_ATTR: Schema(
        "Detailed information about resource.", type=Schema.MAP, cache_mode=Schema.CACHE_NONE
    ),
}


def as_outputs(resource_name, attributes_schema, template_type="cfn"):
    """Provider-template outputs for ``attributes_schema``, plus ``OS::stack_id``.

    as_outputs('R', {'a': Schema('A')}, 'hot')
    -> {'a': {'value': {'get_attr': ['R', 'a']}, 'description': 'A'},
        'OS::stack_id': {'value': {'get_resource': 'R'}}}
    """
    outputs = {}
    for name, schema in attributes_schema.items():
        if template_type == "hot":
            outputs[name] = {
                "value": {"get_attr": [resource_name, name]},
                "description": schema.description,
            }
        else:
            outputs[name] = {
                "Value": {"Fn::GetAtt": [resource_name, name]},
                "Description": schema.description,
            }
    if template_type == "hot":
        outputs["OS::stack_id"] = {"value": {"get_resource": resource_name}}
    else:
        outputs["OS::stack_id"] = {"Value": {"Ref": resource_name}}
    return outputs
