"""10,000 resources: real heat-lite processes (API, engine, 2 workers) on the local
PostgreSQL and RabbitMQ, max_resources_per_stack raised for the run.

    python bench/scale.py                            # N = 1000 then 10000, every shape
    python bench/scale.py --n 1000 10000 --shapes wide chain

For each N and shape (bench/convergence.py's stacks; ``layers`` here is layers of
``--width`` resources, each depending on all of the layer before, so that the edges per
resource stay the same at every N) creates the stack, waits for CREATE_COMPLETE, deletes
it and waits for DELETE_COMPLETE. Prints create and delete seconds and ms per resource,
then the ratio of the per-resource cost at the largest N to that at the smallest, and the
peak RSS (VmHWM) of the API, the engine and each worker over the whole run.
"""

import argparse
import pathlib
import sys
import time

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench import convergence  # noqa: E402

SCALE_DEFAULTS = {
    "max_resources_per_stack": 20000,
    "max_template_size": 67108864,
    "max_json_body_size": 67108864,
}


def template(n, shape, width):
    if shape != "layers":
        return convergence.template(n, shape)
    resources = {}
    for layer in range(max(1, n // width)):
        for i in range(width):
            rsrc = {"type": "OS::Heat::None"}
            if layer:
                rsrc["depends_on"] = ["l%d_%d" % (layer - 1, j) for j in range(width)]
            resources["l%d_%d" % (layer, i)] = rsrc
    return {"heat_template_version": "2018-08-31", "resources": resources}


def run_one(hc, n, shape, width, timeout):
    tmpl = template(n, shape, width)
    start = time.monotonic()
    stack_id = hc.stacks.create(
        stack_name="scale-%s-%d" % (shape, n), template=tmpl, timeout_mins=120
    )["stack"]["id"]
    status = convergence.wait(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"}, timeout)
    create_s = time.monotonic() - start
    if status != "CREATE_COMPLETE":
        raise RuntimeError("%s %d: create ended %s" % (shape, n, status))
    start = time.monotonic()
    hc.stacks.delete(stack_id)
    status = convergence.wait(hc, stack_id, {"DELETE_COMPLETE", "DELETE_FAILED"}, timeout)
    if status != "DELETE_COMPLETE":
        raise RuntimeError("%s %d: delete ended %s" % (shape, n, status))
    return create_s, time.monotonic() - start


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--shapes", nargs="+", default=["wide", "chain", "layers"])
    parser.add_argument("--width", type=int, default=10)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timeout", type=float, default=1800)
    args = parser.parse_args()
    per_resource = {}
    with convergence.running(args.workers, SCALE_DEFAULTS) as heat:
        hc = convergence.client(heat)
        for n in args.n:
            for shape in args.shapes:
                create_s, delete_s = run_one(hc, n, shape, args.width, args.timeout)
                per_resource[n, shape] = (create_s / n * 1000, delete_s / n * 1000)
                rss = heat.peak_rss_mb()
                print(
                    "n=%-6d shape=%-6s create_s=%.2f delete_s=%.2f create_ms_per=%.2f "
                    "delete_ms_per=%.2f  peak RSS MB so far: %s"
                    % (
                        n,
                        shape,
                        create_s,
                        delete_s,
                        *per_resource[n, shape],
                        " ".join("%s=%.0f" % item for item in sorted(rss.items())),
                    ),
                    flush=True,
                )
        problems = heat.log_problems()
    small, large = min(args.n), max(args.n)
    for shape in args.shapes if small != large else ():
        (c1, d1), (c2, d2) = per_resource[small, shape], per_resource[large, shape]
        print(
            "shape=%-6s per-resource cost %d vs %d: create x%.2f delete x%.2f"
            % (shape, large, small, c2 / c1, d2 / d1)
        )
    for name, found in sorted(problems.items()):
        print("%s logged %d problems, first:\n%s" % (name, len(found), found[0]))
    print("peak_rss_mb %s" % " ".join("%s=%.0f" % item for item in sorted(rss.items())))


if __name__ == "__main__":
    main()
