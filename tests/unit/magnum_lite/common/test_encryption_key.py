"""The key that encrypts private keys at rest: a random secret made at setup, never a
default that every install shares."""

import stat

import pytest

from magnum_lite.common import exception, x509
from magnum_lite.conf import CONF

pytestmark = pytest.mark.unit


@pytest.fixture
def conf(tmp_path):
    config = tmp_path / "etc" / "magnum.conf"
    config.parent.mkdir()
    config.write_text("[DEFAULT]\n")
    CONF(["--config-file", str(config)], project="magnum", default_config_files=[])
    yield config
    CONF.reset()


def test_no_configured_key_and_no_setup_is_a_clear_error(conf):
    with pytest.raises(exception.ConfigInvalid) as err:
        x509.encrypt_key("pem")
    assert "run magnum-lite-db-manage upgrade" in str(err.value)
    with pytest.raises(exception.ConfigInvalid):
        x509.check_encryption_key()


def test_setup_writes_a_random_secret_beside_the_config_once(conf):
    written = x509.setup_encryption_key()
    assert written == conf.parent / "x509-encryption.key"
    assert stat.S_IMODE(written.stat().st_mode) == 0o600
    secret = written.read_text().strip()
    assert len(secret) >= 40
    assert x509.setup_encryption_key() is None  # kept: the stored keys stay readable
    assert written.read_text().strip() == secret
    token = x509.encrypt_key("the pem")
    assert x509.decrypt_key(token) == "the pem"
    # another install's setup makes another secret, which cannot read this one's keys
    written.unlink()
    x509.setup_encryption_key()
    assert written.read_text().strip() != secret
    with pytest.raises(exception.CertificateStorageException):
        x509.decrypt_key(token)


def test_a_configured_key_is_used_and_no_file_made(conf):
    CONF.set_override("encryption_key", "operator-secret", group="x509")
    assert x509.setup_encryption_key() is None
    assert not (conf.parent / "x509-encryption.key").exists()
    assert x509.decrypt_key(x509.encrypt_key("pem")) == "pem"


def test_the_key_file_option_names_where_it_lives(conf, tmp_path):
    CONF.set_override("encryption_key_file", str(tmp_path / "keys" / "k"), group="x509")
    assert x509.setup_encryption_key() == tmp_path / "keys" / "k"
    assert x509.decrypt_key(x509.encrypt_key("pem")) == "pem"
