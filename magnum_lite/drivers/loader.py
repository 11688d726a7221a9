"""The conductor's drivers: the Driver that runs a cluster, from the module the registry
names for it (magnum_lite/drivers/registry.py), imported by name the first time it is
needed. Only the conductor's processes import this module; the API reads the registry.

    driver = loader.get_driver("vm", "fedora-coreos", "kubernetes")
    driver = loader.get_driver_for_cluster(context, cluster)   # template's driver name first
    driver.create_cluster(context, cluster, cluster_create_timeout=60)
    loader.warm_up()                                           # at the conductor's start

Magnum's Driver.get_driver and Driver.get_driver_for_cluster, which load the entry
points of ``magnum.drivers``.
"""

import functools
import importlib
import logging
import typing

from magnum_lite.drivers import registry

if typing.TYPE_CHECKING:
    # The modules of registry.DRIVERS, which _driver_class imports by name: imported here
    # only for lint-imports, whose contracts then see that the conductor loads them and
    # the API does not (tests/unit/magnum_lite/drivers/test_registry.py keeps this list
    # and the registry's the same).
    import magnum_lite.drivers.k8s_fedora_coreos_v1.driver  # noqa: F401

LOG = logging.getLogger(__name__)


@functools.cache
def _driver_class(module):
    return importlib.import_module(module).Driver


def get_driver(server_type, os, coe, driver_name=None):
    """A Driver for a template's (server_type, cluster_distro, coe), or by name.

    :raises: ClusterTypeNotSupported when no enabled driver runs that type.
    """
    info = registry.get_driver_info(server_type, os, coe, driver_name)
    return _driver_class(info.module)()


def get_driver_for_cluster(context, cluster):
    """The Driver of the cluster's template: its driver name first, then its type."""
    info = registry.get_driver_info_for_template(cluster.cluster_template)
    return _driver_class(info.module)()


def warm_up():
    """Load every enabled driver and let each prepare what its first cluster would
    otherwise wait for (a Heat driver parses its template tree); a driver that fails
    here is only logged: its clusters meet the error themselves."""
    for name, info in registry.enabled_drivers().items():
        try:
            _driver_class(info.module)().warm_up()
        except Exception:
            LOG.warning("Driver %s could not be prepared", name, exc_info=True)
