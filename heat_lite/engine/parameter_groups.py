"""The ``parameter_groups`` section of a HOT template: how a UI groups the parameters.

Heat checks that the section is a list, that each group has a ``parameters`` list, that
every name is a parameter of the template and that no parameter is in two groups:

    validate(tmpl.t.get('parameter_groups'), ['flavor', 'image'])
    # StackValidationFailed: "Parameter Groups error: parameter_groups.Servers: The
    #   grouped parameter key_name does not reference a valid parameter."
"""

from heat_lite.common import exception

PARAMETER_GROUPS, PARAMETERS, LABEL = "parameter_groups", "parameters", "label"


def _invalid(message, label=None):
    path = [PARAMETER_GROUPS] if label is None else [PARAMETER_GROUPS, label]
    return exception.StackValidationFailed(
        error="Parameter Groups error", path=path, message=message
    )


def validate(groups, param_names):
    """Raise StackValidationFailed (Heat's messages) for a bad ``parameter_groups``."""
    if not groups:
        return
    if not isinstance(groups, list):
        raise _invalid("The %s should be a list." % PARAMETER_GROUPS)
    grouped = []
    for group in groups:
        label = group.get(LABEL, "") if isinstance(group, dict) else ""
        names = group.get(PARAMETERS) if isinstance(group, dict) else None
        if names is None:
            raise _invalid("The %s must be provided for each parameter group." % PARAMETERS, label)
        if not isinstance(names, list):
            raise _invalid("The %s of parameter group should be a list." % PARAMETERS, label)
        for name in names:
            if name in grouped:
                raise _invalid(
                    "The %s parameter must be assigned to one parameter group only." % name, label
                )
            grouped.append(name)
            if name not in param_names:
                raise _invalid(
                    "The grouped parameter %s does not reference a valid parameter." % name, label
                )


def groups_of(tmpl):
    """The section as validate/preview show it (``ParameterGroups``), None if empty."""
    return tmpl.t.get(PARAMETER_GROUPS) or None
