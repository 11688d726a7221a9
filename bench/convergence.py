"""Convergence benchmark: real heat-lite processes on the local PostgreSQL and RabbitMQ.

    python bench/convergence.py --n 1000 --shape wide --workers 2
    python bench/convergence.py            # the table: N = 10, 100, 1000 x shapes x 1, 2 workers

Creates a stack of N OS::Heat::None resources through the API (python-heatclient), waits
for CREATE_COMPLETE, deletes it and waits for DELETE_COMPLETE. Shapes: ``wide`` (no
dependencies), ``chain`` (each depends on the one before), ``layers`` (10 layers of N/10,
each resource depending on ALL of the layer before: full fan-in on every sync point).
The line before the last (one run) is ``cpu_s: api=.. engine=.. worker0=.. total=..``, the
CPU seconds each service used for the create and delete (bench/cpu.py); the last line
printed is ``create_s=<s> delete_s=<s> rps=<resources per second>``.
"""

import argparse
import contextlib
import pathlib
import sys
import tempfile
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from heatclient import client as heat_client  # noqa: E402

from bench import cpu, polling  # noqa: E402
from tests.fixtures import services  # noqa: E402

# 1000 layers lists 100 depends_on names per resource: 850 KB, over Heat's default
# max_template_size (512 KB), so the benchmark's services allow larger templates.
BENCH_DEFAULTS = {"max_template_size": 4194304, "max_json_body_size": 8388608}


def template(n, shape):
    resources = {}
    if shape == "wide":
        for i in range(n):
            resources["r%d" % i] = {"type": "OS::Heat::None"}
    elif shape == "chain":
        for i in range(n):
            resources["r%d" % i] = {"type": "OS::Heat::None"}
            if i:
                resources["r%d" % i]["depends_on"] = ["r%d" % (i - 1)]
    elif shape == "layers":
        width = max(1, n // 10)
        for layer in range(10):
            for i in range(width):
                rsrc = {"type": "OS::Heat::None"}
                if layer:
                    rsrc["depends_on"] = ["l%d_%d" % (layer - 1, j) for j in range(width)]
                resources["l%d_%d" % (layer, i)] = rsrc
    else:
        raise ValueError(shape)
    return {"heat_template_version": "2018-08-31", "resources": resources}


def wait(hc, stack_ref, done, timeout):
    """Poll ``stack_ref`` (``name/id``: one request, where an id alone is redirected to
    it, a second request and engine call each poll) until its status is in ``done``."""
    start = time.monotonic()
    while time.monotonic() < start + timeout:
        status = hc.stacks.get(stack_ref, resolve_outputs=False).stack_status
        if status in done:
            return status
        time.sleep(polling.pause(time.monotonic() - start))
    raise RuntimeError("timed out waiting for %s" % done)


def run_one(hc, n, shape, timeout=600):
    tmpl = template(n, shape)
    count = len(tmpl["resources"])
    name = "bench-%s-%d" % (shape, n)
    start = time.monotonic()
    stack_id = hc.stacks.create(stack_name=name, template=tmpl, timeout_mins=60)["stack"]["id"]
    status = wait(hc, "%s/%s" % (name, stack_id), {"CREATE_COMPLETE", "CREATE_FAILED"}, timeout)
    create_s = time.monotonic() - start
    if status != "CREATE_COMPLETE":
        raise RuntimeError("create ended %s" % status)
    start = time.monotonic()
    hc.stacks.delete(stack_id)
    status = wait(hc, "%s/%s" % (name, stack_id), {"DELETE_COMPLETE", "DELETE_FAILED"}, timeout)
    delete_s = time.monotonic() - start
    if status != "DELETE_COMPLETE":
        raise RuntimeError("delete ended %s" % status)
    return count, create_s, delete_s


@contextlib.contextmanager
def running(workers, defaults=None):
    """Started HeatProcesses (BENCH_DEFAULTS, then ``defaults``) on fresh backends."""
    services.use_default_pools()
    with (
        services.isolated_backends() as (db_url, transport_url),
        tempfile.TemporaryDirectory() as workdir,
    ):
        heat = services.HeatProcesses(
            workdir,
            db_url,
            transport_url,
            workers=workers,
            defaults=dict(BENCH_DEFAULTS, **(defaults or {})),
        )
        heat.start()
        try:
            yield heat
        finally:
            heat.stop()


def client(heat):
    return heat_client.Client("1", endpoint=heat.endpoint, token="bench")


def with_services(workers, body):
    with running(workers) as heat:
        return body(client(heat))


def measured_one(n, shape, workers, profile_dir=None):
    """run_one on fresh services; also the CPU seconds each service used meanwhile (and
    py-spy's record of each into ``profile_dir``)."""
    with running(workers) as heat:
        procs = cpu.heat_procs(heat)
        meter = cpu.Meter(procs)
        profiler = cpu.Profiler(procs, profile_dir)
        try:
            result = run_one(client(heat), n, shape)
        finally:
            profiler.stop()
        return result, meter.lap()


def line(count, create_s, delete_s):
    return "create_s=%.2f delete_s=%.2f rps=%.1f" % (create_s, delete_s, count / create_s)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int)
    parser.add_argument("--shape", choices=["wide", "chain", "layers"])
    parser.add_argument("--workers", type=int)
    parser.add_argument("--py-spy", dest="profile_dir", help="py-spy every service into DIR")
    args = parser.parse_args()
    if args.n or args.shape or args.workers:
        n, shape, workers = args.n or 100, args.shape or "wide", args.workers or 2
        (count, create_s, delete_s), used = measured_one(n, shape, workers, args.profile_dir)
        print("n=%d shape=%s workers=%d" % (count, shape, workers))
        print("cpu_s: " + cpu.line(used))
        print(line(count, create_s, delete_s))
        return
    totals = [0, 0.0, 0.0]
    for workers in (1, 2):

        def table(hc, workers=workers):
            for n in (10, 100, 1000):
                for shape in ("wide", "chain", "layers"):
                    count, create_s, delete_s = run_one(hc, n, shape)
                    print(
                        "n=%-5d shape=%-6s workers=%d  %s"
                        % (count, shape, workers, line(count, create_s, delete_s)),
                        flush=True,
                    )
                    totals[0] += count
                    totals[1] += create_s
                    totals[2] += delete_s

        with_services(workers, table)
    print(line(*totals))


if __name__ == "__main__":
    main()
