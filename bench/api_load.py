"""The API under load: real heat-lite processes (API, engine, 2 workers) on the local
PostgreSQL and RabbitMQ, polled as Magnum's conductor polls them.

    python bench/api_load.py                         # 1,000 resources, 10 clients, 20 s
    python bench/api_load.py --resources 100 --clients 4 --seconds 5 --stacks 20

Creates ``--stacks`` small stacks (the others a conductor lists beside its own) and one
stack of ``--resources`` OS::Heat::None resources with outputs, waits for
CREATE_COMPLETE, then ``--clients`` threads poll for ``--seconds``, each in turn:
stack list filtered by id (the periodic sync's ``stacks.list(filters={'id': ...})``;
Magnum asks with global_tenant, which Heat's default policy denies), stack show
(HeatPoller's ``stacks.get``) and the resource list (the node groups' resources). One
line per call with p50 and p99 in ms and the calls made; the last line is
``list_p99_ms=<> show_p99_ms=<> resources_p99_ms=<>``.

``--py-spy DIR`` samples the API and the engine while the clients poll (py-spy, if
installed beside this interpreter): DIR/api.txt and DIR/engine.txt, collapsed stacks.
"""

import argparse
import concurrent.futures
import os
import pathlib
import statistics
import subprocess
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

import requests  # noqa: E402

from bench import convergence, cpu  # noqa: E402
from tests.fixtures import services  # noqa: E402

CALLS = ("list", "show", "resources")


def big_template(resources):
    tmpl = convergence.template(resources, "wide")
    tmpl["outputs"] = {
        "first": {"value": {"get_resource": "r0"}},
        "last": {"value": {"get_resource": "r%d" % (resources - 1)}},
        "all": {"value": {"list_join": [",", [{"get_resource": "r%d" % i} for i in range(10)]]}},
    }
    return tmpl


def create_and_wait(hc, name, tmpl):
    stack_id = hc.stacks.create(stack_name=name, template=tmpl, timeout_mins=60)["stack"]["id"]
    if convergence.wait(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"}, 600) != (
        "CREATE_COMPLETE"
    ):
        raise RuntimeError("%s did not complete" % name)
    return stack_id


def urls(endpoint, stack_id, name):
    stack = "%s/stacks/%s/%s" % (endpoint, name, stack_id)
    return {
        "list": "%s/stacks?id=%s" % (endpoint, stack_id),
        "show": stack,
        "resources": stack + "/resources",
    }


def poll(targets, seconds):
    """One conductor: the three calls in turn until ``seconds`` have passed; the seconds
    each call took, by call."""
    session = requests.Session()
    session.headers["X-Auth-Token"] = "bench"
    mine = {call: [] for call in CALLS}
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for call in CALLS:
            start = time.perf_counter()
            response = session.get(targets[call], timeout=60)
            mine[call].append(time.perf_counter() - start)
            if response.status_code != 200:
                raise RuntimeError("%s: %s %s" % (call, response.status_code, response.text))
    return mine


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def sample(heat, seconds, out_dir):
    """py-spy record processes ``api`` and ``engine`` for ``seconds``; the Popen objects."""
    if not out_dir:
        return []
    pathlib.Path(out_dir).mkdir(parents=True, exist_ok=True)
    return [
        subprocess.Popen(
            [
                services.script("py-spy"),
                "record",
                "--gil",  # the samples of the thread holding the GIL: near CPU time
                "--format",
                "raw",
                "--duration",
                str(int(seconds)),
                "--pid",
                str(heat.procs[name].pid),
                "-o",
                str(pathlib.Path(out_dir) / ("%s.txt" % name)),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        for name in ("api", "engine")
    ]


def measure(heat, resources, clients, seconds, stacks, profile_dir=None):
    hc = convergence.client(heat)
    for i in range(stacks):
        create_and_wait(hc, "other-%02d" % i, convergence.template(5, "wide"))
    stack_id = create_and_wait(hc, "big", big_template(resources))
    targets = urls(heat.endpoint, stack_id, "big")
    times = {call: [] for call in CALLS}
    samplers = sample(heat, seconds, profile_dir)
    meter = cpu.Meter(cpu.heat_procs(heat))
    # a process per client, as each conductor is one: client threads of one process would
    # queue for its GIL, adding their own wait to the times measured
    with concurrent.futures.ProcessPoolExecutor(clients) as pool:
        for future in [pool.submit(poll, targets, seconds) for _ in range(clients)]:
            for call, values in future.result().items():
                times[call].extend(values)
    used = meter.lap()
    for sampler in samplers:
        sampler.wait()
    figures = {
        call: (
            percentile(values, 0.5) * 1000,
            percentile(values, 0.99) * 1000,
            statistics.mean(values) * 1000,
            len(values),
        )
        for call, values in times.items()
    }
    return figures, used


def cpu_line(used, calls):
    """CPU milliseconds per call of the API and the engine (all three calls together)."""
    return "cpu_s %s calls=%d api_cpu_ms_per_call=%.2f engine_cpu_ms_per_call=%.2f load=%.1f" % (
        cpu.line(used),
        calls,
        1000 * used.get("api", 0.0) / max(calls, 1),
        1000 * used.get("engine", 0.0) / max(calls, 1),
        os.getloadavg()[0],
    )


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--resources", type=int, default=1000)
    parser.add_argument("--clients", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--stacks", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--py-spy", dest="profile_dir")
    args = parser.parse_args()
    with convergence.running(args.workers) as heat:
        figures, used = measure(
            heat, args.resources, args.clients, args.seconds, args.stacks, args.profile_dir
        )
        problems = heat.log_problems()
    for call, (p50, p99, mean, count) in figures.items():
        print("%-9s p50_ms=%.1f p99_ms=%.1f mean_ms=%.1f calls=%d" % (call, p50, p99, mean, count))
    print(cpu_line(used, sum(figures[call][3] for call in CALLS)))
    for name, found in sorted(problems.items()):
        print("%s logged %d problems, first:\n%s" % (name, len(found), found[0]))
    print(
        "list_p99_ms=%.1f show_p99_ms=%.1f resources_p99_ms=%.1f"
        % tuple(figures[call][1] for call in CALLS)
    )


if __name__ == "__main__":
    main()
