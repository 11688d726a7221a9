"""simcloud-api on the real PostgreSQL after its connections were cut (a failover, a
restarted server): the next requests are answered, and an error the database layer
cannot get past is the service's plain 500, never the driver's text."""

import pytest
import sqlalchemy as sa

from simcloud.cloud import injection
from simcloud.db import api as db_api
from tests.fixtures import chaos

pytestmark = pytest.mark.functional


def _open_connections(count):
    """``count`` pooled connections opened (held at once, then returned to the pool)."""
    engine = db_api.get_engine()
    conns = [engine.connect() for _ in range(count)]
    for conn in conns:
        conn.exec_driver_sql("SELECT 1")
        conn.close()


def test_requests_after_the_connections_were_cut(simcloud_pg):
    cloud = simcloud_pg
    cloud.get("/compute/v2.1/servers", status=200)
    _open_connections(3)
    assert chaos.terminate_db_connections(str(db_api.get_engine().url)) >= 3
    for _ in range(4):
        assert cloud.get("/compute/v2.1/servers", status=200).json == {"servers": []}
    cloud.post("/compute/v2.1/os-keypairs", {"keypair": {"name": "k1"}}, status=200)


def test_a_database_error_is_a_plain_500(simcloud):
    """The failure injection settings are read before anything else: an error there too
    is logged and answered in Nova's format, with none of the driver's text."""
    simcloud.token()
    with db_api.transaction() as conn:
        conn.execute(sa.text("DROP TABLE sim_setting"))
    injection.forget()
    resp = simcloud.get("/compute/v2.1/servers")
    assert resp.status_int == 500
    assert resp.json == {
        "computeFault": {
            "code": 500,
            "message": "The server has either erred or is incapable of performing the "
            "requested operation.",
        }
    }
    assert "sim_setting" in str(simcloud.logged_errors[0].exc_info[1])
    simcloud.logged_errors.clear()
