"""heat-lite's policy defaults in code, one module per scope (heat/policies/).

    from heat_lite import policies
    enforcer.register_defaults(policies.list_rules())

Also the entry point for ``oslopolicy-sample-generator`` (namespace ``heat_lite``).
"""

import itertools

from heat_lite.policies import (
    actions,
    base,
    build_info,
    events,
    resource,
    resource_types,
    service,
    software_configs,
    software_deployments,
    stacks,
)


def list_rules():
    return list(
        itertools.chain(
            base.list_rules(),
            actions.list_rules(),
            build_info.list_rules(),
            events.list_rules(),
            resource.list_rules(),
            resource_types.list_rules(),
            service.list_rules(),
            software_configs.list_rules(),
            software_deployments.list_rules(),
            stacks.list_rules(),
        )
    )
