"""simcloud: the simulated cloud as OpenStack services (identity, compute, image, network,
volume, load-balancer) behind one Pecan app, ``simcloud-api``, in devstack's layout.

Processes (console scripts, simcloud/cmd):

    simcloud-api      every service's REST API on one port (default 8080), each under
                      its catalog prefix (Keystone v3, Nova, Glance, Neutron, Cinder,
                      Octavia), as openstacksdk and the service clients call them
    simcloud-manage   ``db_sync``: the schema (alembic), then the identity and the cloud
                      seeded (admin, demo, flavors, images, the public network)

Packages:

    api/        the REST controllers of each service
    identity/   tokens, passwords, trusts, the catalog, the bootstrap
    cloud/      the simulated services' behaviour (servers build, ports bind, ...)
    db/         the database; common/ (context, exceptions) and conf/ below all

The cloud, identity and db layers know nothing of the REST API (pyproject.toml's
import-linter contracts).
"""
