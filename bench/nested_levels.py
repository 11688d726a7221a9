"""What one level of nested stacks costs: a chain of nested stacks, real processes.

    python bench/nested_levels.py --depth 6 --runs 5

The k8s tree's critical path crosses six nested levels (root, ResourceGroup, member,
server template...); each level is a parent resource's CALL to create_stack, the
child's traversal start, and its completion waking the parent. This bench creates a
chain of ``--depth`` stacks (each one OS::Heat::None, then the next level as a
provider-template resource) and a chain of depth 1, on heat-lite (api, engine, two
workers) on a fresh PostgreSQL database and RabbitMQ vhost, timed to the engine's
announcement of CREATE_COMPLETE (bench/stack_events.py). From the event rows of the
last deep create it prints, per level, the milliseconds on the way down (the parent
resource's CREATE_IN_PROGRESS to the child's first resource's) and on the way up (the
child stack's CREATE_COMPLETE to its parent resource's).
The last line is ``create_s=<deep mean> shallow_s=<depth-1 mean> per_level_ms=<...>``.
"""

import argparse
import json
import pathlib
import statistics
import sys
import tempfile
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402
from heatclient import client as heat_client  # noqa: E402

from bench import stack_events  # noqa: E402
from tests.fixtures import services  # noqa: E402
from tests.integration import helpers  # noqa: E402


def chain(depth):
    """(root template, files) of a chain of ``depth`` nested stacks."""
    files = {}
    for level in range(depth):
        resources = {"r": {"type": "OS::Heat::None"}}
        if level + 1 < depth:
            resources["child"] = {"type": "level%d.yaml" % (level + 1), "depends_on": ["r"]}
        files["level%d.yaml" % level] = json.dumps(
            {"heat_template_version": "2018-08-31", "resources": resources}
        )
    return json.loads(files.pop("level0.yaml")), files


def create_once(hc, ends, name, depth):
    template, files = chain(depth)
    start = time.monotonic()
    stack_id = hc.stacks.create(stack_name=name, template=template, files=files)["stack"]["id"]
    event_type, ended = ends.wait(stack_id, "create", timeout=120)
    if hc.stacks.get(stack_id).stack_status != "CREATE_COMPLETE":
        raise RuntimeError("%s: %s" % (name, event_type))
    return stack_id, ended - start


def level_times(db_url, stack_name):
    """[(down ms, up ms)] per level of the stack tree named ``stack_name``, from its
    CREATE events (stacks by nesting depth)."""
    engine = sa.create_engine(db_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                sa.text(
                    "SELECT e.created_at, e.resource_name, e.resource_status, s.nested_depth, "
                    "s.name FROM event e JOIN stack s ON s.id = e.stack_id "
                    "WHERE s.name = :name OR s.name LIKE :nested ORDER BY e.id"
                ),
                {"name": stack_name, "nested": stack_name + "-%"},
            ).all()
    finally:
        engine.dispose()
    at = {}
    for created, resource, status, depth, name in rows:
        kind = "stack" if resource == name else resource
        at[(depth, kind, status)] = created
    levels = []
    for depth in range(max(d for d, _, _ in at)):
        down = at[(depth + 1, "r", "IN_PROGRESS")] - at[(depth, "child", "IN_PROGRESS")]
        up = at[(depth, "child", "COMPLETE")] - at[(depth + 1, "stack", "COMPLETE")]
        levels.append((down.total_seconds() * 1000, up.total_seconds() * 1000))
    return levels


def measure(depth, runs):
    services.use_default_pools()
    results = {}
    with services.isolated_backends() as (db_url, transport_url):
        with tempfile.TemporaryDirectory() as tmp:
            procs = services.HeatProcesses(tmp, db_url, transport_url)
            procs.conf.write_text(
                procs.conf.read_text() + "\n[oslo_messaging_notifications]\ndriver = messaging\n"
            )
            procs.start()
            try:
                hc = heat_client.Client("1", endpoint=procs.endpoint, token="bench")
                with stack_events.StackEnds(transport_url) as ends:
                    for d in (1, depth):
                        times = []
                        for i in range(runs):
                            name = "chain%d-%d" % (d, i)
                            stack_id, seconds = create_once(hc, ends, name, d)
                            times.append(seconds)
                            print("depth %d create %d: %.3f s" % (d, i, seconds), flush=True)
                            if d == depth and i == runs - 1:
                                results["levels"] = level_times(db_url, name)
                            hc.stacks.delete(stack_id)
                            helpers.wait_for(hc, stack_id, "DELETE_COMPLETE")
                        # the first create warms the services
                        results[d] = statistics.mean(times[1:] or times)
            finally:
                procs.stop()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depth", type=int, default=6)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if args.depth < 2:
        parser.error("--depth must be at least 2")
    results = measure(args.depth, args.runs)
    for level, (down, up) in enumerate(results["levels"]):
        print("level %d -> %d: down %.1f ms, up %.1f ms" % (level, level + 1, down, up))
    deep, shallow = results[args.depth], results[1]
    print(
        "create_s=%.3f shallow_s=%.3f per_level_ms=%.1f"
        % (deep, shallow, (deep - shallow) / (args.depth - 1) * 1000)
    )


if __name__ == "__main__":
    main()
