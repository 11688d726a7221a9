"""Heat's custom constraints that ask a service: nova.flavor, glance.image, neutron.network...

Each looks the value up through the service's client plugin; a miss gives Heat's message:
``Error validating value 'm1.huge': The Flavor ID (m1.huge) could not be found.``
A value found is remembered per project for ``[constraint_validation_cache]
expiration_time`` when ``[cache] enabled`` (heat_lite.common.cache), as Heat's
BaseCustomConstraint does; a miss is never remembered. As in Heat, the flavor, image and
Neutron constraints ask the plugins' finders, whose ids ``[resource_finder_cache]``
remembers: the create that follows the validation finds them there.
"""

from heat_lite.common import cache, exception
from heat_lite.engine import clients
from heat_lite.engine.clients import client_exception
from heat_lite.engine.common_constraints import BaseCustomConstraint


class ClientConstraint(BaseCustomConstraint):
    """``lookup(plugin, value)`` through service ``client_name``; a miss is invalid."""

    def __init__(self, client_name, lookup):
        self.client_name = client_name
        self.lookup = lookup
        self.name = None  # the constraint's name (constraint_mapping): part of cache keys

    def check(self, value, context=None):
        project = getattr(context, "project_id", None)
        key = "%s:%s:%s" % (self.name, project, value)
        cache.memoize(cache.CONSTRAINT_VALIDATION, key, lambda: self._lookup(value, context))

    def _lookup(self, value, context):
        plugin = clients.client_plugin(context, self.client_name)
        try:
            self.lookup(plugin, value)
        except (
            exception.EntityNotFound,
            client_exception.NotFound,
            client_exception.Conflict,
        ) as exc:
            raise ValueError(str(exc))
        return True


def _neutron(entity):
    return ClientConstraint("neutron", lambda p, v: p.find_resourceid_by_name_or_id(entity, v))


def _octavia(entity):
    return ClientConstraint("octavia", lambda p, v: p.find(entity, v))


def constraint_mapping():
    mapping = {
        "nova.flavor": ClientConstraint("nova", lambda p, v: p.find_flavor_by_name_or_id(v)),
        "nova.keypair": ClientConstraint("nova", lambda p, v: p.get_keypair(v)),
        "nova.server": ClientConstraint("nova", lambda p, v: p.get_server(v)),
        "glance.image": ClientConstraint("glance", lambda p, v: p.find_image_by_name_or_id(v)),
        "cinder.volume": ClientConstraint("cinder", lambda p, v: p.get_volume(v)),
        "neutron.network": _neutron("net"),
        "neutron.subnet": _neutron("subnet"),
        "neutron.port": _neutron("port"),
        "neutron.router": _neutron("router"),
        "neutron.security_group": _neutron("security_group"),
        "octavia.loadbalancer": _octavia("loadbalancer"),
        "octavia.listener": _octavia("listener"),
        "octavia.pool": _octavia("pool"),
        "neutron.lbaas.loadbalancer": _octavia("loadbalancer"),
        "neutron.lbaas.listener": _octavia("listener"),
        "neutron.lbaas.pool": _octavia("pool"),
    }
    for name, constraint in mapping.items():
        constraint.name = name
    return mapping
