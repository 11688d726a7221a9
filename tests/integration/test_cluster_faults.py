"""Faults under a cluster's create and delete (issue 29's acceptance): whatever dies or
races, the cluster and its stack end COMPLETE, FAILED or gone within a bound, and once it
is deleted, magnum's and heat's rows, simcloud's trusts, users and objects are back where
they started.

Real processes in keystone mode (magnum api + conductor, heat api + engine + two workers,
simcloud-api) on PostgreSQL and RabbitMQ. The faults: every backend of the three
databases terminated, a heat worker holding one of the cluster's resources killed -9, the
conductor killed -9, a DELETE at every moment of the create and a template DELETE racing
it (Magnum's 400: the template is in use). A killed conductor's fanout queue expires
60 s after it, as heat-lite's.
"""

import json
import subprocess
import time

import pytest

from tests.fixtures import chaos, clusters, magnum_services

pytestmark = pytest.mark.integration

BOUND = 240  # seconds a cluster may take to end after its fault
LOST_CAST = 10  # [conductor] lost_cast_timeout: a create its conductor took and lost
TRANSIENT = (
    r"Transient database error|terminating connection|server closed the connection"
    r"|connection already closed|AMQP server .* is unreachable|Connection reset"
)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory):
    conf = "\n[conductor]\nlost_cast_timeout = %d\n" % LOST_CAST
    with magnum_services.keystone_deployment(tmp_path_factory, magnum_conf=conf) as (
        heat,
        magnum,
        _demo,
    ):
        yield heat, magnum


@pytest.fixture
def client(deployment):
    return clusters.MagnumClient(*deployment)


@pytest.fixture
def template(client, deployment):
    uuid = client.create_template("faults-%d" % time.monotonic_ns())
    yield uuid
    client("DELETE", "/clustertemplates/" + uuid)


@pytest.fixture
def before(deployment, template):
    heat, magnum = deployment
    return clusters.census(heat, magnum)


@pytest.fixture
def injected(deployment):
    """injected(**settings): simcloud's run-time simulation settings (build_time,
    api_latency...), back to the config file's after the test."""
    heat, _ = deployment
    yield heat.cloud.inject
    heat.cloud.inject()


def _stack_id(client, uuid, timeout=60):
    deadline = time.monotonic() + timeout
    while True:
        cluster = client.show(uuid)  # the stack's id: cluster_id from microversion 1.13
        stack_id = cluster and (cluster.get("cluster_id") or cluster.get("stack_id"))
        if stack_id:
            return stack_id
        assert time.monotonic() < deadline, cluster
        time.sleep(0.05)


def _cut_databases(heat, magnum, times=3, pause=0.3):
    for _ in range(times):
        for url in (heat.database_url, magnum.database_url, heat.cloud.database_url):
            chaos.terminate_db_connections(url)
        time.sleep(pause)


def _restart_conductor(magnum):
    (name,) = [name for name in magnum.procs if name.startswith("magnum-conductor")]
    chaos.kill(magnum, name)
    chaos.restart(magnum, name)


def _ends_and_leaves_nothing(deployment, client, uuid, before):
    heat, magnum = deployment
    client.end(uuid, timeout=BOUND)
    client.delete_and_wait(uuid, timeout=BOUND)
    assert clusters.settled(heat, magnum, before) == before


# -- the create --------------------------------------------------------------------------


@pytest.mark.expect_log_errors(TRANSIENT)
def test_create_survives_cut_database_connections(deployment, client, template, before):
    heat, magnum = deployment
    uuid = client.create_cluster("cut-create", template)
    _stack_id(client, uuid)
    _cut_databases(heat, magnum)
    assert client.wait(uuid, timeout=BOUND)["status"] == "CREATE_COMPLETE"
    _ends_and_leaves_nothing(deployment, client, uuid, before)


@pytest.mark.expect_log_errors(r"Worker went down|engine .* is dead|ResourceFailure")
@pytest.mark.parametrize("identified", [True, False], ids=["made", "first-lock"])
def test_create_with_a_worker_killed_mid_resource(
    deployment, client, template, before, injected, identified
):
    # made: killed while it holds a resource whose object is made and recorded (a server
    # in its BUILD wait, a volume creating); first-lock: killed as soon as it holds any,
    # most often between the cloud's answer to a create and resource_id_set, where the
    # delete finds the object by what singles it out (docs/rpc-and-convergence.md 4.8)
    heat, _ = deployment
    injected(build_time=1.5)
    uuid = client.create_cluster("killed-worker-create", template)
    chaos.kill_a_lock_holder(heat, _stack_id(client, uuid), identified=identified)
    _ends_and_leaves_nothing(deployment, client, uuid, before)


