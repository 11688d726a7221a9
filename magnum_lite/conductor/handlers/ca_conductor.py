"""The conductor's certificate endpoint: CA show, CSR signing, CA rotation, credential
rotation. All are CALLs; their errors reach the API as themselves."""

import oslo_messaging as messaging

from magnum_lite import objects
from magnum_lite.cluster_credentials import cert_manager
from magnum_lite.common import exception
from magnum_lite.drivers import loader
from magnum_lite.objects import fields

STATUS = fields.ClusterStatus


class Handler:
    target = messaging.Target(version="1.0")

    @messaging.expected_exceptions(exception.MagnumException)
    def sign_certificate(self, context, cluster, certificate):
        certificate.pem = cert_manager.sign_node_certificate(
            cluster, certificate.csr, ca_cert_type=certificate.ca_cert_type, context=context
        )
        return certificate

    @messaging.expected_exceptions(exception.MagnumException)
    def get_ca_certificate(self, context, cluster, ca_cert_type=None):
        ca = cert_manager.get_cluster_ca_certificate(cluster, context, ca_cert_type)
        certificate = objects.Certificate.from_object_cluster(cluster)
        certificate.ca_cert_type = ca_cert_type
        certificate.pem = ca.get_certificate()
        return certificate

    @messaging.expected_exceptions(exception.MagnumException)
    def rotate_ca_certificate(self, context, cluster):
        cluster = objects.Cluster.get_by_uuid(context, cluster.uuid)
        if cluster.status not in STATUS.UPDATE_ALLOWED:
            raise exception.NotSupported(
                operation="Rotating the CA certificate when the cluster status is %s"
                % cluster.status
            )
        cluster_driver = loader.get_driver_for_cluster(context, cluster)
        cluster_driver.rotate_ca_certificate(context, cluster)
        cert_manager.rotate_ca_certificate(cluster, context=context)
        cluster.status = STATUS.UPDATE_IN_PROGRESS
        cluster.save()
        return None

    @messaging.expected_exceptions(exception.MagnumException)
    def credential_rotate(self, context, cluster):
        cluster = objects.Cluster.get_by_uuid(context, cluster.uuid)
        cluster_driver = loader.get_driver_for_cluster(context, cluster)
        rotate = getattr(cluster_driver, "rotate_credential", None)
        if rotate is None:
            raise exception.NotSupported(operation="Credential rotation by driver")
        if cluster.status not in STATUS.CREDENTIAL_ROTATE_ALLOWED:
            raise exception.NotSupported(
                operation="Rotating credentials when the cluster status is %s" % cluster.status
            )
        rotate(context, cluster)
        return None
