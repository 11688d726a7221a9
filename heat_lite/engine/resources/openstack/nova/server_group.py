"""OS::Nova::ServerGroup: a group of servers placed by a policy (affinity, anti-affinity...).

Magnum's templates make one per node role with ``policies: [<nodes_affinity_policy>]``
and pass its id as ``scheduler_hints: {group: ...}``.
"""

from heat_lite.engine import constraints, properties
from heat_lite.engine.resources.openstack import client_resource

P = properties.Schema

POLICIES = ["anti-affinity", "affinity", "soft-anti-affinity", "soft-affinity"]


class ServerGroup(client_resource.ClientResource):
    default_client_name, entity = "nova", "server_group"
    replace_failed_in = ()  # as Heat's needs_replace_failed

    properties_schema = {
        "name": P(P.STRING, "Server Group name."),
        "policies": P(
            P.LIST,
            "A list of string policies to apply. Defaults to anti-affinity.",
            default=["anti-affinity"],
            constraints=[constraints.AllowedValues(POLICIES)],
            schema=P(P.STRING),
        ),
        "rules": P(
            P.MAP,
            "A dict of rules to apply to a server group policy.",
            schema={"max_server_per_host": P(P.INTEGER, "Maximum servers per host.")},
        ),
    }

    def handle_create(self):
        group = self.client_plugin().create_server_group(
            self.created_name(),
            self.properties["policies"],
            self.properties["rules"],
        )
        self.resource_id_set(group["id"])


def resource_mapping():
    return {"OS::Nova::ServerGroup": ServerGroup}
