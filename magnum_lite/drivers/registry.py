"""The cluster drivers of this install, in one table: for each, its name, the cluster
types (server_type, os, coe) it runs, the module of its Driver class and what the API
checks on its behalf. This module imports no driver code, so both sides read it: the
API checks a template's type and a cluster's master count here before it casts (where
Magnum's API loads the drivers and asks them: Driver.get_driver, validate_master_size,
validate_master_resize), and the conductor's loader (magnum_lite/drivers/loader.py)
imports the module of the driver it finds here. Magnum lists its drivers as the entry
points of ``magnum.drivers``; a driver named in ``[drivers] disabled_drivers`` is not
found, on either side.

    info = registry.get_driver_info("vm", "fedora-coreos", "kubernetes", driver_name=None)
    info.name                                   # 'k8s_fedora_coreos_v1'
    info.validate_master_size(3)                # MasterNGSizeInvalid unless odd, >= 1
    info.validate_master_resize(3)              # MasterNGResizeNotSupported (Heat drivers)
    registry.get_driver_info_for_template(template)   # by the template's driver and type
"""

import dataclasses

from magnum_lite.common import exception
from magnum_lite.conf import CONF


@dataclasses.dataclass(frozen=True)
class DriverInfo:
    """One cluster driver, as the API and the conductor know it without its code."""

    name: str
    # the module whose ``Driver`` class runs the driver's clusters (the conductor's)
    module: str
    # the (server_type, os, coe) cluster types it runs (Magnum's Driver.provides)
    provides: tuple
    # whether a master nodegroup can be resized (Magnum's Driver.validate_master_resize:
    # the base driver, and so the Heat drivers, cannot)
    master_resize_supported: bool = False

    def validate_master_size(self, node_count):
        """A master nodegroup has an odd number of nodes, at least one (Magnum's
        Driver.validate_master_size, which no driver of Magnum 22 changes)."""
        if node_count < 1 or node_count % 2 == 0:
            raise exception.MasterNGSizeInvalid(requested_size=node_count)

    def validate_master_resize(self, node_count):
        if not self.master_resize_supported:
            raise exception.MasterNGResizeNotSupported()
        self.validate_master_size(node_count)


DRIVERS = (
    DriverInfo(
        name="k8s_fedora_coreos_v1",
        module="magnum_lite.drivers.k8s_fedora_coreos_v1.driver",
        provides=(("vm", "fedora-coreos", "kubernetes"),),
    ),
)


def enabled_drivers():
    """name -> DriverInfo of every driver not in ``[drivers] disabled_drivers``."""
    disabled = set(CONF.drivers.disabled_drivers)
    return {info.name: info for info in DRIVERS if info.name not in disabled}


def supported_text():
    """The 'Loaded drivers support:' part of ClusterTypeNotSupported's message."""
    types = sorted({t for info in enabled_drivers().values() for t in info.provides})
    if not types:
        return "none (no cluster drivers are loaded)"
    return ", ".join("(%s, %s, %s)" % cluster_type for cluster_type in types)


def get_driver_info(server_type, os, coe, driver_name=None):
    """The driver named ``driver_name`` if it is enabled, else the first enabled driver
    that runs (server_type, os, coe).

    :raises: ClusterTypeNotSupported when no enabled driver runs that type.
    """
    drivers = enabled_drivers()
    if driver_name and driver_name in drivers:
        return drivers[driver_name]
    for info in drivers.values():
        if (server_type, os, coe) in info.provides:
            return info
    raise exception.ClusterTypeNotSupported(
        server_type=server_type, os=os, coe=coe, supported=supported_text()
    )


def get_driver_info_for_template(template):
    """The driver of a cluster template: its ``driver`` name first, then its type."""
    return get_driver_info(
        template.server_type,
        template.cluster_distro,
        template.coe,
        getattr(template, "driver", None),
    )
