"""OpenStackClients' cloud connection: the session of [keystone_auth] and the endpoints
each [<service>_client] group picks from the catalog (no cloud needed to build them)."""

import pytest
from keystoneauth1 import loading as ka_loading
from keystoneauth1.identity import generic

from magnum_lite.common import clients, exception, keystone
from magnum_lite.conf import CONF


@pytest.fixture
def conf():
    CONF([], project="magnum", default_config_files=[])
    keystone.forget_service_auth()
    yield CONF
    keystone.forget_service_auth()
    CONF.reset()
    CONF.unregister_opts(ka_loading.get_auth_plugin_conf_options("password"), "keystone_auth")


def test_no_auth_type_is_service_unavailable(conf, ctx):
    conf.set_override("auth_type", None, group="keystone_auth")  # (password by default)
    with pytest.raises(exception.ServiceUnavailable) as err:
        clients.OpenStackClients(ctx).keystone_session()
    assert err.value.code == 503 and "[keystone_auth] names no auth_type" in str(err.value)


def _password_user(conf):
    conf.set_override("auth_type", "password", group="keystone_auth")
    conf.register_opts(ka_loading.get_auth_plugin_conf_options("password"), group="keystone_auth")
    conf.set_override("auth_url", "http://cloud.example/identity", group="keystone_auth")
    conf.set_override("username", "magnum", group="keystone_auth")
    conf.set_override("timeout", 7, group="keystone_auth")


def test_session_is_the_service_user_and_the_token_is_shared(conf, ctx):
    _password_user(conf)
    first = clients.OpenStackClients(ctx).keystone_session()
    second = clients.OpenStackClients(ctx).keystone_session()
    assert isinstance(first.auth, generic.Password)
    assert first.auth.auth_url == "http://cloud.example/identity"
    assert first.timeout == 7.0
    # one auth plugin (one token, renewed by keystoneauth) for every request
    assert first is not second and first.auth is second.auth


def test_cloud_endpoints_follow_the_client_groups(conf, ctx):
    _password_user(conf)
    conf.set_override("endpoint_type", "internalURL", group="nova_client")
    conf.set_override("region_name", "RegionTwo", group="neutron_client")
    region = clients.OpenStackClients(ctx).cloud().config
    assert region.get_interface("compute") == "internal"
    assert region.get_interface("image") == "public"
    assert region.get_region_name("network") == "RegionTwo"


def test_noauth_requests_share_one_cloud_connection(conf, ctx):
    """Every noauth request acts as the service user: one Connection (its proxies built
    once) until the plugin or the endpoint options change."""
    _password_user(conf)
    first = clients.OpenStackClients(ctx).cloud()
    assert clients.OpenStackClients(ctx).cloud() is first
    assert first.session.auth is keystone.service_auth()
    conf.set_override("region_name", "RegionTwo", group="neutron_client")
    moved = clients.OpenStackClients(ctx).cloud()
    assert moved is not first and moved.config.get_region_name("network") == "RegionTwo"
    keystone.forget_service_auth()
    assert clients.OpenStackClients(ctx).cloud() is not moved


def test_keystone_mode_connection_is_the_requests_own(conf, ctx, monkeypatch):
    """Keystone mode: each request's Connection carries its own session (its token)."""
    from keystoneauth1 import session as ks_session

    conf.set_override("auth_strategy", "keystone")
    monkeypatch.setattr(
        clients.OpenStackClients, "keystone_session", lambda self: ks_session.Session()
    )
    first = clients.OpenStackClients(ctx).cloud()
    second = clients.OpenStackClients(ctx).cloud()
    assert first is not second and first.session is not second.session
