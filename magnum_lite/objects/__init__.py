"""Magnum's objects; importing this package registers them all.

from magnum_lite import objects
objects.Cluster.get_by_uuid(ctx, uuid)
"""

from magnum_lite.objects.certificate import Certificate
from magnum_lite.objects.cluster import Cluster
from magnum_lite.objects.cluster_template import ClusterTemplate
from magnum_lite.objects.magnum_service import MagnumService
from magnum_lite.objects.nodegroup import NodeGroup
from magnum_lite.objects.quota import Quota
from magnum_lite.objects.x509keypair import X509KeyPair

__all__ = [
    "Certificate",
    "Cluster",
    "ClusterTemplate",
    "MagnumService",
    "NodeGroup",
    "Quota",
    "X509KeyPair",
]
