"""neutron/lbaas resource plugins."""
