"""Client plugins that reach the cloud over the OpenStack REST APIs (Heat's way).

Each plugin (nova, neutron, cinder, octavia, glance) calls its service through an
openstacksdk proxy - a keystoneauth adapter whose endpoint comes from the Keystone
catalog - so the same plugins work against simcloud-api or a real cloud. Who the calls
act as is decided in session.py.
"""
