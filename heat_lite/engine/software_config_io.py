"""The inputs and outputs a software config declares, normalised as Heat stores them.

    InputConfig(name='foo').as_dict()                 -> {'name': 'foo', 'type': 'String'}
    InputConfig(value=3, name='n', type='Number').input_data()   -> ('n', 3)
    OutputConfig(name='out').as_dict()   -> {'name': 'out', 'type': 'String', 'error_output': False}
    check_io_schema_list('x')            -> TypeError (the API answers 400 "malformed")

A bad member (no name, unknown type) is a ValueError, as in heat/engine/software_config_io.py.
"""

import collections.abc

from heat_lite.common import exception
from heat_lite.engine import constraints, properties

P = properties.Schema

IO_NAME, DESCRIPTION, TYPE, DEFAULT, REPLACE_ON_CHANGE, VALUE, ERROR_OUTPUT = (
    "name",
    "description",
    "type",
    "default",
    "replace_on_change",
    "value",
    "error_output",
)
TYPES = ("String", "Number", "CommaDelimitedList", "Json", "Boolean")

input_config_schema = {
    IO_NAME: P(P.STRING, "Name of the input.", required=True),
    DESCRIPTION: P(P.STRING, "Description of the input."),
    TYPE: P(
        P.STRING,
        "Type of the value of the input.",
        default="String",
        constraints=[constraints.AllowedValues(TYPES)],
    ),
    DEFAULT: P(P.ANY, "Default value for the input if none is specified."),
    REPLACE_ON_CHANGE: P(
        P.BOOLEAN,
        "Replace the deployment instead of updating it when the input value changes.",
        default=False,
    ),
}

output_config_schema = {
    IO_NAME: P(P.STRING, "Name of the output.", required=True),
    DESCRIPTION: P(P.STRING, "Description of the output."),
    TYPE: P(
        P.STRING,
        "Type of the value of the output.",
        default="String",
        constraints=[constraints.AllowedValues(TYPES)],
    ),
    ERROR_OUTPUT: P(
        P.BOOLEAN,
        "Denotes that the deployment is in an error state if this output has a value.",
        default=False,
    ),
}


class IOConfig:
    schema = {}

    def __init__(self, **config):
        self._props = properties.Properties(self.schema, config)
        try:
            self._props.validate()
        except exception.StackValidationFailed as exc:
            raise ValueError(str(exc))

    def name(self):
        return self._props[IO_NAME]

    def as_dict(self):
        """What is stored: the schema's keys in order, None values left out."""
        return {key: value for key, value in self._props.items() if value is not None}


_NO_VALUE = object()


class InputConfig(IOConfig):
    schema = input_config_schema

    def __init__(self, value=_NO_VALUE, **config):
        super().__init__(**config)
        self._value = value

    def default(self):
        return self._props[DEFAULT]

    def replace_on_change(self):
        return self._props[REPLACE_ON_CHANGE]

    def as_dict(self):
        data = super().as_dict()
        if not data[REPLACE_ON_CHANGE]:
            del data[REPLACE_ON_CHANGE]
        if self._value is not _NO_VALUE:
            data[VALUE] = self._value
        return data

    def input_data(self):
        return self.name(), (None if self._value is _NO_VALUE else self._value)


class OutputConfig(IOConfig):
    schema = output_config_schema

    def error_output(self):
        return self._props[ERROR_OUTPUT]


def check_io_schema_list(io_configs):
    """TypeError unless ``io_configs`` is a list of mappings."""
    if not isinstance(io_configs, collections.abc.Sequence) or isinstance(
        io_configs, (str, collections.abc.Mapping)
    ):
        raise TypeError("Software Config I/O Schema must be in a list")
    if not all(isinstance(conf, collections.abc.Mapping) for conf in io_configs):
        raise TypeError("Software Config I/O Schema must be a dict")
