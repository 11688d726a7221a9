"""simcloud: the simulated cloud as OpenStack services (identity, compute, image, network,
volume, load-balancer) behind one Pecan app, ``simcloud-api``, in devstack's layout."""
