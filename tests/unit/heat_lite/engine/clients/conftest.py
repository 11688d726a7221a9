"""An in-memory heat database and a request context for the simulated services."""

import pytest

from heat_lite.common import context
from heat_lite.conf import CONF
from heat_lite.db import api as db_api


@pytest.fixture
def ctx():
    CONF([], project="heat", default_config_files=[])
    db_api.configure("sqlite://")
    db_api.create_schema()
    yield context.RequestContext(user_id="u", project_id="p1", roles=["member"])
    db_api.dispose()
    for key in ("build_time", "fail_objects", "fail_marker", "flavors"):
        CONF.clear_override(key, group="simulated_cloud")
    CONF.reset()
