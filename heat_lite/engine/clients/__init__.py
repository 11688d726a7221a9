"""Client plugins: the one boundary between resource plugins and the cloud's services.

A resource plugin never talks to a service directly; it asks for the service's client
plugin by Heat's name. The plugins (heat_lite.engine.clients.rest) call the services'
REST APIs through openstacksdk with endpoints from the Keystone catalog: simcloud-api's,
or a real cloud's.

    nova = clients.client_plugin(context, 'nova')
    nova.get_flavor('m1.small')            # {'id': '2', 'name': 'm1.small', 'vcpus': 1, ...}
    server = nova.create_server('vm1', '<image id>', 'm1.small', networks=[{'port': port_id}])
    nova.show('server', server['id'])['status']          # 'BUILD', then 'ACTIVE'
"""

import importlib

# service name -> "module:class" of its plugin
_PLUGINS = {
    "nova": "heat_lite.engine.clients.rest.nova:NovaClientPlugin",
    "neutron": "heat_lite.engine.clients.rest.neutron:NeutronClientPlugin",
    "cinder": "heat_lite.engine.clients.rest.cinder:CinderClientPlugin",
    "octavia": "heat_lite.engine.clients.rest.octavia:OctaviaClientPlugin",
    "glance": "heat_lite.engine.clients.rest.glance:GlanceClientPlugin",
}

_classes = {}


def register_plugin(name, path):
    """Use the plugin class at ``"module:class"`` for service ``name``."""
    _PLUGINS[name] = path
    _classes.pop(name, None)


def _plugin_class(name):
    if name not in _classes:
        module_name, _, class_name = _PLUGINS[name].partition(":")
        _classes[name] = getattr(importlib.import_module(module_name), class_name)
    return _classes[name]


def load_plugins():
    """Import every plugin now (a service calls this as it starts): openstacksdk takes
    a second or two to import, which the first stack would otherwise wait for."""
    for name in list(_PLUGINS):
        _plugin_class(name)


def client_plugin(context, name):
    """The client plugin of service ``name`` ('nova', 'neutron', ...) acting for ``context``."""
    return _plugin_class(name)(context)
