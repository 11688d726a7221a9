"""X.509 material for clusters, made with the ``cryptography`` library as Magnum's
x509 operations make it: self-signed CAs, client certificates signed by a CA, CSR
signing, key pairs, and the encryption of private keys at rest.

    ca = generate_ca_certificate("my-cluster")            # {"certificate", "private_key"}
    client = generate_client_certificate("my-cluster", "admin", "system:masters",
                                         ca["private_key"])
    pem = sign(csr_pem, "my-cluster", ca["private_key"])
    token = encrypt_key(ca["private_key"]); decrypt_key(token) == ca["private_key"]

PEM values are ``str``. Private keys at rest are Fernet tokens whose key is derived
from ``[x509] encryption_key`` or, when that is not set, from the random secret that
``setup_encryption_key()`` writes at setup (magnum-lite-db-manage upgrade) to
``[x509] encryption_key_file``, as keystone-manage fernet_setup writes Keystone's keys.
"""

import base64
import datetime
import functools
import hashlib
import os
import pathlib
import secrets
import threading
import time
import uuid

from cryptography import fernet, x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID
from eventlet import patcher, tpool

from magnum_lite.common import exception
from magnum_lite.conf import CONF

_PEM = serialization.Encoding.PEM

# extension class -> the name [x509] allowed_extensions uses (Magnum's names)
_EXTENSION_NAMES = {
    x509.KeyUsage: "keyUsage",
    x509.ExtendedKeyUsage: "extendedKeyUsage",
    x509.SubjectAlternativeName: "subjectAlternativeName",
    x509.BasicConstraints: "basicConstraints",
    x509.SubjectKeyIdentifier: "subjectKeyIdentifier",
}


KEY_FILE_NAME = "x509-encryption.key"


def encryption_key_file():
    """[x509] encryption_key_file, else x509-encryption.key beside the first config
    file (None without config files)."""
    if CONF.x509.encryption_key_file:
        return pathlib.Path(CONF.x509.encryption_key_file)
    if not CONF.config_file:
        return None
    return pathlib.Path(CONF.config_file[0]).resolve().parent / KEY_FILE_NAME


def setup_encryption_key():
    """Unless [x509] encryption_key is set or the key file exists, write a random secret
    to the key file, readable by its owner only. Returns the file written, or None."""
    path = encryption_key_file()
    if CONF.x509.encryption_key or path is None or path.exists():
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(".%s.%s" % (path.name, uuid.uuid4().hex))
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as out:
        out.write(secrets.token_urlsafe(32) + "\n")
    try:
        os.link(tmp, path)  # a setup running at the same time keeps its own (first) key
    except FileExistsError:
        return None
    finally:
        tmp.unlink()
    return path


def _secret():
    if CONF.x509.encryption_key:
        return CONF.x509.encryption_key
    path = encryption_key_file()
    try:
        return path.read_text().strip()
    except (AttributeError, OSError) as err:
        raise exception.ConfigInvalid(
            error_msg="no key to encrypt private keys at rest: set [x509] encryption_key, "
            "or run magnum-lite-db-manage upgrade to make %s (%s)" % (path, err)
        )


@functools.lru_cache(maxsize=4)
def _fernet_of(secret):
    return fernet.Fernet(base64.urlsafe_b64encode(hashlib.sha256(secret.encode()).digest()))


def _fernet():
    return _fernet_of(_secret())


def check_encryption_key():
    """Raise ConfigInvalid now (at a conductor's start) when there is no key."""
    _secret()


def encrypt_key(private_key_pem):
    """The private key as stored: a Fernet token (str)."""
    return _fernet().encrypt(private_key_pem.encode("utf-8")).decode("ascii")


def decrypt_key(token):
    """The PEM private key a stored token holds."""
    try:
        return _fernet().decrypt(token.encode("ascii")).decode("utf-8")
    except fernet.InvalidToken:
        raise exception.CertificateStorageException(
            msg="the private key cannot be decrypted with [x509] encryption_key"
        )


def _generate_key(key_size):
    return rsa.generate_private_key(public_exponent=65537, key_size=key_size)


