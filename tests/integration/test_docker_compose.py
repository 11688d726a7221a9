"""docker-compose.yml, run without Docker: each heat service's command and environment
from the file, as processes against the local PostgreSQL and RabbitMQ (the compose
hostnames swapped for this run's own database and vhost), with two workers as
``--scale heat-worker=2`` would start."""

import shlex

import pytest
import yaml
from heatclient import client as heat_client

from tests.fixtures import services
from tests.integration import helpers

pytestmark = pytest.mark.integration

COMPOSE = services.REPO / "docker-compose.yml"


class ComposeProcesses(services.HeatProcesses):
    def __init__(self, workdir, database_url, transport_url, workers=2):
        super().__init__(workdir, database_url, transport_url, workers)
        self.compose = yaml.safe_load(COMPOSE.read_text())["services"]
        self.local = {
            "OS_DATABASE__CONNECTION": database_url,
            "OS_DEFAULT__TRANSPORT_URL": transport_url,
        }

    def _command(self, service):
        spec = self.compose[service]
        argv = shlex.split(spec["command"])
        env = {k: str(v) for k, v in (spec.get("environment") or {}).items()}
        assert set(self.local) <= set(env), "%s must name the database and broker" % service
        env.update(self.local)
        if "OS_HEAT_API__BIND_PORT" in env:
            env.update(
                OS_HEAT_API__BIND_HOST="127.0.0.1", OS_HEAT_API__BIND_PORT=str(self.api_port)
            )
        return [services.script(argv[0]), *argv[1:]], env

    def db_sync(self):
        return self._command("heat-db-sync")

    def services(self):
        for name in ("heat-api", "heat-engine"):
            yield (name.split("-")[1], *self._command(name))
        for i in range(self.workers):
            yield ("worker%d" % i, *self._command("heat-worker"))


def test_compose_file_names_every_service():
    compose = yaml.safe_load(COMPOSE.read_text())["services"]
    assert {
        "postgres",
        "rabbitmq",
        "heat-db-sync",
        "heat-api",
        "heat-engine",
        "heat-worker",
    } <= set(compose)


def test_compose_services_converge_a_stack(backends, tmp_path):
    db_url, transport_url = backends
    procs = ComposeProcesses(tmp_path, db_url, transport_url, workers=2)
    procs.start()
    try:
        hc = heat_client.Client("1", endpoint=procs.endpoint, token="notused")
        stack_id = hc.stacks.create(stack_name="compose", template=helpers.layered_template(2, 5))[
            "stack"
        ]["id"]
        stack = helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"})
        assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
        hc.stacks.delete(stack_id)
        stack = helpers.wait_for(hc, stack_id, "DELETE_COMPLETE")
    finally:
        procs.stop()
