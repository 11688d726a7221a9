"""The conductor's RPC client (topic ``magnum-conductor``): one method per remote call.

Work that takes long (create, update, resize, delete of clusters and nodegroups) is a
CAST: the API answers 202 and never waits. Answers (certificates, upgrade, credential
rotation) are CALLs with ``[api] rpc_call_timeout``, so a conductor error such as
``NotSupported`` reaches the caller as itself.

    rpcapi = API()
    rpcapi.cluster_create_async(cluster, master_count=1, node_count=2, create_timeout=60)
    rpcapi.get_ca_certificate(cluster, ca_cert_type='etcd')

Version history:
    1.0 - cluster_create/update/delete/resize/upgrade, nodegroup_create/update/delete,
          sign_certificate, get_ca_certificate, rotate_ca_certificate, credential_rotate
"""

import oslo_messaging as messaging

from magnum_lite.common import rpc
from magnum_lite.conf import CONF
from magnum_lite.objects import base as objects_base

RPC_API_VERSION = "1.0"


class API:
    def __init__(self, context=None, topic=None):
        conf = CONF
        target = messaging.Target(topic=topic or conf.conductor.topic, version=RPC_API_VERSION)
        self._client = rpc.get_client(
            target,
            serializer=objects_base.MagnumObjectSerializer(),
            timeout=conf.api.rpc_call_timeout,
        )
        self._context = context

    def _cast(self, method, **kwargs):
        self._client.prepare().cast(self._context, method, **kwargs)

    def _call(self, method, **kwargs):
        return self._client.prepare().call(self._context, method, **kwargs)

    # ---- clusters ---------------------------------------------------------------------------

    def cluster_create_async(self, cluster, master_count, node_count, create_timeout):
        self._cast(
            "cluster_create",
            cluster=cluster,
            master_count=master_count,
            node_count=node_count,
            create_timeout=create_timeout,
        )

    def cluster_update_async(
        self, cluster, node_count, health_status, health_status_reason, rollback=False
    ):
        self._cast(
            "cluster_update",
            cluster=cluster,
            node_count=node_count,
            health_status=health_status,
            health_status_reason=health_status_reason,
            rollback=rollback,
        )

    def cluster_delete_async(self, uuid):
        self._cast("cluster_delete", uuid=uuid)

    def cluster_resize_async(self, cluster, node_count, nodes_to_remove, nodegroup):
        self._cast(
            "cluster_resize",
            cluster=cluster,
            node_count=node_count,
            nodes_to_remove=nodes_to_remove,
            nodegroup=nodegroup,
        )

    def cluster_upgrade(self, cluster, cluster_template, max_batch_size, nodegroup):
        return self._call(
            "cluster_upgrade",
            cluster=cluster,
            cluster_template=cluster_template,
            max_batch_size=max_batch_size,
            nodegroup=nodegroup,
        )

    # ---- nodegroups -------------------------------------------------------------------------

    def nodegroup_create_async(self, cluster, nodegroup):
        self._cast("nodegroup_create", cluster=cluster, nodegroup=nodegroup)

    def nodegroup_update_async(self, cluster, nodegroup):
        self._cast("nodegroup_update", cluster=cluster, nodegroup=nodegroup)

    def nodegroup_delete_async(self, cluster, nodegroup):
        self._cast("nodegroup_delete", cluster=cluster, nodegroup=nodegroup)

    # ---- certificates and credentials -------------------------------------------------------

    def sign_certificate(self, cluster, certificate):
        return self._call("sign_certificate", cluster=cluster, certificate=certificate)

    def get_ca_certificate(self, cluster, ca_cert_type=None):
        return self._call("get_ca_certificate", cluster=cluster, ca_cert_type=ca_cert_type)

    def rotate_ca_certificate(self, cluster):
        return self._call("rotate_ca_certificate", cluster=cluster)

    def credential_rotate(self, cluster):
        return self._call("credential_rotate", cluster=cluster)
