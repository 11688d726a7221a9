"""OS::Heat::None: a placeholder that accepts any properties and does nothing.

As Heat's: properties are neither validated nor compared, and every attribute exists and
is null, so an environment may map any resource type to it (Magnum's environments map the
load balancer to OS::Heat::None while other resources still read its ``vip_port_id``)."""

import uuid

from heat_lite.engine import resource


class NoneResource(resource.Resource):
    resource_id_names_an_object = False  # made in the engine: nothing to leak
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
