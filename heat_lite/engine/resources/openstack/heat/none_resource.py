"""OS::Heat::None: a placeholder that accepts any properties and does nothing."""

import uuid

from heat_lite.engine import resource


class NoneResource(resource.Resource):
    # any properties are accepted and ignored: a change of them is no update (as Heat's)
    validate_properties = False
    ignores_property_changes = True
    # any attribute may be referenced and is None (Magnum's templates read a disabled
    # load balancer's vip_port_id, pool ids and addresses this way)
    dynamic_attributes = True

    def handle_create(self):
        self.resource_id_set(str(uuid.uuid4()))


def resource_mapping():
    return {"OS::Heat::None": NoneResource}
