"""The db-layer tests run twice: on SQLite (foreign keys on, as heat-lite configures it)
and on the real PostgreSQL, whose statements differ (sync points, event properties, the
locks that hold the stack and resource limits).

``db_url`` is a migrated database of the module's own (PostgreSQL: created for the module,
dropped after); ``db`` configures heat_lite.db.api on it for one test and empties every
table afterwards.
"""

import pytest

from heat_lite.cmd import manage
from heat_lite.db import api as db_api
from heat_lite.db import models
from tests.fixtures import services


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def db_url(request, tmp_path_factory):
    if request.param == "sqlite":
        url = "sqlite:///%s" % (tmp_path_factory.mktemp("db") / "heat.sqlite")
        manage.db_sync(url)
        yield url
        return
    name, url = services.create_database()
    try:
        manage.db_sync(url)
        yield url
    finally:
        db_api.dispose()
        services.drop_database(name)


@pytest.fixture
def db(db_url):
    db_api.configure(db_url)
    yield db_url
    with db_api.transaction() as conn:
        for table in reversed(models.Base.metadata.sorted_tables):
            conn.execute(table.delete())
    db_api.dispose()
