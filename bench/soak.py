"""Soak benchmark: N clusters created and deleted, 10 at a time, in keystone mode on the
local PostgreSQL and RabbitMQ (magnum-lite api + conductor, heat-lite api + engine + two
workers, simcloud-api), and what each service holds as it goes.

    python bench/soak.py                  # 1,000 clusters
    python bench/soak.py --clusters 200 --parallel 10

At 0, 10, 25, 50 and 100 % of N it prints, per service process, its RSS, open file
descriptors and TCP connections, then PostgreSQL's connections to the three databases
and the RabbitMQ vhost's queues. A cluster fails when it does not reach CREATE_COMPLETE
or is not gone after its delete; leaked is what the census of rows (magnum, heat),
trusts, users and simulated objects holds at the end beyond what it held at the start.
The last line is

    clusters=N failed=F leaked=L fd_growth=G rss_growth_mb=R

where G and R are the largest growth of any one service between 10 % and 100 % of N.
Target: failed=0 leaked=0, G <= 20, R <= 50 at N = 200 and N = 1,000.
"""

import argparse
import concurrent.futures
import pathlib
import sys
import tempfile
import threading
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import psutil  # noqa: E402

from tests.fixtures import chaos, clusters, magnum_services  # noqa: E402

MILESTONES = (0, 10, 25, 50, 100)
TIMEOUT = 600


class _TmpPaths:
    """What keystone_deployment asks of pytest's tmp_path_factory: mktemp()."""

    def __init__(self, root):
        self.root = pathlib.Path(root)
        self.count = 0

    def mktemp(self, name):
        self.count += 1
        path = self.root / ("%s%d" % (name, self.count))
        path.mkdir(parents=True)
        return path


def _service_procs(heat, magnum):
    procs = {"simcloud-api": heat.cloud.proc}
    for group in (heat.procs, magnum.procs):
        procs.update({name: proc for name, proc in group.items() if proc.poll() is None})
    return procs


def _usage(procs):
    """service -> (RSS MB, open fds, TCP connections)."""
    found = {}
    for name, proc in sorted(procs.items()):
        try:
            p = psutil.Process(proc.pid)
            found[name] = (
                p.memory_info().rss / 2**20,
                p.num_fds(),
                len(p.net_connections(kind="tcp")),
            )
        except psutil.Error:
            found[name] = (0.0, 0, 0)
    return found


def _pg_connections(urls):
    names = [url.rsplit("/", 1)[1] for url in urls]
    sql = "SELECT datname, count(*) FROM pg_stat_activity WHERE datname IN :ids GROUP BY 1"
    rows = chaos.query(urls[0], sql, ids=names)
    return {name: count for name, count in rows}


def _report(done, n, usage, heat, magnum):
    print("-- %d/%d clusters (%d %%)" % (done, n, 100 * done // max(n, 1)), flush=True)
    for name, (rss, fds, tcp) in usage.items():
        print("   %-22s rss=%7.1f MB  fds=%4d  tcp=%4d" % (name, rss, fds, tcp))
    urls = [heat.database_url, magnum.database_url, heat.cloud.database_url]
    queues = chaos.queues(heat.transport_url)
    print("   postgresql connections: %s" % _pg_connections(urls))
    print(
        "   rabbitmq queues: %d (%d without a consumer)"
        % (len(queues), sum(1 for c in queues.values() if not c)),
        flush=True,
    )


def _one_cluster(client, template, i):
    """Create a cluster, wait for it, delete it, wait until it is gone; an error or None."""
    try:
        uuid = client.create_cluster("soak-%d" % i, template)
        cluster = client.wait(uuid, timeout=TIMEOUT)
        client.delete_and_wait(uuid, timeout=TIMEOUT)
        return None if cluster["status"] == "CREATE_COMPLETE" else cluster["status"]
    except Exception as exc:  # noqa: BLE001 - counted and shown, the soak goes on
        return repr(exc)[:200]


def _leaked(before, after):
    total = 0
    for part, counts in before.items():
        later = after[part]
        for key in set(counts) | set(later):
            total += abs(later.get(key, 0) - counts.get(key, 0))
    return total


def soak(n, parallel, root):
    with magnum_services.keystone_deployment(_TmpPaths(root)) as (heat, magnum, _demo):
        client = clusters.MagnumClient(heat, magnum)
        template = client.create_template("soak")
        before = clusters.census(heat, magnum)
        samples = {}
        lock = threading.Lock()
        state = {"done": 0, "failed": 0, "errors": []}

        def sample(done):
            usage = _usage(_service_procs(heat, magnum))
            samples[done] = usage
            _report(done, n, usage, heat, magnum)

        marks = sorted({n * m // 100 for m in MILESTONES})
        sample(0)
        started = time.monotonic()

        def run(i):
            error = _one_cluster(client, template, i)
            with lock:
                state["done"] += 1
                if error is not None:
                    state["failed"] += 1
                    state["errors"].append(error)
                done = state["done"]
                if done in marks and done:
                    sample(done)

        with concurrent.futures.ThreadPoolExecutor(parallel) as pool:
            list(pool.map(run, range(n)))
        elapsed = time.monotonic() - started
        after = clusters.settled(heat, magnum, before)
        leaked = _leaked(before, after)
        if leaked:
            print("   left: before %s\n         after  %s" % (before, after))
        for error in sorted(set(state["errors"]))[:10]:
            print("   failure: %s" % error)
        print("   %d clusters in %.0f s (%.2f clusters/s)" % (n, elapsed, n / elapsed))
        base = samples[n * 10 // 100] if n * 10 // 100 in samples else samples[0]
        last = samples[n]
        fd_growth = max(last[s][1] - base[s][1] for s in last if s in base)
        rss_growth = max(last[s][0] - base[s][0] for s in last if s in base)
        print(
            "clusters=%d failed=%d leaked=%d fd_growth=%d rss_growth_mb=%.0f"
            % (n, state["failed"], leaked, fd_growth, rss_growth)
        )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clusters", type=int, default=1000)
    parser.add_argument("--parallel", type=int, default=10)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as root:
        soak(args.clusters, args.parallel, root)


if __name__ == "__main__":
    main()
