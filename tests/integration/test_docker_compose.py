"""docker-compose.yml, run without Docker: each service's command and environment from the
file, as processes against the local PostgreSQL and RabbitMQ, with three heat-worker
processes as ``--scale heat-worker=3`` would start; a cluster is created through them. The
compose names are swapped for this run's own: each ``postgres:5432/<db>`` for a database
of the run's own, ``rabbitmq:5672/`` for its vhost, each published port (and a service's
``<name>:<port>``) for a free loopback port."""

import re
import shlex
import time

import pytest
import requests
import yaml

from tests.fixtures import cli as cli_mod
from tests.fixtures import services
from tests.integration import helpers

pytestmark = pytest.mark.integration

COMPOSE = services.REPO / "docker-compose.yml"
MIGRATIONS = ("simcloud-db-sync", "heat-db-sync", "magnum-db-sync")
# start order (depends_on), heat-worker three times
LONG_RUNNING = (
    "simcloud-api",
    "heat-api",
    "heat-engine",
    "heat-worker",
    "magnum-api",
    "magnum-conductor",
)
DATABASES = ("heat", "magnum", "simcloud")
DB_URL = re.compile(r"postgresql\+psycopg2://[^/]+@postgres:5432/(\w+)")


def load_compose():
    return yaml.safe_load(COMPOSE.read_text())["services"]


class ComposeProcesses(services.HeatProcesses):
    """Every compose service with a command, as local processes."""

    def __init__(self, workdir, databases, transport_url, workers=3):
        super().__init__(workdir, databases["heat"], transport_url, workers)
        self.compose = load_compose()
        self.databases = databases
        self.transport_url = transport_url
        # container port -> (service, local port) of every published port
        self.published = {}
        for name, spec in self.compose.items():
            for mapping in spec.get("ports", []):
                port = int(str(mapping).split(":")[-1])
                self.published[port] = (name, services.free_port())

    def port(self, service):
        return next(p for s, p in self.published.values() if s == service)

    @property
    def endpoint(self):
        return "http://127.0.0.1:%d/v1/admin" % self.port("heat-api")

    @property
    def magnum_endpoint(self):
        return "http://127.0.0.1:%d/v1" % self.port("magnum-api")

    def localize(self, service, value):
        value = DB_URL.sub(lambda m: self.databases[m.group(1)], str(value))
        value = value.replace("rabbit://guest:guest@rabbitmq:5672/", self.transport_url)
        value = value.replace("0.0.0.0", "127.0.0.1")
        value = value.replace("/var/lib/magnum-lite/", "%s/" % self.workdir)  # a volume
        for port, (name, local) in self.published.items():
            for host in (name, "127.0.0.1"):
                value = value.replace("%s:%d" % (host, port), "127.0.0.1:%d" % local)
            if name == service and value == str(port):
                value = str(local)
        return value

    def command(self, service):
        spec = self.compose[service]
        argv = shlex.split(spec["command"])
        env = {k: self.localize(service, v) for k, v in (spec.get("environment") or {}).items()}
        assert "OS_DATABASE__CONNECTION" in env, "%s must name its database" % service
        return [services.script(argv[0]), *argv[1:]], env

    def services(self):
        for name in LONG_RUNNING:
            copies = self.workers if name == "heat-worker" else 1
            for i in range(copies):
                label = "%s-%d" % (name, i) if copies > 1 else name
                yield (label, *self.command(name))

    def start_cloud(self):
        """Nothing to start apart: simcloud-api is one of the compose services."""

    def migrations(self):
        return [self.command(name) for name in MIGRATIONS]

    def wait_ready(self, timeout=90):
        deadline = time.monotonic() + timeout
        # the simulated cloud too: magnum-api's first checks (the template's image) ask it
        identity = "http://127.0.0.1:%d/identity/v3" % self.port("simcloud-api")
        urls = [self.endpoint + "/stacks", self.magnum_endpoint, identity]
        while time.monotonic() < deadline:
            for name, proc in self.procs.items():
                if proc.poll() is not None:
                    raise RuntimeError("%s exited early:\n%s" % (name, self.log(name)))
            rpc = [
                n for n in self.procs if n.startswith(("heat-engine", "heat-worker", "magnum-c"))
            ]
            listening = all("listening on topic" in self.log(n) for n in rpc)
            try:
                if listening and all(requests.get(u, timeout=2).status_code == 200 for u in urls):
                    return
            except requests.RequestException:
                pass
            time.sleep(0.3)
        raise RuntimeError("the compose services did not become ready")


@pytest.fixture(scope="module")
def compose_env(tmp_path_factory):
    with services.isolated_backends() as (heat_db, transport_url):
        created = []
        try:
            databases = {"heat": heat_db}
            for name in ("magnum", "simcloud"):
                db_name, url = services.create_database()
                created.append(db_name)
                databases[name] = url
            procs = ComposeProcesses(tmp_path_factory.mktemp("compose"), databases, transport_url)
            procs.start()
            try:
                yield procs
            finally:
                procs.stop()
        finally:
            for db_name in created:
                services.drop_database(db_name)


def test_compose_file_names_every_service():
    compose = load_compose()
    built = {name for name, spec in compose.items() if "build" in spec}
    assert built == set(MIGRATIONS) | set(LONG_RUNNING)
    assert {"postgres", "rabbitmq"} <= set(compose)
    for name in MIGRATIONS:
        for service in LONG_RUNNING:
            # every service that uses a migrated database waits for its migration
            spec = compose[service]
            env = spec.get("environment") or {}
            db = DB_URL.search(str(env.get("OS_DATABASE__CONNECTION", "")))
            if db and "%s-db-sync" % db.group(1) == name:
                assert spec["depends_on"][name] == {"condition": "service_completed_successfully"}
    conductor = compose["magnum-conductor"]["environment"]
    assert (
        conductor["OS_DEFAULT__TRANSPORT_URL"]
        == compose["heat-engine"]["environment"]["OS_DEFAULT__TRANSPORT_URL"]
    ), "the conductor hears heat's notifications over the shared RabbitMQ"
    assert compose["heat-worker"]["environment"]["OS_OSLO_MESSAGING_NOTIFICATIONS__DRIVER"] == (
        "messaging"
    )


def test_compose_services_create_and_delete_a_cluster(compose_env):
    coe = cli_mod.OpenStackCLI(compose_env.magnum_endpoint, cwd=compose_env.workdir)
    coe(
        *("coe", "cluster", "template", "create", "k8s", "--coe", "kubernetes"),
        *("--image", "fedora-coreos-40", "--external-network", "public"),
        *("--flavor", "m1.small", "--master-flavor", "m1.medium"),
    )
    coe("coe", "cluster", "create", "c1", "--cluster-template", "k8s", "--node-count", "2")
    # the conductor stores the cluster, as Magnum's does: a show just after the create
    # may find none yet (it failed so once, on a loaded machine)
    found = helpers.wait_cluster_status(coe, "c1", ["CREATE_COMPLETE", "CREATE_FAILED"])
    assert found["status"] == "CREATE_COMPLETE", found["status_reason"]
    coe("coe", "cluster", "delete", "c1")
    deadline = time.monotonic() + 120
    while coe.json("coe", "cluster", "list"):
        assert time.monotonic() < deadline, "cluster c1 was never deleted"
        time.sleep(0.5)
    stacks = requests.get(compose_env.endpoint + "/stacks", timeout=10).json()["stacks"]
    assert stacks == []
