"""The conductor's RPC endpoints: one handler per family of ``magnum-conductor`` calls."""

from magnum_lite.conductor.handlers import ca_conductor, cluster_conductor, nodegroup_conductor


def endpoints():
    """The endpoint objects of the RPC server on topic ``magnum-conductor``."""
    return [
        cluster_conductor.Handler(),
        nodegroup_conductor.Handler(),
        ca_conductor.Handler(),
    ]
