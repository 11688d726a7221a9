"""magnum-lite-api in process (webtest) on SQLite, RPC over oslo.messaging ``fake://``."""

import pytest
import webtest

from magnum_lite.api import app as api_app
from magnum_lite.common import policy, rpc
from magnum_lite.conf import CONF
from magnum_lite.db import api as db_api
from magnum_lite.drivers import registry
from tests.fixtures import services

LATEST = {"OpenStack-API-Version": "container-infra latest"}


def headers(project="p1", user="u1", roles="member,reader", version="latest"):
    h = {"X-Project-Id": project, "X-User-Id": user, "X-Roles": roles}
    if version:
        h["OpenStack-API-Version"] = "container-infra %s" % version
    return h


@pytest.fixture
def magnum_conf(tmp_path):
    yield from _conf("sqlite:///%s" % (tmp_path / "magnum.sqlite"))


@pytest.fixture
def magnum_conf_pg():
    """The same on a PostgreSQL database of its own."""
    name, url = services.create_database()
    try:
        yield from _conf(url)
    finally:
        services.drop_database(name)


def _conf(url):
    CONF([], project="magnum", default_config_files=[])
    CONF.set_override("connection", url, group="database")
    db_api.configure(url)
    db_api.create_schema()
    policy.reset()
    CONF.set_override("encryption_key", "functional-tests", group="x509")
    rpc.init(CONF, url="fake://")
    yield CONF
    rpc.cleanup()
    db_api.dispose()
    CONF.clear_override("connection", group="database")
    CONF.reset()


@pytest.fixture
def api(magnum_conf):
    return webtest.TestApp(api_app.setup_app())


@pytest.fixture
def no_drivers(magnum_conf):
    """An install whose drivers are all disabled (as a vanilla Magnum 23 has none)."""
    CONF.set_override("disabled_drivers", [d.name for d in registry.DRIVERS], group="drivers")
    yield
    CONF.clear_override("disabled_drivers", group="drivers")
