"""The Magnum k8s template tree's create time on the simulated cloud, real processes.

    python bench/k8s_templates.py                  # this tree: N creates, their times
    python bench/k8s_templates.py --compare main   # the same, side by side with a git ref

Each run starts heat-lite (api, engine, two workers) on a fresh PostgreSQL database and
RabbitMQ vhost - and, where the tree has it, the simcloud-api its client plugins call -
creates the tree of magnum-lite's k8s driver (the environments Magnum's driver selects),
times it from the POST to the engine's announcement of CREATE_COMPLETE (Heat's
notifications, bench/stack_events.py: no polling), checks the API agrees, and deletes it.
``--compare REF`` exports REF (``git archive``) to a temporary directory and runs this
script there too, with the same interpreter and packages, so both trees are measured in
one run on the same machine.
``--py-spy DIR`` profiles every service over all creates but the first.
The last line printed is ``create_s=<mean> [ref_create_s=<mean> ratio=<x>]``.
"""

import argparse
import os
import pathlib
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from heatclient import client as heat_client  # noqa: E402

from bench import cpu, stack_events  # noqa: E402
from tests.fixtures import magnum_services, services  # noqa: E402
from tests.integration import helpers  # noqa: E402
from tests.integration import test_magnum_k8s_templates as k8s  # noqa: E402


def create_once(hc, ends, name):
    """Seconds from the create request to the engine's announcement of CREATE_COMPLETE
    (which the API must then report); the stack is deleted after, likewise. The client
    reads the tree's files (heatclient's template_utils, 20-45 ms) before the clock starts."""
    fields = k8s._fields()
    start = time.monotonic()
    stack_id = hc.stacks.create(stack_name=name, timeout_mins=60, **fields)["stack"]["id"]
    event_type, ended = ends.wait(stack_id, "create", timeout=120)
    elapsed = ended - start
    stack = hc.stacks.get(stack_id)
    if stack.stack_status != "CREATE_COMPLETE":
        raise RuntimeError("%s: %s" % (event_type, stack.stack_status_reason))
    hc.stacks.delete(stack_id)
    ends.wait(stack_id, "delete", timeout=120)
    helpers.wait_for(hc, stack_id, "DELETE_COMPLETE")
    return elapsed


def measure(runs, profile_dir=None):
    services.use_default_pools()
    times = []
    with services.isolated_backends() as (db_url, transport_url):
        with tempfile.TemporaryDirectory() as tmp:
            procs = magnum_services.heat_for_magnum(tmp, db_url, transport_url)
            profiler = None
            procs.start()
            try:
                hc = heat_client.Client("1", endpoint=procs.endpoint, token="bench")
                meter = cpu.Meter(cpu.heat_procs(procs))
                with stack_events.StackEnds(transport_url) as ends:
                    for i in range(runs):
                        if i == 1:  # the first create warms the services: profile the others
                            profiler = cpu.Profiler(cpu.heat_procs(procs), profile_dir)
                        times.append(create_once(hc, ends, "k8s-%d" % i))
                        print(
                            "create %d: %.2f s (create+delete cpu_s: %s)"
                            % (i, times[-1], cpu.line(meter.lap())),
                            flush=True,
                        )
            finally:
                if profiler is not None:
                    profiler.stop()
                procs.stop()
    return times


def run_ref(ref, runs):
    """This script's result on git ref ``ref`` (exported to a temporary directory)."""
    with tempfile.TemporaryDirectory() as tmp:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], capture_output=True)
        archive.check_returncode()
        subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
        script = pathlib.Path(tmp) / "bench" / "k8s_templates.py"
        if not script.exists():  # the ref predates this benchmark: use this one
            script.parent.mkdir(exist_ok=True)
            script.write_text(pathlib.Path(__file__).read_text())
        env = dict(os.environ, PYTHONPATH=tmp)
        out = subprocess.run(
            [sys.executable, str(script), "--runs", str(runs)],
            env=env,
            cwd=tmp,
            capture_output=True,
            text=True,
        )
        if out.returncode != 0:
            raise RuntimeError("%s run failed:\n%s%s" % (ref, out.stdout, out.stderr))
        print("".join("[%s] %s\n" % (ref, line) for line in out.stdout.splitlines()), end="")
        return float(out.stdout.strip().splitlines()[-1].split("create_s=")[1].split()[0])


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--compare", metavar="REF", help="also measure this git ref")
    parser.add_argument(
        "--py-spy", dest="profile_dir", help="py-spy every service (all runs but the first)"
    )
    args = parser.parse_args()
    ref_mean = run_ref(args.compare, args.runs) if args.compare else None
    mean = statistics.mean(measure(args.runs, args.profile_dir))
    if ref_mean is None:
        print("create_s=%.2f" % mean)
    else:
        print("create_s=%.2f ref_create_s=%.2f ratio=%.2f" % (mean, ref_mean, mean / ref_mean))


if __name__ == "__main__":
    main()
