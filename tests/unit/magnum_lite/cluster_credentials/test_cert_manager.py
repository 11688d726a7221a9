"""The cluster's local CA: certificates made, stored (keys encrypted), signed, rotated."""

import pytest
from cryptography import x509 as cx509
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import padding, rsa
from cryptography.x509.oid import NameOID

from magnum_lite import objects
from magnum_lite.cluster_credentials import cert_manager
from magnum_lite.common import exception, x509
from magnum_lite.conf import CONF
from magnum_lite.db import api as db_api
from magnum_lite.objects import x509keypair
from tests.functional.magnum_lite import fixtures

pytestmark = pytest.mark.unit


@pytest.fixture
def cluster(magnum_db):
    return fixtures.cluster(fixtures.template("p1"), "p1", status="CREATE_IN_PROGRESS", name="c1")


def _cert(pem):
    return cx509.load_pem_x509_certificate(pem.encode())


def _signed_by(cert_pem, ca_pem):
    cert, ca = _cert(cert_pem), _cert(ca_pem)
    ca.public_key().verify(
        cert.signature,
        cert.tbs_certificate_bytes,
        padding.PKCS1v15(),
        cert.signature_hash_algorithm,
    )
    return cert.issuer == ca.subject


def _cn(cert_pem):
    return _cert(cert_pem).subject.get_attributes_for_oid(NameOID.COMMON_NAME)[0].value


def test_certificates_are_generated_and_keys_encrypted_at_rest(magnum_db, ctx, cluster):
    cert_manager.generate_certificates_to_cluster(cluster, context=ctx)
    refs = [cluster.ca_cert_ref, cluster.magnum_cert_ref, cluster.etcd_ca_cert_ref]
    assert len(set(refs + [cluster.front_proxy_ca_cert_ref])) == 4
    ca = cert_manager.get_cluster_ca_certificate(cluster, ctx)
    assert _cn(ca.certificate) == "c1"
    assert _cert(ca.certificate).extensions.get_extension_for_class(cx509.BasicConstraints).value.ca
    client = cert_manager.get_cluster_magnum_cert(cluster, ctx)
    assert _signed_by(client.certificate, ca.certificate)
    subject = _cert(client.certificate).subject
    assert subject.get_attributes_for_oid(NameOID.ORGANIZATION_NAME)[0].value == "system:masters"
    assert _cn(cert_manager.get_cluster_ca_certificate(cluster, ctx, "etcd").certificate) == "etcd"
    front = cert_manager.get_cluster_ca_certificate(cluster, ctx, "front-proxy")
    assert _cn(front.certificate) == "front-proxy"
    row = x509keypair.X509KeyPair.get_by_uuid(ctx, cluster.ca_cert_ref)
    assert "PRIVATE KEY" not in row.private_key
    assert ca.private_key.startswith("-----BEGIN RSA PRIVATE KEY-----")


def test_private_keys_need_the_configured_key(magnum_db, ctx, cluster):
    cert_manager.generate_certificates_to_cluster(cluster, context=ctx)
    CONF.set_override("encryption_key", "another-key", group="x509")
    try:
        with pytest.raises(exception.CertificateStorageException):
            cert_manager.get_cluster_ca_certificate(cluster, ctx)
    finally:
        CONF.clear_override("encryption_key", group="x509")


def test_csr_is_signed_by_the_chosen_ca(magnum_db, ctx, cluster):
    cert_manager.generate_certificates_to_cluster(cluster, context=ctx)
    csr = x509.generate_csr_and_key("kubelet")["csr"]
    pem = cert_manager.sign_node_certificate(cluster, csr, context=ctx)
    assert _cn(pem) == "kubelet"
    assert _signed_by(pem, cert_manager.get_cluster_ca_certificate(cluster, ctx).certificate)
    etcd_pem = cert_manager.sign_node_certificate(cluster, csr, "etcd", context=ctx)
    etcd_ca = cert_manager.get_cluster_ca_certificate(cluster, ctx, "etcd").certificate
    assert _signed_by(etcd_pem, etcd_ca)
    with pytest.raises(exception.InvalidCsr):
        cert_manager.sign_node_certificate(cluster, "not a csr", context=ctx)
    with pytest.raises(exception.InvalidParameterValue):
        cert_manager.get_cluster_ca_certificate(cluster, ctx, "nope")


def test_csr_asking_for_a_ca_is_refused(magnum_db, ctx, cluster):
    cert_manager.generate_certificates_to_cluster(cluster, context=ctx)
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    csr = (
        cx509.CertificateSigningRequestBuilder()
        .subject_name(cx509.Name([cx509.NameAttribute(NameOID.COMMON_NAME, "evil")]))
        .add_extension(cx509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    pem = csr.public_bytes(x509.serialization.Encoding.PEM).decode()
    with pytest.raises(exception.CertificateValidationError):
        cert_manager.sign_node_certificate(cluster, pem, context=ctx)


def test_rotate_replaces_the_ca_and_delete_removes_every_row(magnum_db, ctx, cluster):
    cert_manager.generate_certificates_to_cluster(cluster, context=ctx)
    old_ca = cert_manager.get_cluster_ca_certificate(cluster, ctx).certificate
    old_refs = cert_manager.rotate_ca_certificate(cluster, context=ctx)
    new_ca = cert_manager.get_cluster_ca_certificate(cluster, ctx).certificate
    assert new_ca != old_ca
    assert _signed_by(cert_manager.get_cluster_magnum_cert(cluster, ctx).certificate, new_ca)
    for ref in old_refs:
        with pytest.raises(exception.X509KeyPairNotFound):
            x509keypair.X509KeyPair.get_by_uuid(ctx, ref)
    cert_manager.delete_certificates_from_cluster(cluster, context=ctx)
    with pytest.raises(exception.X509KeyPairNotFound):
        x509keypair.X509KeyPair.get_by_uuid(ctx, cluster.etcd_ca_cert_ref)


def _pairs():
    return len(db_api._rows(db_api.sa.select(db_api.T_X509)))


def test_the_rows_and_the_refs_are_stored_together(magnum_db, ctx, cluster):
    # a conductor killed mid-create leaves all of them or none: never a row no cluster names
    cert_manager.generate_certificates_to_cluster(cluster, context=ctx)
    stored = objects.Cluster.get_by_uuid(ctx, cluster.uuid)
    assert stored.ca_cert_ref == cluster.ca_cert_ref and stored.front_proxy_ca_cert_ref
    assert _pairs() == 4
    cert_manager.rotate_ca_certificate(stored, context=ctx)
    assert _pairs() == 4
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).ca_cert_ref == stored.ca_cert_ref


def test_a_cluster_a_delete_took_over_gets_no_rows(magnum_db, ctx, cluster):
    other = objects.Cluster.get_by_uuid(ctx, cluster.uuid)
    other.status = "DELETE_IN_PROGRESS"
    other.save()
    cert_manager.generate_certificates_to_cluster(cluster, context=ctx)
    assert _pairs() == 0
    assert objects.Cluster.get_by_uuid(ctx, cluster.uuid).ca_cert_ref is None
