"""Environment text -> dict, for the API and the engine alike (the one environment validator).

    env = parse(request_body['environment'])    # YAML/JSON text or a mapping
    env = default_for_missing(env)              # every section the engine expects

An environment is a mapping of known, non-empty sections; anything else is a ValueError
with Heat's message ('environment has wrong section "x"'). The text goes through the
template parser (template_format.simple_parse) and so gets its guards: YAML aliases may
not expand it past ``max_json_body_size`` (the largest request that could carry it
written out), and it may not nest deeper than template_format.MAX_NESTING_DEPTH.
"""

import collections.abc

from heat_lite.common import template_format
from heat_lite.conf import CONF

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


def validate(env):
    """ValueError unless ``env`` is a mapping of known, non-empty sections."""
    if not isinstance(env, collections.abc.Mapping):
        raise ValueError("The environment is not a valid YAML mapping data type.")
    for section, value in env.items():
        if section not in SECTIONS:
            raise ValueError('environment has wrong section "%s"' % section)
        if value is None:
            raise ValueError('environment has empty section "%s"' % section)
    return env


def parse(env):
    """An environment (YAML/JSON text, or an already parsed mapping) as a validated dict."""
    if isinstance(env, collections.abc.Mapping):
        template_format.check_depth(env)
        return validate(dict(env))
    if not env:
        return {}
    data = template_format.load(env, kind="Environment", limit=CONF.max_json_body_size)
    return validate({} if data is None else data)


def default_for_missing(env):
    """Add the sections the engine expects (lists for names/sinks, dicts otherwise)."""
    for section in SECTIONS:
        if section not in env and section != PARAMETER_MERGE_STRATEGIES:
            if section in (ENCRYPTED_PARAM_NAMES, EVENT_SINKS):
                env[section] = []
            else:
                env[section] = {}
    return env