def test_create_with_the_conductor_killed(deployment, client, template, before):
    _, magnum = deployment
    uuid = client.create_cluster("killed-conductor-create", template)
    time.sleep(0.05)  # the conductor has taken the cast: trust, certificates, stack
    _restart_conductor(magnum)
    _ends_and_leaves_nothing(deployment, client, uuid, before)


def test_create_raced_by_its_delete_at_every_moment(deployment, client, template, before):
    # a DELETE before the conductor takes the create, while it makes the trust and the
    # certificates, while it starts the stack, after
    uuids = []
    for i, delay in enumerate((0, 0.01, 0.03, 0.06, 0.1, 0.2, 0.4, 1.0)):
        uuid = client.create_cluster("raced-by-delete-%d" % i, template)
        time.sleep(delay)
        assert client("DELETE", "/clusters/" + uuid).status_code == 204
        uuids.append(uuid)
    for uuid in uuids:
        assert client.wait(uuid, statuses=(), timeout=BOUND) is None
    heat, magnum = deployment
    assert clusters.settled(heat, magnum, before) == before


def test_create_raced_by_its_template_delete(deployment, client, template, before):
    uuid = client.create_cluster("raced-by-template-delete", template)
    time.sleep(0.05)
    answer = client("DELETE", "/clustertemplates/" + template)
    assert answer.status_code == 400, answer.text
    assert answer.json()["errors"][0]["detail"] == (
        "ClusterTemplate %s is referenced by one or multiple clusters." % template
    )
    assert client.wait(uuid, timeout=BOUND)["status"] == "CREATE_COMPLETE"
    _ends_and_leaves_nothing(deployment, client, uuid, before)


def _queue_arguments(transport_url):
    """{queue name: {argument: value}} of the vhost (rabbitmqctl's JSON gives each
    argument as [name, type, value])."""
    vhost = transport_url.rsplit("/", 1)[1]
    out = subprocess.run(
        ["rabbitmqctl", "-q", "list_queues", "-p", vhost, "name", "arguments"]
        + ["--formatter", "json"],
        check=True,
        capture_output=True,
        text=True,
        timeout=60,
    ).stdout
    return {q["name"]: {a[0]: a[2] for a in q["arguments"]} for q in json.loads(out)}


def test_a_killed_conductors_fanout_queue_expires_after_60_s(deployment):
    heat, _ = deployment
    queues = _queue_arguments(heat.transport_url)
    fanout = {n: a for n, a in queues.items() if n.startswith("magnum-conductor_fanout_")}
    assert fanout, sorted(queues)
    for arguments in fanout.values():
        assert arguments["x-expires"] == 60000, arguments


# -- the delete --------------------------------------------------------------------------


def _complete_cluster(client, template, name):
    uuid = client.create_cluster(name, template)
    assert client.wait(uuid, timeout=BOUND)["status"] == "CREATE_COMPLETE"
    return uuid


@pytest.mark.expect_log_errors(TRANSIENT)
def test_delete_survives_cut_database_connections(deployment, client, template, before):
    heat, magnum = deployment
    uuid = _complete_cluster(client, template, "cut-delete")
    assert client("DELETE", "/clusters/" + uuid).status_code == 204
    _cut_databases(heat, magnum)
    assert client.wait(uuid, statuses=(), timeout=BOUND) is None
    _ends_and_leaves_nothing(deployment, client, uuid, before)


@pytest.mark.expect_log_errors(r"Worker went down|engine .* is dead|ResourceFailure")
def test_delete_with_a_worker_killed_mid_resource(deployment, client, template, before, injected):
    heat, _ = deployment
    uuid = _complete_cluster(client, template, "killed-worker-delete")
    stack_id = _stack_id(client, uuid)
    injected(api_latency={"compute": 1.0, "network": 0.3, "load-balancer": 0.5})
    assert client("DELETE", "/clusters/" + uuid).status_code == 204
    chaos.kill_a_lock_holder(heat, stack_id)
    _ends_and_leaves_nothing(deployment, client, uuid, before)


def test_delete_with_the_conductor_killed(deployment, client, template, before):
    _, magnum = deployment
    uuid = _complete_cluster(client, template, "killed-conductor-delete")
    assert client("DELETE", "/clusters/" + uuid).status_code == 204
    time.sleep(0.05)
    _restart_conductor(magnum)
    _ends_and_leaves_nothing(deployment, client, uuid, before)
