"""An in-memory heat database, simcloud-api served in process, and a request context."""

import pytest

from heat_lite.common import context
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from tests.fixtures import simcloud_inprocess


@pytest.fixture
def cloud():
    with simcloud_inprocess.serve() as cloud:
        yield cloud


@pytest.fixture
def ctx(cloud):
    CONF([], project="heat", default_config_files=[])
    cloud.configure_heat()
    db_api.configure("sqlite://")
    db_api.create_schema()
    yield context.RequestContext(user_id="u", project_id="p1", roles=["member"])
    db_api.dispose()
    CONF.reset()
