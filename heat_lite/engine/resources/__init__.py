"""The resource type registry: type name -> plugin class.

Plugin modules expose ``resource_mapping()`` (as Heat's do); the registry imports the
modules listed in PLUGIN_MODULES once, by name: the plugins import the engine core, which
reaches them only through here, so no import of the core ever leads back to a plugin.

    resources.get_class('OS::Heat::None')  -> NoneResource
"""

import importlib

from heat_lite.common import exception

PLUGIN_MODULES = (
    "heat_lite.engine.resources.openstack.heat.none_resource",
    "heat_lite.engine.resources.openstack.heat.test_resource",
    "heat_lite.engine.resources.openstack.heat.random_string",
    "heat_lite.engine.resources.openstack.heat.value",
    "heat_lite.engine.resources.openstack.heat.remote_stack",
    "heat_lite.engine.resources.openstack.heat.resource_group",
    "heat_lite.engine.resources.openstack.heat.software_config",
    "heat_lite.engine.resources.openstack.heat.software_deployment",
    "heat_lite.engine.resources.openstack.heat.structured_config",
    "heat_lite.engine.resources.openstack.nova.server",
    "heat_lite.engine.resources.openstack.nova.server_group",
    "heat_lite.engine.resources.openstack.nova.keypair",
    "heat_lite.engine.resources.openstack.neutron.net",
    "heat_lite.engine.resources.openstack.neutron.subnet",
    "heat_lite.engine.resources.openstack.neutron.router",
    "heat_lite.engine.resources.openstack.neutron.port",
    "heat_lite.engine.resources.openstack.neutron.floatingip",
    "heat_lite.engine.resources.openstack.neutron.security_group",
    "heat_lite.engine.resources.openstack.neutron.lbaas.loadbalancer",
    "heat_lite.engine.resources.openstack.neutron.lbaas.listener",
    "heat_lite.engine.resources.openstack.neutron.lbaas.pool",
    "heat_lite.engine.resources.openstack.neutron.lbaas.pool_member",
    "heat_lite.engine.resources.openstack.neutron.lbaas.health_monitor",
    "heat_lite.engine.resources.openstack.octavia.loadbalancer",
    "heat_lite.engine.resources.openstack.octavia.listener",
    "heat_lite.engine.resources.openstack.octavia.pool",
    "heat_lite.engine.resources.openstack.octavia.pool_member",
    "heat_lite.engine.resources.openstack.octavia.health_monitor",
    "heat_lite.engine.resources.openstack.cinder.volume",
    "heat_lite.engine.resources.openstack.cinder.volume_attachment",
)
# the module of TemplateResource, the class of a provider template's resources
TEMPLATE_RESOURCE_MODULE = "heat_lite.engine.resources.openstack.heat.stack_resource"

_REGISTRY = {}


def _load():
    for module_name in PLUGIN_MODULES:
        module = importlib.import_module(module_name)
        _REGISTRY.update(module.resource_mapping())


def registry():
    if not _REGISTRY:
        _load()
    return _REGISTRY


def initialise():
    """Load every resource type, template format and custom constraint now, as Heat's
    engine does as it starts (its resources.initialise()): else the first stack a
    worker sees waits for the imports (~0.3 s of its CPU in a 1,000-resource create)."""
    from heat_lite.engine import constraints, template

    registry()
    template.load_plugins(prepare=True)
    constraints.load_builtins()


def get_class(type_name):
    try:
        return registry()[type_name]
    except KeyError:
        raise exception.ResourceTypeNotFound(type_name=type_name)


def template_class(name, files=None):
    """The TemplateResource class of provider template ``name`` (content in ``files``)."""
    return importlib.import_module(TEMPLATE_RESOURCE_MODULE).template_class(name, files)
