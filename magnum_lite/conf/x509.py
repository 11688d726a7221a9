"""[x509]: certificate generation and the key that encrypts private keys at rest."""

from oslo_config import cfg

group = cfg.OptGroup("x509", title="Options for X509 in Magnum")

opts = [
    cfg.BoolOpt("allow_ca", default=False, help="Certificates can get the CA flag."),
    cfg.ListOpt(
        "allowed_extensions",
        default=[
            "keyUsage",
            "extendedKeyUsage",
            "subjectAlternativeName",
            "basicConstraints",
            "subjectKeyIdentifier",
        ],
        help="List of allowed x509 extensions.",
    ),
    cfg.ListOpt(
        "allowed_key_usage",
        default=["Digital Signature", "Key Encipherment", "Non Repudiation"],
        help="List of allowed x509 key usage.",
    ),
    cfg.IntOpt("term_of_validity", default=365 * 5, help="Days for which a certificate is valid."),
    cfg.IntOpt("rsa_key_size", default=2048, help="Size of generated RSA keys."),
    cfg.IntOpt(
        "key_pool_size",
        default=60,
        min=0,
        help="RSA keys the conductor makes ahead of need, on idle CPU (a native thread at "
        "the lowest priority), for a burst of cluster creates: a cluster takes five, each "
        "used once. 0 makes every key when it is needed.",
    ),
    cfg.StrOpt(
        "encryption_key",
        secret=True,
        help="Secret from which the key encrypting certificate private keys at rest is "
        "derived. Unset: the random secret magnum-lite-db-manage upgrade writes to "
        "encryption_key_file.",
    ),
    cfg.StrOpt(
        "encryption_key_file",
        help="The file holding the random secret made at setup when encryption_key is "
        "not set (mode 0600). Default: x509-encryption.key beside the first config file.",
    ),
]


def register_opts(conf):
    conf.register_group(group)
    conf.register_opts(opts, group=group)


def list_opts():
    return [(group.name, opts)]
