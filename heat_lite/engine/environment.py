"""The stack environment: parameters, parameter_defaults, resource_registry, ...

``merge`` builds the environment the engine stores from what the API sent: the
environment dict (with ``parameters`` already merged in by the API) and, when given, the
environment files out of ``files``, merged over it in order (later wins key by key).

    env = environment.merge({'parameters': {'p': 'x'}}, files, ['file:///e.yaml'])
"""

from heat_lite.common import environment_format, exception
from heat_lite.common.environment_format import (  # noqa: F401 (the section names)
    ENCRYPTED_PARAM_NAMES,
    EVENT_SINKS,
    PARAMETER_DEFAULTS,
    PARAMETER_MERGE_STRATEGIES,
    PARAMETERS,
    RESOURCE_REGISTRY,
    SECTIONS,
)


def empty():
    return {
        PARAMETERS: {},
        PARAMETER_DEFAULTS: {},
        RESOURCE_REGISTRY: {"resources": {}},
        ENCRYPTED_PARAM_NAMES: [],
        EVENT_SINKS: [],
    }


def _merge_into(target, env):
    if not isinstance(env, dict):
        raise exception.InvalidTemplateSection(section="environment")
    environment_format.validate(env)
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
    cleared parameters, then the request's own, then the environment files in order.

    As in Heat, the files win over the request's ``parameters``: ``stack create -e env.yaml
    --parameter p=y`` keeps the value ``env.yaml`` gives ``p``."""
    result = empty()
    if base:
        _merge_into(result, {k: v for k, v in base.items() if v is not None})
        for name in clear_parameters or ():
            result[PARAMETERS].pop(name, None)
            result[PARAMETER_DEFAULTS].pop(name, None)
    _merge_into(result, params or {})
    for name in environment_files or []:
        if name not in files:
            raise exception.NotFound("Environment file %s not found in files" % name)
        _merge_into(result, environment_format.parse(files[name]))
    return result


def register_template_types(env, tmpl):
    """Record each provider template that ``tmpl`` names directly (``type: file:///x.yaml``)
    in the registry as ``"file:///x.yaml": "file:///x.yaml"``, as Heat's registry does when
    it looks such a type up: the stored (and shown) environment carries those entries."""
    try:
        names = tmpl.resource_names()
    except Exception:
        return env  # a malformed resources section: validation reports it
    registry = env.setdefault(RESOURCE_REGISTRY, {"resources": {}})
    for name in names:
        rsrc_type = tmpl.resource_type(name)
        if is_template(rsrc_type):
            registry.setdefault(rsrc_type, rsrc_type)
    return env


# -- resource_registry: which class a resource type names ---------------------------------

TEMPLATE_SUFFIXES = (".yaml", ".template")
MAX_ALIAS_HOPS = 20


def is_template(type_name):
    """Whether a type (or registry target) names a provider template file."""
    return isinstance(type_name, str) and (
        type_name.endswith(TEMPLATE_SUFFIXES) or "://" in type_name
    )


def _lookup(mapping, name):
    """``mapping[name]``, or the target of the longest matching ``prefix*`` key (its ``*``
    replaced by the rest of ``name``); None when nothing matches."""
    if not isinstance(mapping, dict):
        return None
    if name in mapping and isinstance(mapping[name], str):
        return mapping[name]
    best = None
    for key, target in mapping.items():
        if not (isinstance(key, str) and key.endswith("*") and isinstance(target, str)):
            continue
        prefix = key[:-1]
        if name.startswith(prefix) and (best is None or len(prefix) > len(best[0])):
            best = (prefix, target)
    if best is None:
        return None
    prefix, target = best
    return target[:-1] + name[len(prefix) :] if target.endswith("*") else target


def _resource_entries(registry, resource_name):
    """The per-resource registry sections that apply to ``resource_name`` (exact first)."""
    per_resource = registry.get("resources") or {}
    if not resource_name or not isinstance(per_resource, dict):
        return []
    entries = []
    if isinstance(per_resource.get(resource_name), dict):
        entries.append(per_resource[resource_name])
    for key, value in per_resource.items():
        if (
            isinstance(key, str)
            and key.endswith("*")
            and key != resource_name
            and resource_name.startswith(key[:-1])
            and isinstance(value, dict)
        ):
            entries.append(value)
    return entries


def resolve_type(env, type_name, resource_name=None):
    """The type ``type_name`` stands for after the environment's resource_registry: a
    plugin type name or a provider template name. Per-resource entries win over global
    ones; aliases chain (``A: B``, ``B: OS::Heat::None``)."""
    registry = (env or {}).get(RESOURCE_REGISTRY) or {}
    current = type_name
    seen = {current}
    for _hop in range(MAX_ALIAS_HOPS):
        target = None
        for entry in _resource_entries(registry, resource_name):
            target = _lookup(entry, current)
            if target is not None:
                break
        if target is None:  # the global entries ("resources", a map, is never a target)
            target = _lookup(registry, current)
        if target is None or target == current or is_template(current):
            return current
        if target in seen:
            return target
        seen.add(target)
        current = target
    return current


def get_class(env, type_name, resource_name=None, files=None):
    """The plugin class of a resource of ``type_name`` named ``resource_name`` under the
    stack's environment ``env`` (a provider template gives a TemplateResource class)."""
    from heat_lite.engine import resources

    resolved = resolve_type(env, type_name, resource_name)
    if is_template(resolved):
        return resources.template_class(resolved, files)
    return resources.get_class(resolved)
