"""The base of the OS::Neutron::* plugins: ``value_specs``, ``tenant_id`` and Neutron's
"in use" refusals on delete (a Conflict fails the delete, as in Heat)."""

from heat_lite.engine import properties
from heat_lite.engine.resources.openstack import client_resource

P = properties.Schema


def value_specs_schema():
    return P(
        P.MAP,
        "Extra parameters to include in the request. Parameters are often specific to "
        "installed hardware or extensions.",
        default={},
        update_allowed=True,
    )


class NeutronResource(client_resource.ClientResource):
    default_client_name = "neutron"
    replace_failed_in = ("ERROR",)  # as Heat's needs_replace_failed

    def find(self, entity, name_or_id):
        """The id of the named/identified Neutron object (None stays None)."""
        if name_or_id is None:
            return None
        return self.client_plugin().find_resourceid_by_name_or_id(entity, name_or_id)

    def value_specs(self):
        return dict(self.properties.get("value_specs") or {})

    def _resolve_attribute(self, name, obj):
        if name == "tenant_id":
            return obj.get("project_id")
        return obj.get(name)
