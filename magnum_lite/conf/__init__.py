"""magnum-lite's configuration options, on magnum's own ``ConfigOpts`` (``CONF``).

magnum-lite keeps its options apart from ``oslo_config.cfg.CONF`` so heat-lite and
magnum-lite can share one Python process (tests, the all-in-one) without clashing groups.

One module per option group (``register_opts(conf)`` and ``list_opts()`` each);
importing this package registers them all, ``magnum_lite.conf.opts.list_opts`` feeds
oslo-config-generator (etc/magnum-lite/magnum-config-generator.conf).

    from magnum_lite.conf import CONF
    CONF(['--config-file', 'magnum.conf'], project='magnum')
    CONF.api.port
"""

from oslo_config import cfg

from magnum_lite.conf import (
    api,
    certificates,
    cinder,
    cluster,
    cluster_heat,
    cluster_templates,
    conductor,
    database,
    default,
    drivers,
    heat_client,
    keystone,
    kubernetes,
    notification_listener,
    os_clients,
    quota,
    trust,
    x509,
)

CONF = cfg.ConfigOpts()

MODULES = (
    default,
    api,
    certificates,
    cinder,
    cluster,
    cluster_heat,
    cluster_templates,
    conductor,
    database,
    drivers,
    heat_client,
    keystone,
    kubernetes,
    notification_listener,
    os_clients,
    quota,
    trust,
    x509,
)

for _module in MODULES:
    _module.register_opts(CONF)
