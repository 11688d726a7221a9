"""magnum-lite unit fixtures: magnum's config on a fresh SQLite schema."""

import pytest

from magnum_lite.common import context, policy, x509
from magnum_lite.conf import CONF
from magnum_lite.db import api as db_api


@pytest.fixture
def magnum_db(tmp_path):
    CONF([], project="magnum", default_config_files=[])
    url = "sqlite:///%s" % (tmp_path / "magnum.sqlite")
    CONF.set_override("connection", url, group="database")
    db_api.configure(url)
    db_api.create_schema()
    policy.reset()
    CONF.set_override("encryption_key_file", str(tmp_path / "x509.key"), group="x509")
    x509.setup_encryption_key()
    yield url
    db_api.dispose()
    CONF.reset()
    CONF.clear_override("connection", group="database")


@pytest.fixture
def ctx():
    return context.RequestContext(
        user_id="u1", project_id="p1", roles=["member", "reader"], is_admin=False
    )


@pytest.fixture
def admin_ctx():
    return context.get_admin_context()
