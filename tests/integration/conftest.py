"""Integration fixtures: a database and vhost of this module's own, heat-lite processes.

``pytest tests/integration/test_cli_stack.py --against-heat http://127.0.0.1:18004/v1``
runs the CLI suites against another Heat (the reference Heat 27) instead, to check that
their expectations are what Heat prints; each module uses a project of its own there."""

import uuid

import pytest
from heatclient import client as heat_client

from tests.fixtures import cli as cli_mod
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
    try:
        procs.start()  # a start that fails half-way leaves processes to stop too
        yield procs
    finally:
        procs.stop()


@pytest.fixture
def hc(heat):
    return heat_client.Client("1", endpoint=heat.endpoint, token="notused")


class OtherHeat:
    """A Heat API already running elsewhere, seen through a project of this module's own."""

    def __init__(self, url):
        self.endpoint = "%s/%s" % (url.rstrip("/"), "cli%s" % uuid.uuid4().hex[:8])


@pytest.fixture(scope="module")
def cli_heat(request, backends, tmp_path_factory):
    """heat-lite processes for the CLI suites: abandon and adopt enabled (Heat's are off by
    default; the CLI tests drive those commands too)."""
    other = request.config.getoption("--against-heat")
    if other:
        yield OtherHeat(other)
        return
    db_url, transport_url = backends
    procs = services.HeatProcesses(
        tmp_path_factory.mktemp("heat"),
        db_url,
        transport_url,
        workers=2,
        defaults={"enable_stack_abandon": "true", "enable_stack_adopt": "true"},
    )
    try:
        procs.start()  # a start that fails half-way leaves processes to stop too
        yield procs
    finally:
        procs.stop()


@pytest.fixture(scope="module")
def cli_dir(tmp_path_factory):
    """The working directory of the CLI commands (templates are written here)."""
    return tmp_path_factory.mktemp("cli")


@pytest.fixture(scope="module")
def cli(cli_heat, cli_dir):
    return cli_mod.OpenStackCLI(cli_heat.endpoint, cwd=cli_dir)


@pytest.fixture(scope="module")
def cli_hc(cli_heat):
    """python-heatclient's Python API on the same processes."""
    return heat_client.Client("1", endpoint=cli_heat.endpoint, token="notused")
