"""The requests session under the client plugins reads the environment only if it asks
for something it must read per call (a proxy, a netrc file); a CA bundle is read once
and verifies the calls as requests itself would have."""

import http.server
import threading

import pytest
import requests

from heat_lite.conf import CONF
from heat_lite.engine.clients.rest import session

ASKING = ("HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy")
URL = "https://cloud.example:8774/v2.1/servers"


@pytest.fixture
def clean_env(monkeypatch, tmp_path):
    for name in ASKING + ("NO_PROXY", "no_proxy", "REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE", "NETRC"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    return tmp_path


def _what_requests_would_verify_with():
    return requests.Session().merge_environment_settings(URL, {}, None, True, None)["verify"]


def test_nothing_asked_nothing_read(clean_env):
    assert session._http_session()[0].trust_env is False
    assert session._http_session()[1] is True


@pytest.mark.parametrize("name", ["REQUESTS_CA_BUNDLE", "CURL_CA_BUNDLE"])
def test_a_ca_bundle_is_read_once_and_verifies_as_requests_would(clean_env, monkeypatch, name):
    monkeypatch.setenv(name, "/etc/ssl/ca.pem")
    http, verify = session._http_session()
    assert http.trust_env is False
    assert verify == "/etc/ssl/ca.pem" == _what_requests_would_verify_with()


def test_a_proxy_is_honoured(clean_env, monkeypatch):
    monkeypatch.setenv("HTTP_PROXY", "http://proxy:3128")
    monkeypatch.setenv("REQUESTS_CA_BUNDLE", "/etc/ssl/ca.pem")
    http, verify = session._http_session()
    assert http.trust_env is True
    assert verify is True  # requests reads the bundle itself, with the proxies


def test_netrc_is_honoured(clean_env):
    (clean_env / ".netrc").write_text("machine cloud login u password p\n")
    assert session._http_session()[0].trust_env is True


def test_warm_up_authenticates_before_the_first_call(ctx, cloud):
    """A service's start authenticates its service user (noauth): the first cloud call
    then acts with that token instead of asking for one."""
    conn = session.connection(None)
    assert conn.session.auth.auth_ref is None
    session.warm_up()
    warmed = conn.session.auth.auth_ref
    assert warmed is not None and warmed.project_id == cloud.project_id
    assert conn.compute.get("/flavors").status_code == 200
    assert conn.session.auth.auth_ref is warmed  # no second authentication


def test_warm_up_without_a_cloud_is_quiet(ctx, cloud, caplog):
    CONF.set_override("auth_uri", "http://127.0.0.1:9/identity", group="clients_keystone")
    session.forget()
    caplog.set_level("DEBUG", logger=session.__name__)
    session.warm_up()  # nothing raised: the first real call authenticates and reports
    assert [r.levelname for r in caplog.records if r.name == session.__name__] == ["DEBUG"]


def test_warm_up_in_keystone_mode_leaves_tokens_to_requests(ctx, cloud):
    CONF.set_override("auth_strategy", "keystone")
    session.warm_up()
    assert session._connections == {}


def test_callers_share_one_requests_session_and_the_cache_is_bounded(clean_env):
    """One pooled requests session per process under every caller's Connection; the
    Connections kept stop at MAX_CACHED (the oldest dropped), the session stays."""
    CONF.set_override("auth_strategy", "keystone")
    session.forget()
    try:

        class Ctx:
            project_id = "p1"

            def __init__(self, token):
                self.auth_token = token

        conns = [session.connection(Ctx("token-%d" % i)) for i in range(session.MAX_CACHED + 5)]
        shared = {id(c.session.session) for c in conns}
        assert len(shared) == 1
        assert len(session._connections) == session.MAX_CACHED
        assert session.connection(Ctx("token-%d" % (session.MAX_CACHED + 4))) is conns[-1]
        pooled = conns[0].session.session
        assert pooled.get_adapter("http://cloud")._pool_maxsize == session.POOL_MAXSIZE
    finally:
        session.forget()
        CONF.clear_override("auth_strategy")


def test_the_shared_session_keeps_no_cookies(clean_env):
    """Calls of different callers share the session: a cookie one caller's answer sets
    must not ride along the next caller's calls."""

    class SetsCookie(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Set-Cookie", "sid=theirs; Path=/")
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.HTTPServer(("127.0.0.1", 0), SetsCookie)
    thread = threading.Thread(target=server.handle_request)
    thread.start()
    shared, _ = session._http_session()
    try:
        assert shared.get("http://127.0.0.1:%d/" % server.server_port, timeout=10).ok
    finally:
        thread.join()
        server.server_close()
        shared.close()
    assert len(shared.cookies) == 0
