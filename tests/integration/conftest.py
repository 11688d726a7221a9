"""Integration fixtures: a database and vhost of this module's own, heat-lite processes."""

import pytest
from heatclient import client as heat_client

from tests.fixtures import services


@pytest.fixture(scope="module")
def backends():
    with services.isolated_backends() as (db_url, transport_url):
        yield db_url, transport_url


@pytest.fixture(scope="module")
def heat(backends, tmp_path_factory):
    db_url, transport_url = backends
    procs = services.HeatProcesses(
        tmp_path_factory.mktemp("heat"), db_url, transport_url, workers=2
    )
    procs.start()
    try:
        yield procs
    finally:
        procs.stop()


@pytest.fixture
def hc(heat):
    return heat_client.Client("1", endpoint=heat.endpoint, token="notused")
