"""magnum-lite-api on the real PostgreSQL after its connections were cut (a failover, a
restarted server): the next requests are answered; a transient error in the middle of a
database call is retried; an error no retry gets past is Magnum's 500 with a plain
message, the driver's text (and its SQL) only in the log."""

import pytest
import sqlalchemy as sa
import webtest

from magnum_lite.api import app as api_app
from magnum_lite.db import api as db_api
from magnum_lite.db import retry
from tests.fixtures import chaos
from tests.functional.magnum_lite import fixtures
from tests.functional.magnum_lite.conftest import headers

pytestmark = pytest.mark.functional


def _open_connections(count):
    """``count`` pooled connections opened (held at once, then returned to the pool)."""
    conns = [db_api.get_engine().connect() for _ in range(count)]
    for conn in conns:
        conn.exec_driver_sql("SELECT 1")
        conn.close()


def test_requests_after_the_connections_were_cut(magnum_conf_pg):
    api = webtest.TestApp(api_app.setup_app())
    template = fixtures.template("p1", name="ct")
    fixtures.cluster(template, "p1", name="c1")
    _open_connections(3)
    assert chaos.terminate_db_connections(str(db_api.get_engine().url)) >= 3
    for _ in range(4):
        listed = api.get("/v1/clusters", headers=headers("p1")).json["clusters"]
        assert [c["name"] for c in listed] == ["c1"]
    assert api.get("/v1/clustertemplates/ct", headers=headers("p1")).json["uuid"] == (template.uuid)


def test_a_connection_lost_in_a_call_is_retried(magnum_conf_pg):
    """The backend ends while the call runs (not while its connection was idle): the
    whole call runs again on a new connection."""
    backends = []

    @retry.retry_on_db_error
    def call():
        with db_api.transaction() as conn:
            backends.append(conn.exec_driver_sql("SELECT pg_backend_pid()").scalar())
            if len(backends) == 1:
                conn.exec_driver_sql("SELECT pg_terminate_backend(pg_backend_pid())")
            return conn.exec_driver_sql("SELECT 42").scalar()

    assert call() == 42
    assert len(backends) == 2 and backends[0] != backends[1]


def test_a_database_error_is_a_plain_500(api, expect_log_errors):
    expect_log_errors(r"Server-side error")
    with db_api.transaction() as conn:
        conn.execute(sa.text("DROP TABLE nodegroup"))
        conn.execute(sa.text("DROP TABLE cluster"))
    resp = api.get("/v1/clusters", headers=headers("p1"), expect_errors=True)
    assert resp.status_int == 500
    assert resp.json["errors"] == [
        {
            "request_id": "",
            "code": "server",
            "status": 500,
            "title": "The server has either erred or is incapable of performing the "
            "requested operation",
            "detail": "The server has either erred or is incapable of performing the "
            "requested operation.",
            "links": [],
        }
    ]
