"""The base of the load-balancer plugins (OS::Octavia::* and OS::Neutron::LBaaS::*).

Both families talk to the same service (Octavia's API, which Neutron LBaaS v2 became);
a plugin lists which of its properties it sends (``api_props``) and how it finds its
load balancer (``_loadbalancer_id``). Children (listeners, pools, members, health
monitors) are made only once their load balancer is ACTIVE. The objects a plugin names
(its listener, pool, load balancer) are looked up once per action, as Heat's octavia
plugins keep their ``pool_id`` and ``lb_id``.
"""

from heat_lite.engine.resources.openstack import client_resource


class OctaviaBase(client_resource.ClientResource):
    default_client_name = "octavia"
    # property name -> API field, sent on create and (if update_allowed) on update
    api_props = {}

    def _values(self, keys=None):
        return {
            field: self.properties[prop]
            for prop, field in self.api_props.items()
            if prop in self.properties and (keys is None or prop in keys)
        }

    def found(self, entity, name_or_id):
        """The ``entity`` object with that name or id, looked up once per action."""
        memo = self.__dict__.setdefault("_found", {})
        if (entity, name_or_id) not in memo:
            memo[entity, name_or_id] = self.client_plugin().find(entity, name_or_id)
        return memo[entity, name_or_id]

    def find(self, entity, name_or_id):
        if name_or_id is None:
            return None
        return self.found(entity, name_or_id)["id"]

    def loadbalancer_of(self, entity, name_or_id):
        """The id of the load balancer of the named listener or pool."""
        return self.client_plugin().loadbalancer_id(self.found(entity, name_or_id))

    def _loadbalancer_id(self):
        raise NotImplementedError

    def handle_create(self):
        values = self._values()
        name = values.pop("name", None) or self.physical_resource_name()
        obj = self.client_plugin().create_child(
            self.entity, name, self._loadbalancer_id(), **values
        )
        self.resource_id_set(obj["id"])

    def check_create_complete(self, token):
        return self.wait_for_status("ACTIVE")

    def handle_update(self, new_defn, prop_diff):
        values = self._values(prop_diff)
        name = values.pop("name", None)
        self.client_plugin().update(self.entity, self.resource_id, name=name, **values)

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_child(self.entity, resource_id)


class PoolChild(OctaviaBase):
    """A member or health monitor: it belongs to the pool of its ``pool`` property."""

    def _pool_id(self):
        return self.find("pool", self.properties["pool"])

    def _loadbalancer_id(self):
        return self.loadbalancer_of("pool", self.properties["pool"])

    def _values(self, keys=None):
        values = super()._values(keys)
        if keys is None:
            values["pool_id"] = self._pool_id()
        return values
