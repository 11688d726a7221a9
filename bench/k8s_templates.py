"""The Magnum k8s template tree's create time on the simulated cloud, real processes.

    python bench/k8s_templates.py                  # this tree: N creates, their times
    python bench/k8s_templates.py --compare main   # the same, side by side with a git ref

Each run starts heat-lite (api, engine, two workers) on a fresh PostgreSQL database and
RabbitMQ vhost - and, where the tree has it, the simcloud-api its client plugins call -
creates the tree of tests/integration/templates/magnum_k8s (the environments Magnum's
driver selects), waits for CREATE_COMPLETE and deletes it. ``--compare REF`` exports REF
(``git archive``) to a temporary directory and runs this script there too, with the same
interpreter and packages, so both trees are measured in one run on the same machine.
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

from bench import cpu  # noqa: E402
from tests.fixtures import services  # noqa: E402
from tests.integration import helpers  # noqa: E402
from tests.integration import test_magnum_k8s_templates as k8s  # noqa: E402


def create_once(hc, name):
    """Seconds from the create request to CREATE_COMPLETE; the stack is deleted after."""
    start = time.monotonic()
    stack_id = hc.stacks.create(stack_name=name, timeout_mins=60, **k8s._fields())["stack"]["id"]
    stack = helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"})
    elapsed = time.monotonic() - start
    if stack.stack_status != "CREATE_COMPLETE":
        raise RuntimeError(stack.stack_status_reason)
    hc.stacks.delete(stack_id)
    helpers.wait_for(hc, stack_id, "DELETE_COMPLETE")
    return elapsed


def measure(runs):
    times = []
    with services.isolated_backends() as (db_url, transport_url):
        with tempfile.TemporaryDirectory() as tmp:
            procs = services.HeatProcesses(tmp, db_url, transport_url, workers=2)
            procs.start()
            try:
                hc = heat_client.Client("1", endpoint=procs.endpoint, token="bench")
                meter = cpu.Meter(cpu.heat_procs(procs))
                for i in range(runs):
                    times.append(create_once(hc, "k8s-%d" % i))
                    used = meter.lap()
                    print(
                        "create %d: %.2f s (create+delete cpu_s: %s)"
                        % (i, times[-1], cpu.line(used)),
                        flush=True,
                    )
            finally:
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
    args = parser.parse_args()
    ref_mean = run_ref(args.compare, args.runs) if args.compare else None
    mean = statistics.mean(measure(args.runs))
    if ref_mean is None:
        print("create_s=%.2f" % mean)
    else:
        print("create_s=%.2f ref_create_s=%.2f ratio=%.2f" % (mean, ref_mean, mean / ref_mean))


if __name__ == "__main__":
    main()
