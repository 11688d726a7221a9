"""/v1/certificates: the cluster CA (GET), CSR signing (POST) and CA rotation (PATCH,
>= 1.5); each a synchronous CALL to the conductor."""

import pecan
import wsme
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite import objects
from magnum_lite.api import validation
from magnum_lite.api.controllers import base, link, versions
from magnum_lite.api.controllers.v1 import types
from magnum_lite.common import exception, policy

CA_CERT_TYPES = ("kubernetes", "etcd", "front_proxy", "front-proxy")


class Certificate(base.APIBase):
    cluster_uuid = wsme.wsattr(wtypes.text, mandatory=True)
    csr = wtypes.StringType(min_length=1)
    pem = wtypes.StringType()
    ca_cert_type = wtypes.StringType()
    links = wsme.wsattr([link.Link], readonly=True)

    @classmethod
    def convert(cls, certificate, cluster_uuid, with_csr=False):
        cert = cls(cluster_uuid=cluster_uuid, pem=certificate.pem)
        if with_csr:
            cert.csr = certificate.csr
        cert.links = link.self_and_bookmark("certificates", cluster_uuid)
        return cert


def _ca_cert_type(value):
    if value is not None and value not in CA_CERT_TYPES:
        raise exception.InvalidParameterValue(
            err="Invalid ca_cert_type %s; expected one of %s" % (value, ", ".join(CA_CERT_TYPES))
        )
    return value


class CertificateController(rest.RestController):
    @wsme_pecan.wsexpose(Certificate, wtypes.text, wtypes.text)
    def get_one(self, cluster_ident, ca_cert_type=None):
        context = pecan.request.context
        cluster = validation.get_cluster(cluster_ident)
        policy.enforce(context, "certificate:get", cluster.as_dict(), action="certificate:get")
        cert = pecan.request.rpcapi.get_ca_certificate(cluster, _ca_cert_type(ca_cert_type))
        return Certificate.convert(cert, cluster.uuid)

    @wsme_pecan.wsexpose(Certificate, body=Certificate, status_code=201)
    def post(self, certificate):
        context = pecan.request.context
        try:
            cluster = validation.get_cluster(certificate.cluster_uuid)
        except exception.ClusterNotFound as err:
            err.code = 400  # a cluster named in the body is input, not the resource
            raise
        policy.enforce(
            context, "certificate:create", cluster.as_dict(), action="certificate:create"
        )
        if not certificate.csr:
            raise exception.InvalidParameterValue(err="csr is mandatory")
        cert = objects.Certificate.from_object_cluster(cluster)
        cert.csr = certificate.csr
        cert.ca_cert_type = _ca_cert_type(certificate.ca_cert_type or None)
        signed = pecan.request.rpcapi.sign_certificate(cluster, cert)
        return Certificate.convert(signed, cluster.uuid, with_csr=True)

    @wsme_pecan.wsexpose(types.ClusterID, wtypes.text, status_code=202)
    def patch(self, cluster_ident):
        versions.require(pecan.request, "1.5")
        context = pecan.request.context
        cluster = validation.get_cluster(cluster_ident)
        policy.enforce(
            context, "certificate:rotate_ca", cluster.as_dict(), action="certificate:rotate_ca"
        )
        if cluster.cluster_template.tls_disabled:
            raise exception.NotSupported(
                operation="Rotating the CA certificate on a non-TLS cluster"
            )
        pecan.request.rpcapi.rotate_ca_certificate(cluster)
        return types.ClusterID(cluster.uuid)
