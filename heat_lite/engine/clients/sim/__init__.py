"""The simulated cloud: the default client plugins (nova, neutron, cinder, octavia, glance)."""
