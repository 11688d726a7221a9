"""Chaos benchmark: a worker or engine killed, the broker or the database cut, races of
creates, against real heat-lite processes on the local PostgreSQL and RabbitMQ, each
several times.

    python bench/chaos.py                       # every scenario, 3 runs each
    python bench/chaos.py --runs 1 --only worker_killed,vhost_bounce

A run survives when every stack it made reached COMPLETE or FAILED within its timeout,
could then be deleted, and left no rows behind (and, for the races, the rule the race
tried to break held). One line per scenario, then
``survived=<n>/<total> stranded=<n> leaked_rows=<n>``.

Scenarios: a process killed mid-traversal (worker_killed, delete_stranded); the engine
or the broker or the database away (engine_killed_after_201, sigterm_during_update,
vhost_bounce, db_connections_cut, timeout_no_node_running); a nested stack's delete
(nested_delete); races the database settles (same_name_race, stack_limit_race); Heat's
implicit dependencies (implicit_deps); the cloud's objects through a cut or a kill
(db_cut_cloud_objects, worker_killed_cloud_objects). Every run's delete must also leave
nothing in the simulated cloud (counted in leaked_rows).
"""

import argparse
import concurrent.futures
import json
import pathlib
import sys
import tempfile
import time
import uuid

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import requests  # noqa: E402
from heatclient import client as heat_client  # noqa: E402

from tests.fixtures import chaos, services  # noqa: E402

TIMEOUT = 120


class Run:
    """What one run of a scenario did: its stacks, and whether a rule was broken."""

    def __init__(self, heat, hc):
        self.heat, self.hc = heat, hc
        self.stacks, self.stranded, self.broken = [], 0, []

    def create(self, name, template, **fields):
        stack_id = chaos.create(self.hc, "%s-%s" % (name, uuid.uuid4().hex[:6]), template, **fields)
        self.stacks.append(stack_id)
        return stack_id

    def done(self, stack_id, expect=None, timeout=TIMEOUT):
        state, reason = chaos.wait_done(self.hc, stack_id, timeout)
        if state is None:
            self.stranded += 1
            self.broken.append("%s stranded %s" % (stack_id[:8], reason))
        elif expect is not None and state != expect:
            self.broken.append("%s %s: %s" % (stack_id[:8], state, reason))
        return state

    def finish(self):
        """Delete every stack; (survived, stranded, leaked rows)."""
        for stack_id in self.stacks:
            try:
                state = chaos.delete_and_wait(self.hc, stack_id, TIMEOUT)[0]
            except Exception as exc:  # a stack already gone is fine; anything else is not
                state = "DELETE_COMPLETE" if "404" in str(exc) else "DELETE_ERROR"
            if state is None:
                self.stranded += 1
            if state != "DELETE_COMPLETE":
                self.broken.append("%s delete: %s" % (stack_id[:8], state))
        leaked = sum(chaos.wait_no_leaks(self.heat.database_url, self.stacks).values())
        objects = self.heat.cloud.objects()  # every run's stacks are gone: none is left
        if objects:
            self.broken.append("left in the cloud: %s" % objects)
        leaked += sum(objects.values())
        return not self.broken and not leaked, self.stranded, leaked


# -- scenarios ---------------------------------------------------------------------------


def worker_killed(run):
    stack_id = run.create("killed-worker", chaos.layers_template(3, 4, wait_secs=2))
    chaos.wait_for_lock(run.heat, stack_id, _worker(run.heat))
    chaos.kill(run.heat, _worker(run.heat))
    run.done(stack_id, "CREATE_COMPLETE")


def delete_stranded(run):
    stack_id = run.create("stranded", chaos.layers_template(2, 4, wait_secs=30))
    chaos.wait_for_lock(run.heat, stack_id, _worker(run.heat))
    chaos.kill(run.heat, _worker(run.heat))


def engine_killed_after_201(run):
    stack_id = run.create("killed-engine", chaos.layers_template(3, 10))
    engine = _proc(run.heat, "engine")
    chaos.kill(run.heat, engine)
    chaos.restart(run.heat, engine)
    run.done(stack_id, "CREATE_COMPLETE")


