"""``magnum-lite-all`` from a clean directory with a temporary HOME: the commands it prints
run as printed through the real CLI (only ``--os-cloud magnum-lite``, from the clouds.yaml
it merged), a cluster reaches CREATE_COMPLETE and its stack is listed, delete leaves
nothing; Ctrl-C stops every child, a restart keeps the state, a child killed makes the
command exit 1; no process is left."""

import importlib.util
import os
import re
import shlex
import signal
import subprocess
import time

import pytest
import yaml

from tests.fixtures import cli as cli_mod
from tests.fixtures import logcheck, services

pytestmark = pytest.mark.integration

CHILDREN = ("simcloud-api", "heat-lite-all", "magnum-lite")

# heat-lite's cloud is simcloud once its in-DB simulated cloud is gone (branch cloud-clients):
# only then are a cluster's servers simcloud's, listed by `openstack server list`
HEAT_USES_SIMCLOUD = importlib.util.find_spec("heat_lite.engine.clients.sim") is None


class AllInOne:
    """One magnum-lite-all process, its output, its children's pids and logs."""

    def __init__(self, workdir):
        self.workdir = workdir
        self.home = workdir / "home"
        self.ports = [services.free_port() for _ in range(3)]
        self.out = workdir / "magnum-lite-all.out"
        self.proc = None
        self.sources = []
        self.extra_args = []

    def start(self):
        argv = [services.script("magnum-lite-all")]
        for name, port in zip(("simcloud", "heat", "magnum"), self.ports, strict=True):
            argv += ["--%s-port" % name, str(port)]
        argv += self.extra_args
        env = cli_mod.home_env(self.home)
        with open(self.out, "w") as out:
            self.proc = subprocess.Popen(
                argv, cwd=self.workdir, env=env, stdout=out, stderr=subprocess.STDOUT
            )
        deadline = time.monotonic() + 180
        while "Ctrl-C stops everything" not in self.output():
            assert self.proc.poll() is None, self.output()
            assert time.monotonic() < deadline, "magnum-lite-all did not start:\n" + self.output()
            time.sleep(0.5)
        self.sources = [
            logcheck.watch_file(self.workdir / ".magnum-lite" / "logs" / (n + ".log"), n)
            for n in CHILDREN
        ]

    def output(self):
        return self.out.read_text() if self.out.exists() else ""

    def child_pids(self):
        """name -> pid, as the command printed them."""
        pids = {}
        for name in CHILDREN:
            found = re.findall(r"^  %s +pid (\d+)" % re.escape(name), self.output(), re.M)
            pids[name] = int(found[-1])
        return pids

    def printed_commands(self):
        """The 'First commands to try' of the last start, continuation lines joined."""
        block = self.output().rsplit("First commands to try:", 1)[1]
        block = block.split("\n\n", 1)[0].replace("\\\n", " ")
        return [shlex.split(line) for line in block.splitlines() if line.strip()]

    def wait_exit(self, timeout=60):
        try:
            return self.proc.wait(timeout=timeout)
        finally:
            for source in self.sources:
                logcheck.retire(source)
            self.sources = []

    def kill(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie is not running: /proc says so
    with open("/proc/%d/stat" % pid) as stat:
        return stat.read().split(")")[-1].split()[0] != "Z"


@pytest.fixture(scope="module")
def aio(tmp_path_factory):
    workdir = tmp_path_factory.mktemp("aio")
    aio = AllInOne(workdir)
    clouds = aio.home / ".config" / "openstack" / "clouds.yaml"
    clouds.parent.mkdir(parents=True)
    clouds.write_text(yaml.safe_dump({"clouds": {"other": {"auth": {"auth_url": "http://x"}}}}))
    try:
        aio.start()
        yield aio
    finally:
        pids = []
        try:
            pids = list(aio.child_pids().values())
        except (IndexError, ValueError):
            pass
        aio.kill()
        for pid in pids:
            if alive(pid):
                os.kill(pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def cli(aio):
    """The real CLI with nothing but the temporary HOME (its clouds.yaml)."""
    cli = cli_mod.OpenStackCLI(None, cwd=aio.workdir)
    cli.env = cli_mod.home_env(aio.home)
    return cli


def wait_cluster(cli, name, statuses, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        rows = cli.json("--os-cloud", "magnum-lite", "coe", "cluster", "list")
        found = [c for c in rows if c["name"] == name]
        status = found[0]["status"] if found else None
        if status in statuses:
            return status
        time.sleep(1)
    raise AssertionError("cluster %s never reached %s" % (name, statuses))


def test_clouds_yaml_merged(aio):
    clouds = yaml.safe_load((aio.home / ".config" / "openstack" / "clouds.yaml").read_text())
    assert clouds["clouds"]["other"] == {"auth": {"auth_url": "http://x"}}
    entry = clouds["clouds"]["magnum-lite"]
    assert entry["auth"]["auth_url"] == "http://127.0.0.1:%d/identity" % aio.ports[0]
    assert "magnum-lite:" in aio.output()  # the entry is printed


def test_printed_commands_create_and_delete_a_cluster(aio, cli):
    commands = aio.printed_commands()
    assert all(c[:3] == ["openstack", "--os-cloud", "magnum-lite"] for c in commands)
    by_verb = {" ".join(c[3:6]): c[1:] for c in commands}
    cli(*by_verb["coe cluster template"])
    cli(*by_verb["coe cluster create"])
    assert wait_cluster(cli, "k8s-1", {"CREATE_COMPLETE", "CREATE_FAILED"}) == "CREATE_COMPLETE"
    clusters = cli.json(*by_verb["coe cluster list"])
    assert [c["name"] for c in clusters] == ["k8s-1"]
    stacks = cli.json(*by_verb["stack list"])
    assert [s["Stack Status"] for s in stacks] == ["CREATE_COMPLETE"]
    assert stacks[0]["Stack Name"].startswith("k8s-1-")
    servers = cli.json(*by_verb["server list"])
    if HEAT_USES_SIMCLOUD:
        names = sorted(s["Name"] for s in servers)
        assert len(names) == 3 and all(n.startswith("k8s-1-") for n in names), names
    cli(*by_verb["coe cluster delete"])
    wait_gone(cli)
    assert cli.json("--os-cloud", "magnum-lite", "stack", "list") == []
    assert cli.json("--os-cloud", "magnum-lite", "server", "list") == []


def wait_gone(cli, timeout=120):
    deadline = time.monotonic() + timeout
    while cli.json("--os-cloud", "magnum-lite", "coe", "cluster", "list"):
        assert time.monotonic() < deadline, "cluster k8s-1 was never deleted"
        time.sleep(1)


def test_sigint_stops_everything_and_state_survives_restart(aio, cli):
    # the setup's random secret for private keys at rest, kept across restarts
    key_file = aio.workdir / ".magnum-lite" / "etc" / "x509-encryption.key"
    secret = key_file.read_text()
    assert os.stat(key_file).st_mode & 0o777 == 0o600
    pids = aio.child_pids()
    aio.proc.send_signal(signal.SIGINT)
    assert aio.wait_exit() == 0, aio.output()
    assert not [name for name, pid in pids.items() if alive(pid)]
    aio.start()
    templates = cli.json("--os-cloud", "magnum-lite", "coe", "cluster", "template", "list")
    assert [t["name"] for t in templates] == ["k8s"]
    assert key_file.read_text() == secret


def test_a_dead_child_stops_the_command_non_zero(aio):
    pids = aio.child_pids()
    os.kill(pids["heat-lite-all"], signal.SIGKILL)
    assert aio.wait_exit() == 1
    assert "heat-lite-all (pid %d) exited" % pids["heat-lite-all"] in aio.output()
    assert not [name for name, pid in pids.items() if alive(pid)]


@pytest.fixture
def on_postgres_and_rabbitmq(tmp_path):
    """magnum-lite-all with one config file per program naming PostgreSQL and RabbitMQ
    (heat's notifications on, the conductor listening to them)."""
    with services.isolated_backends() as (heat_db, transport_url):
        created = []
        try:
            urls = {"heat": heat_db}
            for name in ("magnum", "simcloud"):
                db_name, urls[name] = services.create_database()
                created.append(db_name)
            aio = AllInOne(tmp_path)
            extra = {
                "heat": "[oslo_messaging_notifications]\ndriver = messaging\n",
                "magnum": "[heat_notifications]\nenabled = true\n",
                "simcloud": "",
            }
            for name, url in urls.items():
                conf = tmp_path / ("%s-pg.conf" % name)
                transport = "" if name == "simcloud" else "transport_url = %s\n" % transport_url
                conf.write_text(
                    "[DEFAULT]\n%s[database]\nconnection = %s\n%s" % (transport, url, extra[name])
                )
                aio.extra_args += ["--%s-config-file" % name, str(conf)]
            try:
                aio.start()
                yield aio
            finally:
                aio.kill()
        finally:
            for db_name in created:
                services.drop_database(db_name)


def test_same_command_on_postgres_and_rabbitmq(on_postgres_and_rabbitmq):
    aio = on_postgres_and_rabbitmq
    assert not list((aio.workdir / ".magnum-lite").glob("*.sqlite"))
    cli = cli_mod.OpenStackCLI(None, cwd=aio.workdir)
    cli.env = cli_mod.home_env(aio.home)
    cloud = ("--os-cloud", "magnum-lite")
    cli(*cloud, "coe", "cluster", "template", "create", "t", "--coe", "kubernetes",
        "--image", "fedora-coreos-40", "--external-network", "public")  # fmt: skip
    cli(*cloud, "coe", "cluster", "create", "pg-1", "--cluster-template", "t")
    assert wait_cluster(cli, "pg-1", {"CREATE_COMPLETE", "CREATE_FAILED"}) == "CREATE_COMPLETE"
    cli(*cloud, "coe", "cluster", "delete", "pg-1")
    deadline = time.monotonic() + 120
    while cli.json(*cloud, "coe", "cluster", "list"):
        assert time.monotonic() < deadline, "cluster pg-1 was never deleted"
        time.sleep(1)
    aio.proc.send_signal(signal.SIGTERM)
    assert aio.wait_exit() == 0, aio.output()