def _native_modules():
    """The OS's threading and time modules, even where eventlet has patched them in:
    OpenSSL makes a key with the GIL released, so a native thread makes it beside the
    greenthreads."""
    if patcher.is_monkey_patched("thread"):
        return patcher.original("threading"), patcher.original("time")
    return threading, time


def _lowest_cpu_priority(native_threading):
    """Nice 19 for the calling native thread (Linux: a thread id is a task id)."""
    try:
        os.setpriority(os.PRIO_PROCESS, native_threading.get_native_id(), 19)
    except (AttributeError, OSError):
        pass


def _cpu_times():
    """(idle, total) jiffies of the machine's CPUs so far (/proc/stat), or None."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(f) for f in stat.readline().split()[1:]]
    except (OSError, ValueError):
        return None
    return fields[3] + fields[4], sum(fields)


def _wait_for_idle_cpu(native_time, share=0.5, interval=0.1):
    """Return once the machine's CPUs were at least ``share`` idle over ``interval``
    seconds (at once where /proc/stat cannot tell): a thread at the lowest priority still
    takes the other half of a hyperthreaded core, or the cache, from a busy service."""
    before = _cpu_times()
    while before is not None:
        native_time.sleep(interval)
        after = _cpu_times()
        idle, total = after[0] - before[0], after[1] - before[1]
        if total <= 0 or idle >= share * total:
            return
        before = after


class KeyPool:
    """RSA keys made ahead of need, up to ``[x509] key_pool_size`` of them, by a native
    thread at the lowest CPU priority: the pool fills on otherwise idle CPU, beside the
    conductor's greenthreads, and a burst of cluster creates takes its keys (five a
    cluster: the cluster, etcd and front-proxy CAs, the client's and the service
    account's, each ~35 ms of CPU) instead of making them on CPU the burst needs.
    Each key is handed out once; an empty pool makes the key on the spot, in a native
    thread too (eventlet's tpool), so the conductor's other greenthreads go on."""

    def __init__(self):
        self._native, self._native_time = _native_modules()
        self._keys = []
        self._lock = self._native.Lock()
        self._wanted = self._native.Event()
        self._thread = None

    def start(self):
        """Start filling (the options are read here: the native thread touches nothing
        of eventlet's, oslo.config's or logging's)."""
        size, key_size = CONF.x509.key_pool_size, CONF.x509.rsa_key_size
        if self._thread is None and size > 0:
            self._thread = self._native.Thread(
                target=self._fill, args=(size, key_size), name="x509-key-pool", daemon=True
            )
            self._thread.start()

    def take(self):
        key_size = CONF.x509.rsa_key_size
        with self._lock:
            key = self._keys.pop() if self._keys else None
        self._wanted.set()
        if key is not None and key.key_size == key_size:
            return key
        if self._native is threading:
            return _generate_key(key_size)
        return tpool.execute(_generate_key, key_size)

    def _fill(self, size, key_size):
        _lowest_cpu_priority(self._native)
        while True:
            with self._lock:
                full = len(self._keys) >= size
            if full:
                self._wanted.wait()
                self._wanted.clear()
                continue
            _wait_for_idle_cpu(self._native_time)
            key = _generate_key(key_size)
            with self._lock:
                self._keys.append(key)


key_pool = KeyPool()


def _new_key():
    return key_pool.take()


def _key_pem(key):
    return key.private_bytes(
        _PEM, serialization.PrivateFormat.TraditionalOpenSSL, serialization.NoEncryption()
    ).decode("ascii")


def _load_key(pem):
    # every key loaded here is one this conductor made, or decrypted from our own Fernet
    # token (whose HMAC proves we made it): OpenSSL's RSA consistency check (~20 % of the
    # conductor's CPU in a cluster create, py-spy) would only re-prove that
    return serialization.load_pem_private_key(
        pem.encode("ascii"), password=None, unsafe_skip_rsa_key_validation=True
    )


def _name(common_name, organization=None):
    attrs = [x509.NameAttribute(NameOID.COMMON_NAME, common_name)]
    if organization:
        attrs.insert(0, x509.NameAttribute(NameOID.ORGANIZATION_NAME, organization))
    return x509.Name(attrs)


def _builder(subject, issuer, public_key):
    now = datetime.datetime.now(datetime.timezone.utc)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(uuid.uuid4().int)
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(days=CONF.x509.term_of_validity))
        .add_extension(x509.SubjectKeyIdentifier.from_public_key(public_key), critical=False)
    )


