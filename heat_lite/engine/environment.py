"""The stack environment: parameters, parameter_defaults, resource_registry, ...

``merge`` builds the environment the engine stores from what the API sent: the
environment dict (with ``parameters`` already merged in by the API) and, when given, the
environment files out of ``files``, merged in order (later wins key by key).

    env = environment.merge({'parameters': {'p': 'x'}}, files, ['file:///e.yaml'])
"""

from heat_lite.common import exception, template_format

SECTIONS = (
    PARAMETERS,
    PARAMETER_DEFAULTS,
    RESOURCE_REGISTRY,
    ENCRYPTED_PARAM_NAMES,
    EVENT_SINKS,
    PARAMETER_MERGE_STRATEGIES,
) = (
    "parameters",
    "parameter_defaults",
    "resource_registry",
    "encrypted_param_names",
    "event_sinks",
    "parameter_merge_strategies",
)


def empty():
    return {
        PARAMETERS: {},
        PARAMETER_DEFAULTS: {},
        RESOURCE_REGISTRY: {"resources": {}},
        ENCRYPTED_PARAM_NAMES: [],
        EVENT_SINKS: [],
    }


def validate(env):
    if not isinstance(env, dict):
        raise exception.InvalidTemplateSection(section="environment")
    for section, value in env.items():
        if section not in SECTIONS:
            raise ValueError('environment has wrong section "%s"' % section)
        if value is None:
            raise ValueError('environment has empty section "%s"' % section)


def _merge_into(target, env):
    validate(env)
    for section in (PARAMETERS, PARAMETER_DEFAULTS):
        target[section].update(env.get(section) or {})
    registry = env.get(RESOURCE_REGISTRY) or {}
    for key, value in registry.items():
        if key == "resources" and isinstance(value, dict):
            target[RESOURCE_REGISTRY]["resources"].update(value)
        else:
            target[RESOURCE_REGISTRY][key] = value
    target[ENCRYPTED_PARAM_NAMES].extend(env.get(ENCRYPTED_PARAM_NAMES) or [])
    target[EVENT_SINKS].extend(env.get(EVENT_SINKS) or [])


def merge(params, files, environment_files=None, base=None, clear_parameters=()):
    """The stored environment: ``base`` (a PATCH update keeps the stack's) less the
    cleared parameters, then the environment files in order, then the request's own."""
    result = empty()
    if base:
        _merge_into(result, {k: v for k, v in base.items() if v is not None})
        for name in clear_parameters or ():
            result[PARAMETERS].pop(name, None)
            result[PARAMETER_DEFAULTS].pop(name, None)
    for name in environment_files or []:
        if name not in files:
            raise exception.NotFound("Environment file %s not found in files" % name)
        _merge_into(result, template_format.parse_environment(files[name]))
    _merge_into(result, params or {})
    return result
