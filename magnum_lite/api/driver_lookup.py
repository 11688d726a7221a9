"""Which cluster types the installed drivers run, read from their entry points.

The API checks a template's (server_type, cluster_distro, coe) against this table, as
Magnum's API does before it casts; the drivers' code runs only in the conductor.

    driver_lookup.check_cluster_type('vm', 'fedora-coreos', 'kubernetes', driver_name=None)
    driver_lookup.default_driver_name('vm', 'fedora-coreos', 'kubernetes')
"""

import functools
from importlib import metadata

from magnum_lite.common import exception
from magnum_lite.conf import CONF

ENTRY_POINT_GROUP = "magnum_lite.drivers"


@functools.lru_cache(maxsize=1)
def _provided():
    """{(server_type, os, coe): [driver names]} of the installed, enabled drivers."""
    table = {}
    for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry_point.name in CONF.drivers.disabled_drivers:
            continue
        for spec in entry_point.load()().provides:
            key = (spec["server_type"], spec["os"], spec["coe"])
            table.setdefault(key, []).append(entry_point.name)
    return table


def supported_text():
    keys = sorted(_provided())
    if not keys:
        return "none (no cluster drivers are loaded)"
    return ", ".join("(%s, %s, %s)" % key for key in keys)


def check_cluster_type(server_type, os, coe, driver_name=None):
    """The name of the driver that runs this type.

    :raises: ClusterTypeNotSupported
    """
    names = _provided().get((server_type, os, coe))
    if driver_name and any(driver_name in n for n in _provided().values()):
        return driver_name
    if not names:
        raise exception.ClusterTypeNotSupported(
            server_type=server_type, os=os, coe=coe, supported=supported_text()
        )
    return names[0]


def validate_master_size(master_count):
    """A master nodegroup must have an odd number (>= 1) of nodes."""
    if master_count < 1 or master_count % 2 == 0:
        raise exception.MasterNGSizeInvalid(requested_size=master_count)
