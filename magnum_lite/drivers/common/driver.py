"""The cluster driver interface and its lookup through entry points.

Drivers are installed as entry points of the group ``magnum_lite.drivers``; each
says which clusters it can run through ``provides``, a list of
``{"server_type", "os", "coe"}`` dicts:

    driver = Driver.get_driver("vm", "fedora-coreos", "kubernetes")
    driver = Driver.get_driver_for_cluster(context, cluster)   # template's driver name first
    driver.create_cluster(context, cluster, cluster_create_timeout=60)

The conductor calls only the methods of :class:`Driver`; how a driver reaches the
cloud (Heat stacks for the Heat drivers) is its own business.
"""

import abc
import functools
import logging
from importlib import metadata

from magnum_lite.common import exception
from magnum_lite.conf import CONF

ENTRY_POINT_GROUP = "magnum_lite.drivers"
LOG = logging.getLogger(__name__)


@functools.lru_cache(maxsize=1)
def load_drivers():
    """name -> driver class of every installed driver that is not disabled."""
    drivers = {}
    for entry_point in metadata.entry_points(group=ENTRY_POINT_GROUP):
        if entry_point.name in CONF.drivers.disabled_drivers:
            continue
        drivers[entry_point.name] = entry_point.load()
    return drivers


def warm_up():
    """Load every driver and let each prepare what its first cluster would otherwise
    wait for (a Heat driver parses its template tree); a driver that fails here is
    only logged: its clusters meet the error themselves."""
    try:
        drivers = load_drivers()
    except Exception:
        LOG.warning("The cluster drivers could not be loaded", exc_info=True)
        return
    for name, driver_cls in drivers.items():
        try:
            driver_cls().warm_up()
        except Exception:
            LOG.warning("Driver %s could not be prepared", name, exc_info=True)


class Driver(abc.ABC):
    """What the conductor asks of a cluster driver (Magnum's driver.Driver)."""

    def warm_up(self):
        """Prepare this driver's work ahead of its first cluster (nothing by default)."""
        return None

    @property
    @abc.abstractmethod
    def provides(self):
        """``[{"server_type": ..., "os": ..., "coe": ...}]`` this driver runs."""

    @classmethod
    def get_drivers(cls):
        """``{(server_type, os, coe): {name: driver class}}`` of the loaded drivers."""
        supported = {}
        for name, driver_cls in load_drivers().items():
            for spec in driver_cls().provides:
                key = (spec["server_type"], spec["os"], spec["coe"])
                supported.setdefault(key, {})[name] = driver_cls
        return supported

    @classmethod
    def get_driver(cls, server_type, os, coe, driver_name=None):
        """The driver for a template's (server_type, cluster_distro, coe), or by name.

        :raises: ClusterTypeNotSupported when no loaded driver runs that type.
        """
        drivers = load_drivers()
        if driver_name and driver_name in drivers:
            return drivers[driver_name]()
        candidates = cls.get_drivers().get((server_type, os, coe))
        if not candidates:
            raise exception.ClusterTypeNotSupported(
                server_type=server_type,
                os=os,
                coe=coe,
                supported=cls.supported_text(),
            )
        return next(iter(candidates.values()))()

    @classmethod
    def supported_text(cls):
        """The 'Loaded drivers support:' part of ClusterTypeNotSupported's message."""
        keys = sorted(cls.get_drivers())
        if not keys:
            return "none (no cluster drivers are loaded)"
        return ", ".join("(%s, %s, %s)" % key for key in keys)

    @classmethod
    def get_driver_for_cluster(cls, context, cluster):
        template = cluster.cluster_template
        return cls.get_driver(
            template.server_type,
            template.cluster_distro,
            template.coe,
            getattr(template, "driver", None),
        )

    # -- cluster operations ------------------------------------------------

    @abc.abstractmethod
    def create_cluster(self, context, cluster, cluster_create_timeout):
        """Start creating the cluster's infrastructure; sets ``cluster.stack_id``."""

    @abc.abstractmethod
    def update_cluster(self, context, cluster, scale_manager=None, rollback=False):
        """Apply the default worker nodegroup's node_count."""

    @abc.abstractmethod
    def resize_cluster(
        self, context, cluster, resize_manager, node_count, nodes_to_remove, nodegroup=None
    ):
        """Resize one nodegroup (the default worker one when none is given)."""

    @abc.abstractmethod
    def upgrade_cluster(
        self, context, cluster, cluster_template, max_batch_size, nodegroup, rollback=False
    ):
        """Upgrade to another template's versions."""

    @abc.abstractmethod
    def delete_cluster(self, context, cluster):
        """Start deleting the cluster's infrastructure."""

    @abc.abstractmethod
    def update_cluster_status(self, context, cluster, use_admin_ctx=False):
        """Sync the cluster's and its nodegroups' status from the infrastructure
        (``use_admin_ctx``: acting as ``context``, not as the cluster's trustee)."""

    @abc.abstractmethod
    def create_nodegroup(self, context, cluster, nodegroup):
        """Create an extra nodegroup's infrastructure; sets ``nodegroup.stack_id``."""

    @abc.abstractmethod
    def update_nodegroup(self, context, cluster, nodegroup):
        """Apply a nodegroup's changed settings."""

    @abc.abstractmethod
    def delete_nodegroup(self, context, cluster, nodegroup):
        """Delete an extra nodegroup's infrastructure."""

    def rotate_ca_certificate(self, context, cluster):
        raise exception.NotSupported(
            operation="Rotating the CA certificate for this driver",
        )

    def get_monitor(self, context, cluster):
        """The cluster health monitor, or None (no health polling)."""
        return None
