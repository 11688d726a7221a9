"""A local CA per cluster: the certificates a Kubernetes cluster needs, made and kept
as Magnum's cert_manager makes them.

Each cluster gets three CAs (Kubernetes, etcd, front-proxy) and a client
certificate for Magnum itself (CN ``admin``, O ``system:masters``) signed by the
Kubernetes CA. Each is an X509KeyPair row (private key encrypted at rest, see
magnum_lite.common.x509); the cluster keeps the rows' uuids in ``ca_cert_ref``,
``etcd_ca_cert_ref``, ``front_proxy_ca_cert_ref`` and ``magnum_cert_ref``, stored in
the transaction that stores the rows (a conductor killed mid-create leaks none).

    generate_certificates_to_cluster(cluster, context=ctx)
    get_cluster_ca_certificate(cluster, ctx, ca_cert_type="etcd").certificate
    sign_node_certificate(cluster, csr_pem, context=ctx)      # PEM signed by the k8s CA
    rotate_ca_certificate(cluster, context=ctx)               # new k8s CA + client cert
    delete_certificates_from_cluster(cluster, context=ctx)
"""

import dataclasses
import logging

from magnum_lite.common import exception, x509
from magnum_lite.objects import x509keypair

LOG = logging.getLogger(__name__)

# ca_cert_type as the API takes it -> the cluster field holding that CA's ref
CA_REF_FIELDS = {
    None: "ca_cert_ref",
    "kubernetes": "ca_cert_ref",
    "etcd": "etcd_ca_cert_ref",
    "front_proxy": "front_proxy_ca_cert_ref",
    "front-proxy": "front_proxy_ca_cert_ref",
}
CA_SUBJECTS = {"etcd_ca_cert_ref": "etcd", "front_proxy_ca_cert_ref": "front-proxy"}
CLIENT_CN = "admin"
CLIENT_ORGANIZATION = "system:masters"


@dataclasses.dataclass
class Cert:
    """A stored certificate with its decrypted private key."""

    certificate: str
    private_key: str

    def get_certificate(self):
        return self.certificate

    def get_private_key(self):
        return self.private_key


# -- storage: X509KeyPair rows ----------------------------------------------------------


def _new_pair(context, cluster, made):
    """A key pair row not stored yet for ``made`` ({certificate, private_key})."""
    return x509keypair.X509KeyPair(
        context,
        certificate=made["certificate"],
        private_key=x509.encrypt_key(made["private_key"]),
        project_id=cluster.project_id,
        user_id=cluster.user_id,
    )


def _store(context, cluster, made, replaced=()):
    """Store ``made`` ({ref field: certificate and key}) with the cluster's refs to the
    rows, deleting the rows ``replaced``, in one transaction: a conductor killed at any
    moment leaves no row that no cluster names. The refs are set on ``cluster`` (saved);
    False, storing nothing, when the stored cluster is gone or no longer in the status
    ``cluster`` has (a delete took it over)."""
    refs = {field: _new_pair(context, cluster, pair) for field, pair in made.items()}
    stored = cluster.store_certificates(refs, replaced)
    if not stored:
        LOG.info("Cluster %s changed meanwhile; its certificates are not stored", cluster.uuid)
    return stored


def get_cert(context, cert_ref):
    pair = x509keypair.X509KeyPair.get_by_uuid(context, cert_ref)
    return Cert(certificate=pair.certificate, private_key=x509.decrypt_key(pair.private_key))


def delete_cert(context, cert_ref):
    try:
        x509keypair.X509KeyPair.get_by_uuid(context, cert_ref).destroy()
    except exception.X509KeyPairNotFound:
        LOG.info("Certificate %s was already deleted", cert_ref)


# -- what the conductor and the drivers call --------------------------------------------


def _ca_name(cluster):
    return cluster.name or cluster.uuid


def _kubernetes_ca_and_client(cluster):
    """The Kubernetes CA and Magnum's client certificate it signs, made in memory."""
    ca = x509.generate_ca_certificate(_ca_name(cluster))
    client = x509.generate_client_certificate(
        _ca_name(cluster), CLIENT_CN, CLIENT_ORGANIZATION, ca["private_key"]
    )
    return {"ca_cert_ref": ca, "magnum_cert_ref": client}


def generate_certificates_to_cluster(cluster, context=None):
    """Make the cluster's three CAs and Magnum's client certificate, and store them with
    the cluster's refs to them (nothing, when a delete took the cluster meanwhile).

    :raises: CertificatesToClusterFailed
    """
    try:
        made = _kubernetes_ca_and_client(cluster)
        for field, subject in CA_SUBJECTS.items():
            made[field] = x509.generate_ca_certificate(subject)
        _store(context, cluster, made)
    except Exception:
        LOG.exception("Failed to generate certificates for Cluster: %s", cluster.uuid)
        raise exception.CertificatesToClusterFailed(cluster_uuid=cluster.uuid)


def _ca_ref(cluster, ca_cert_type):
    field = CA_REF_FIELDS.get(ca_cert_type)
    if field is None:
        raise exception.InvalidParameterValue(err="Invalid CA certificate type %s." % ca_cert_type)
    return getattr(cluster, field)


def get_cluster_ca_certificate(cluster, context=None, ca_cert_type=None):
    """The cluster's CA (``kubernetes`` when no type is given) as a :class:`Cert`."""
    return get_cert(context, _ca_ref(cluster, ca_cert_type))


def get_cluster_magnum_cert(cluster, context=None):
    """Magnum's client certificate of the cluster, as a :class:`Cert`."""
    return get_cert(context, cluster.magnum_cert_ref)


def sign_node_certificate(cluster, csr, ca_cert_type=None, context=None):
    """A PEM certificate for ``csr`` signed by the cluster's CA of ``ca_cert_type``."""
    ca = get_cluster_ca_certificate(cluster, context, ca_cert_type)
    issuer = CA_SUBJECTS.get(CA_REF_FIELDS[ca_cert_type], _ca_name(cluster))
    return x509.sign(csr, issuer, ca.private_key)


def rotate_ca_certificate(cluster, context=None):
    """Replace the Kubernetes CA and the client certificate it signed: the new rows, the
    cluster's refs and the old rows' delete in one transaction. Returns the old refs."""
    old_refs = [cluster.ca_cert_ref, cluster.magnum_cert_ref]
    if not _store(context, cluster, _kubernetes_ca_and_client(cluster), [r for r in old_refs if r]):
        raise exception.ClusterNotFound(cluster=cluster.uuid)
    return old_refs


def delete_certificates_from_cluster(cluster, context=None):
    """Delete every certificate row the cluster refers to."""
    for field in ("ca_cert_ref", "magnum_cert_ref", "etcd_ca_cert_ref", "front_proxy_ca_cert_ref"):
        ref = getattr(cluster, field, None)
        if ref:
            delete_cert(context, ref)