def sigterm_during_update(run):
    stack_id = run.create("sigterm", chaos.layers_template(3, 3))
    run.done(stack_id, "CREATE_COMPLETE")
    template = chaos.layers_template(3, 3, wait_secs=3)
    for rsrc in template["resources"].values():
        rsrc["properties"]["value"] += "-new"
    run.hc.stacks.update(stack_id, template=template)
    time.sleep(2)
    took = chaos.stop_all(run.heat)
    if max(took.values()) > 15:
        run.broken.append("slow stop %s" % took)
    chaos.start_all(run.heat, "r%s" % uuid.uuid4().hex[:4])
    run.done(stack_id, "UPDATE_COMPLETE")


def vhost_bounce(run):
    stack_id = run.create("vhost", chaos.layers_template(4, 4, wait_secs=1))
    time.sleep(1.5)
    chaos.bounce_vhost(run.heat.transport_url)
    run.done(stack_id, "CREATE_COMPLETE")


def db_connections_cut(run):
    stack_id = run.create("db-cut", chaos.layers_template(3, 4, wait_secs=1))
    for _ in range(3):
        time.sleep(0.7)
        chaos.terminate_db_connections(run.heat.database_url)
    run.done(stack_id, "CREATE_COMPLETE")


def db_cut_cloud_objects(run):
    """Every backend of heat's and simcloud's databases cut, again and again, while a
    stack makes cloud objects (servers in BUILD) and while it deletes them: its state
    writes, fast path included, are retried; it completes, it is deleted, and nothing is
    left in the cloud."""
    run.heat.cloud.inject(build_time=1.0)
    stack_id = run.create("db-cut-cloud", chaos.cloud_template())
    _cut_heat_and_cloud(run.heat)
    if run.done(stack_id, "CREATE_COMPLETE") is None:
        return
    run.hc.stacks.delete(stack_id)
    _cut_heat_and_cloud(run.heat)
    run.done(stack_id, "DELETE_COMPLETE")


def _cut_heat_and_cloud(heat, times=6, pause=0.3):
    for _ in range(times):
        time.sleep(pause)
        chaos.terminate_db_connections(heat.database_url)
        chaos.terminate_db_connections(heat.cloud.database_url)


def worker_killed_cloud_objects(run):
    """kill -9 of the worker making the server (in BUILD) or the security group and its
    rules: the object it made is found by the takeover and by the delete, not left."""
    run.heat.cloud.inject(build_time=2.0)
    stack_id = run.create("killed-worker-cloud", chaos.cloud_template())
    chaos.kill_a_lock_holder(run.heat, stack_id, names=("server", "secgroup"))
    run.done(stack_id)


def timeout_no_node_running(run):
    stack_id = run.create("timeout", chaos.layers_template(2, 2, wait_secs=60), timeout_mins=1)
    chaos.wait_for_lock(run.heat, stack_id, _worker(run.heat))
    for name in [n for n in run.heat.procs if n.startswith("worker")]:
        chaos.kill(run.heat, name)
    chaos.shift_stack_clock(run.heat.database_url, stack_id, 120)
    if run.done(stack_id, "CREATE_FAILED", timeout=30) == "CREATE_FAILED":
        if chaos.status(run.hc, stack_id)[1] != "Timed out":
            run.broken.append("reason %s" % (chaos.status(run.hc, stack_id),))
    revive(run.heat)


def nested_delete(run):
    group = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "a": {
                "type": "OS::Heat::ResourceGroup",
                "properties": {"count": 2, "resource_def": {"type": "OS::Heat::None"}},
            }
        },
    }
    run.done(run.create("nested", group), "CREATE_COMPLETE")


def same_name_race(run):
    """20 parallel creates of one name in one project: one live stack."""
    name = "race-%s" % uuid.uuid4().hex[:6]
    ids = _parallel_creates(run, [name] * 20, "p-%s" % uuid.uuid4().hex[:6])
    live = [i for i in ids if i is not None]
    if len(live) != 1:
        run.broken.append("%d live stacks named %s" % (len(live), name))


def stack_limit_race(run):
    """20 parallel creates with max_stacks_per_tenant=3 (set for this scenario)."""
    names = ["limit-%d-%s" % (i, uuid.uuid4().hex[:4]) for i in range(20)]
    ids = _parallel_creates(run, names, "p-%s" % uuid.uuid4().hex[:6])
    live = [i for i in ids if i is not None]
    if len(live) > 3:
        run.broken.append("%d stacks over a limit of 3" % len(live))