def _cert_pem(cert):
    return cert.public_bytes(_PEM).decode("ascii")


def generate_ca_certificate(subject_name):
    """A self-signed CA: ``{"certificate": pem, "private_key": pem}``."""
    key = _new_key()
    name = _name(subject_name)
    cert = (
        _builder(name, name, key.public_key())
        .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=True,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=True,
                crl_sign=True,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .sign(key, hashes.SHA256())
    )
    return {"certificate": _cert_pem(cert), "private_key": _key_pem(key)}


def _client_extensions(builder):
    return (
        builder.add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
        .add_extension(
            x509.KeyUsage(
                digital_signature=True,
                content_commitment=False,
                key_encipherment=True,
                data_encipherment=False,
                key_agreement=False,
                key_cert_sign=False,
                crl_sign=False,
                encipher_only=False,
                decipher_only=False,
            ),
            critical=True,
        )
        .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.CLIENT_AUTH]), critical=False)
    )


def generate_client_certificate(issuer_name, subject_name, organization_name, ca_key):
    """A client certificate (CN ``subject_name``, O ``organization_name``) signed by
    the CA whose PEM private key is ``ca_key``: ``{"certificate", "private_key"}``."""
    key = _new_key()
    builder = _builder(_name(subject_name, organization_name), _name(issuer_name), key.public_key())
    cert = _client_extensions(builder).sign(_load_key(ca_key), hashes.SHA256())
    return {"certificate": _cert_pem(cert), "private_key": _key_pem(key)}


def sign(csr, issuer_name, ca_key):
    """Sign a PEM CSR with the CA key; the certificate keeps the CSR's subject and
    allowed extensions (``[x509] allowed_extensions``; a CA flag only with
    ``[x509] allow_ca``).

    :raises: InvalidCsr for a CSR that does not parse or whose signature is bad;
        CertificateValidationError for a disallowed extension.
    """
    try:
        request = x509.load_pem_x509_csr(csr.encode("ascii") if isinstance(csr, str) else csr)
    except ValueError:
        raise exception.InvalidCsr(csr=csr)
    if not request.is_signature_valid:
        raise exception.InvalidCsr(csr=csr)
    builder = _builder(request.subject, _name(issuer_name), request.public_key())
    for ext in request.extensions:
        if isinstance(ext.value, x509.SubjectKeyIdentifier):
            continue
        name = _EXTENSION_NAMES.get(type(ext.value), ext.oid.dotted_string)
        if name not in CONF.x509.allowed_extensions:
            raise exception.CertificateValidationError(extension=name)
        if isinstance(ext.value, x509.BasicConstraints) and ext.value.ca and not CONF.x509.allow_ca:
            raise exception.CertificateValidationError(extension="basicConstraints")
        builder = builder.add_extension(ext.value, critical=ext.critical)
    return _cert_pem(builder.sign(_load_key(ca_key), hashes.SHA256()))


def generate_csr_and_key(common_name):
    """A new RSA key pair and a CSR for it: ``{"csr", "private_key", "public_key"}``."""
    key = _new_key()
    csr = (
        x509.CertificateSigningRequestBuilder()
        .subject_name(_name(common_name))
        .sign(key, hashes.SHA256())
    )
    public = key.public_key().public_bytes(_PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    return {
        "csr": csr.public_bytes(_PEM).decode("ascii"),
        "private_key": _key_pem(key),
        "public_key": public.decode("ascii"),
    }


def generate_service_account_keys():
    """Kubernetes' service-account signing key pair as the templates take it: the PEM
    public and private keys with newlines written as the two characters ``\\n``."""
    keys = generate_csr_and_key("Kubernetes Service Account")
    return {
        "kube_service_account_key": keys["public_key"].replace("\n", "\\n"),
        "kube_service_account_private_key": keys["private_key"].replace("\n", "\\n"),
    }
