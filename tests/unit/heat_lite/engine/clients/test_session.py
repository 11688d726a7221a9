"""The requests session under the client plugins reads the environment only if it asks
for something (a proxy, a CA bundle, a netrc file)."""

import pytest

from heat_lite.engine.clients.rest import session

ASKING = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for name in ASKING + ("NO_PROXY", "no_proxy", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NETRC"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def test_nothing_asked_nothing_read(clean_env):
    assert session._http_session().trust_env is False


@pytest.mark.parametrize(
    "name, value",
    [("HTTP_PROXY", "http://proxy:3128"), ("REQUESTS_CA_BUNDLE", "/etc/ssl/ca.pem")],
)
def test_environment_asking_is_honoured(clean_env, monkeypatch, name, value):
    monkeypatch.setenv(name, value)
    assert session._http_session().trust_env is True


def test_netrc_is_honoured(clean_env):
    (clean_env / ".netrc").write_text("machine cloud login u password p\n")
    assert session._http_session().trust_env is True
