"""neutron resource plugins."""
