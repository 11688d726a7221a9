"""The cluster driver interface: what the conductor asks of a driver (Magnum's
drivers/common/driver.py Driver).

Which drivers there are and which clusters each runs is the registry's
(magnum_lite/drivers/registry.py); the conductor gets a driver from the loader
(magnum_lite/drivers/loader.py) and calls only the methods below:

    driver = loader.get_driver_for_cluster(context, cluster)
    driver.create_cluster(context, cluster, cluster_create_timeout=60)

How a driver reaches the cloud (Heat stacks for the Heat drivers) is its own business.
"""

import abc

from magnum_lite.common import exception


class Driver(abc.ABC):
    """What the conductor asks of a cluster driver (Magnum's driver.Driver)."""

    def warm_up(self):
        """Prepare this driver's work ahead of its first cluster (nothing by default)."""
        return None

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
