"""Many stacks at once: real heat-lite processes (API, engine, 2 workers) on the local
PostgreSQL and RabbitMQ.

    python bench/many_stacks.py                      # 100 stacks x 50 resources, 20 clients
    python bench/many_stacks.py --stacks 20 --resources 10 --clients 5

``--clients`` threads (each its own python-heatclient) POST the stacks at once; the main
thread follows them with one stack list a poll until every one is CREATE_COMPLETE (a
FAILED one stops the bench). Then the same clients DELETE them all and the list is
followed until none is left. Afterwards the database must hold none of their rows
(live stack rows, resources, sync points, stack locks: tests/fixtures/chaos.leaks) and no
service may have logged an ERROR or a traceback. Events stay, as in Heat (its
purge_deleted removes them with the soft-deleted stack rows); their count is printed.
The last line is ``create_s=<s> delete_s=<s> stacks=<n> resources=<n> leaked_rows=<n>``.
"""

import argparse
import concurrent.futures
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench import convergence  # noqa: E402
from tests.fixtures import chaos  # noqa: E402

POLL_S = 0.1


def template(resources):
    return convergence.template(resources, "wide")


def statuses(hc, prefix):
    """{stack id: stack_status} of the listed stacks whose name starts with ``prefix``."""
    return {s.id: s.stack_status for s in hc.stacks.list() if s.stack_name.startswith(prefix)}


def follow(hc, prefix, until, timeout):
    """Poll the stack list until ``until(statuses)`` is true; the last statuses."""
    deadline = time.monotonic() + timeout
    while True:
        found = statuses(hc, prefix)
        failed = {i: s for i, s in found.items() if s.endswith("_FAILED")}
        if failed:
            raise RuntimeError("%d stacks failed: %s" % (len(failed), sorted(failed.items())[:3]))
        if until(found):
            return found
        if time.monotonic() > deadline:
            raise RuntimeError("timed out: %s" % sorted(set(found.values())))
        time.sleep(POLL_S)


def on_clients(heat, clients, jobs):
    """Run ``jobs`` (callables taking a heat client) on ``clients`` threads, one client each."""
    pool = [convergence.client(heat) for _ in range(clients)]
    with concurrent.futures.ThreadPoolExecutor(clients) as executor:
        futures = [executor.submit(job, pool[i % clients]) for i, job in enumerate(jobs)]
        return [f.result() for f in futures]


def event_rows(heat, stack_ids):
    rows = chaos.query(
        heat.database_url, "SELECT count(*) FROM event WHERE stack_id IN :ids", ids=stack_ids
    )
    return rows[0][0]


def run(heat, stacks, resources, clients, timeout):
    hc = convergence.client(heat)
    prefix = "many-"
    tmpl = template(resources)

    def create(i):
        return lambda c: c.stacks.create(
            stack_name="%s%03d" % (prefix, i), template=tmpl, timeout_mins=60
        )["stack"]["id"]

    start = time.monotonic()
    ids = on_clients(heat, clients, [create(i) for i in range(stacks)])
    posted_s = time.monotonic() - start
    follow(
        hc,
        prefix,
        lambda found: len(found) == stacks and all(s == "CREATE_COMPLETE" for s in found.values()),
        timeout,
    )
    create_s = time.monotonic() - start

    start = time.monotonic()
    on_clients(heat, clients, [lambda c, i=i: c.stacks.delete(i) for i in ids])
    follow(hc, prefix, lambda found: not found, timeout)
    delete_s = time.monotonic() - start
    leaks = chaos.wait_no_leaks(heat.database_url, ids)
    return {
        "posted_s": posted_s,
        "create_s": create_s,
        "delete_s": delete_s,
        "leaks": leaks,
        "events": event_rows(heat, ids),
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stacks", type=int, default=100)
    parser.add_argument("--resources", type=int, default=50)
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=600)
    args = parser.parse_args()
    with convergence.running(args.workers) as heat:
        figures = run(heat, args.stacks, args.resources, args.clients, args.timeout)
        problems = heat.log_problems()
        rss = heat.peak_rss_mb()
    print("all %d POSTs answered in %.2f s" % (args.stacks, figures["posted_s"]))
    print("peak RSS MB: %s" % " ".join("%s=%.0f" % item for item in sorted(rss.items())))
    print(
        "leaks: %s; event rows kept (as Heat): %d" % (figures["leaks"] or "none", figures["events"])
    )
    for name, found in sorted(problems.items()):
        print("%s logged %d problems, first:\n%s" % (name, len(found), found[0]))
    print(
        "create_s=%.2f delete_s=%.2f stacks=%d resources=%d leaked_rows=%d log_problems=%d"
        % (
            figures["create_s"],
            figures["delete_s"],
            args.stacks,
            args.stacks * args.resources,
            sum(figures["leaks"].values()),
            sum(len(f) for f in problems.values()),
        )
    )


if __name__ == "__main__":
    main()