def implicit_deps(run):
    """net + subnet + server on {network: net}: the delete needs the server gone before
    the subnet (Heat's implicit dependencies)."""
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "net": {"type": "OS::Neutron::Net"},
            "sub": {
                "type": "OS::Neutron::Subnet",
                "properties": {"network": {"get_resource": "net"}, "cidr": "10.9.0.0/24"},
            },
            "server": {
                "type": "OS::Nova::Server",
                "properties": {
                    "image": "cirros-0.6.2",
                    "flavor": "m1.tiny",
                    "networks": [{"network": {"get_resource": "net"}}],
                },
            },
        },
    }
    for _ in range(3):
        run.done(run.create("deps", template), "CREATE_COMPLETE")


SCENARIOS = {
    "worker_killed": (worker_killed, {}),
    "delete_stranded": (delete_stranded, {}),
    "engine_killed_after_201": (engine_killed_after_201, {}),
    "sigterm_during_update": (sigterm_during_update, {}),
    "vhost_bounce": (vhost_bounce, {}),
    "db_connections_cut": (db_connections_cut, {}),
    "timeout_no_node_running": (timeout_no_node_running, {}),
    "db_cut_cloud_objects": (db_cut_cloud_objects, {}),
    "worker_killed_cloud_objects": (worker_killed_cloud_objects, {}),
    "nested_delete": (nested_delete, {}),
    "same_name_race": (same_name_race, {}),
    "stack_limit_race": (stack_limit_race, {"max_stacks_per_tenant": 3}),
    "implicit_deps": (implicit_deps, {}),
}


# -- helpers -----------------------------------------------------------------------------


def _proc(heat, prefix):
    return next(n for n, p in heat.procs.items() if n.startswith(prefix) and p.poll() is None)


def _worker(heat):
    return _proc(heat, "worker")


def revive(heat):
    """Start again every process a fault stopped."""
    for name, proc in list(heat.procs.items()):
        if proc.poll() is not None:
            chaos.restart(heat, name)


def _parallel_creates(run, names, project):
    """Create stacks of those names at once as a member of ``project``; their ids (None
    for a refused create). Every created stack joins the run (the admin client of the
    run watches and deletes them)."""
    url = run.heat.endpoint.rsplit("/", 1)[0] + "/" + project + "/stacks"
    headers = {
        "X-Project-Id": project,
        "X-User-Id": "u-" + project,
        "X-Roles": "member",
        "Content-Type": "application/json",
    }
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"a": {"type": "OS::Heat::None"}},
    }

    def create(name):
        body = json.dumps({"stack_name": name, "template": template})
        resp = requests.post(url, data=body, headers=headers, timeout=60)
        return resp.json()["stack"]["id"] if resp.status_code == 201 else None

    with concurrent.futures.ThreadPoolExecutor(len(names)) as pool:
        ids = list(pool.map(create, names))
    for stack_id in ids:
        if stack_id is not None:
            run.stacks.append(stack_id)
            run.done(stack_id)
    return ids


def run_scenario(name, runs, workdir):
    func, defaults = SCENARIOS[name]
    totals = [0, 0, 0]
    notes = []
    with services.isolated_backends() as (db_url, transport_url):
        heat = chaos.fault_tolerant_processes(
            workdir / name, db_url, transport_url, defaults=defaults
        )
        heat.transport_url = transport_url
        try:
            heat.start()
            hc = heat_client.Client("1", endpoint=heat.endpoint, token="notused")
            for _ in range(runs):
                run = Run(heat, hc)
                try:
                    func(run)
                except Exception as exc:
                    run.broken.append("error %r" % exc)
                revive(heat)
                heat.cloud.inject()
                survived, stranded, leaked = run.finish()
                totals[0] += survived
                totals[1] += stranded
                totals[2] += leaked
                notes.extend(run.broken)
        finally:
            heat.stop()
    line = "scenario=%s survived=%d/%d stranded=%d leaked_rows=%d" % (
        name,
        totals[0],
        runs,
        totals[1],
        totals[2],
    )
    if notes:
        line += "  # " + "; ".join(sorted(set(notes)))[:300]
    print(line, flush=True)
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--only", default="", help="comma-separated scenario names")
    args = parser.parse_args()
    names = [n for n in args.only.split(",") if n] or list(SCENARIOS)
    survived = stranded = leaked = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in names:
            s, st, lk = run_scenario(name, args.runs, pathlib.Path(tmp))
            survived, stranded, leaked = survived + s, stranded + st, leaked + lk
    print(
        "survived=%d/%d stranded=%d leaked_rows=%d"
        % (survived, args.runs * len(names), stranded, leaked)
    )


if __name__ == "__main__":
    main()
