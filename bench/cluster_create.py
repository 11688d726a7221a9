"""Cluster create benchmark: magnum-lite and heat-lite as real processes (API, conductor,
heat API, engine, two workers) on the local PostgreSQL and RabbitMQ.

    python bench/cluster_create.py --clusters 10

Creates one cluster template, then K clusters (1 master, 1 node, master LB) at once through
python-magnumclient (POST /v1/clusters), and polls the API until each reports
CREATE_COMPLETE. Prints each cluster's seconds from its POST to CREATE_COMPLETE as the
API reports it; the last line is ``create_s=<seconds until all K are CREATE_COMPLETE>``.
``--py-spy DIR`` samples every service from the first POST until all are complete
(DIR/<service>.txt, collapsed stacks of the GIL-holding threads). Status reaches magnum
from Heat's notifications (and the periodic sync every ``--sync-interval`` seconds as
the safety net).
"""

import argparse
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from magnumclient import client as magnum_client  # noqa: E402

from bench import cpu, polling  # noqa: E402
from tests.fixtures import magnum_services, services  # noqa: E402


def create_clusters(mc, count):
    started = {}
    for i in range(count):
        t0 = time.monotonic()
        try:
            uuid = mc.clusters.create(
                name="bench-%d" % i, cluster_template_id="bench-ct", node_count=1, master_count=1
            ).uuid
        except Exception as err:
            raise RuntimeError(
                "POST /v1/clusters failed: %s %s" % (err, getattr(err, "details", ""))
            )
        started[uuid] = t0
    return started


def wait_complete(mc, started, timeout):
    done = {}
    start = time.monotonic()
    deadline = start + timeout
    while len(done) < len(started) and time.monotonic() < deadline:
        for cluster in mc.clusters.list():
            if cluster.uuid in started and cluster.uuid not in done:
                if cluster.status == "CREATE_COMPLETE":
                    done[cluster.uuid] = time.monotonic() - started[cluster.uuid]
                elif cluster.status == "CREATE_FAILED":
                    raise RuntimeError("cluster %s failed" % cluster.uuid)
        time.sleep(polling.pause(time.monotonic() - start))
    if len(done) < len(started):
        raise RuntimeError("only %d of %d clusters completed" % (len(done), len(started)))
    return done


def run(count, sync_interval, timeout, logs=None, profile_dir=None):
    services.use_default_pools()
    with tempfile.TemporaryDirectory() as tmp, services.isolated_backends() as backends:
        tmp = logs or tmp
        heat_db, transport_url = backends
        heat = magnum_services.heat_for_magnum(pathlib.Path(tmp) / "heat", heat_db, transport_url)
        heat.start()
        try:
            with magnum_services.magnum_database() as magnum_db:
                magnum = magnum_services.MagnumProcesses(
                    pathlib.Path(tmp) / "magnum",
                    magnum_db,
                    transport_url,
                    heat,
                    sync_interval=sync_interval,
                )
                magnum.start()
                try:
                    mc = magnum_client.Client(
                        "1",
                        endpoint_override=magnum.endpoint,
                        auth_token="bench",
                        api_version="latest",
                    )
                    mc.cluster_templates.create(
                        name="bench-ct",
                        coe="kubernetes",
                        image_id="fedora-coreos-40",
                        external_network_id="public",
                        flavor_id="m1.small",
                        master_flavor_id="m1.medium",
                        master_lb_enabled=True,
                    )
                    procs = dict(cpu.heat_procs(heat), **magnum.procs)
                    print("start-up settled after %.1f s" % cpu.settle(procs))
                    meter = cpu.Meter(procs)
                    profiler = cpu.Profiler(procs, profile_dir)
                    t0 = time.monotonic()
                    try:
                        done = wait_complete(mc, create_clusters(mc, count), timeout)
                    finally:
                        elapsed = time.monotonic() - t0
                        profiler.stop()
                    print("cpu_s: %s" % cpu.line(meter.lap()))
                    return done, elapsed
                finally:
                    magnum.stop()
        finally:
            heat.stop()


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clusters", type=int, default=1)
    parser.add_argument("--sync-interval", type=int, default=10)
    parser.add_argument("--timeout", type=float, default=300)
    parser.add_argument("--logs", help="keep the services' logs in this directory")
    parser.add_argument("--py-spy", dest="profile_dir", help="py-spy every service into DIR")
    args = parser.parse_args(argv)
    done, total = run(args.clusters, args.sync_interval, args.timeout, args.logs, args.profile_dir)
    for i, seconds in enumerate(sorted(done.values())):
        print("cluster %d: %.2f s" % (i, seconds))
    print("create_s=%.2f" % total)


if __name__ == "__main__":
    main()
