"""Small helpers shared by the integration tests."""

import json
import time


def wait_for_status(hc, stack_id, statuses, timeout=120, on_poll=None):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        stack = hc.stacks.get(stack_id, resolve_outputs=False)
        if on_poll is not None:
            on_poll()
        if stack.stack_status in statuses:
            return hc.stacks.get(stack_id)
        time.sleep(0.05)
    raise AssertionError("stack %s still %s" % (stack_id, stack.stack_status))


def wait_for(hc, stack_id, expected, timeout=120):
    """Wait until the action of ``expected`` (e.g. ``DELETE_COMPLETE``) has ended, and
    assert it ended so; a delete must also leave the stack out of every ``stack list``."""
    action = expected.rsplit("_", 1)[0]
    stack = wait_for_status(hc, stack_id, {action + "_COMPLETE", action + "_FAILED"}, timeout)
    reason = stack.stack_status_reason
    assert stack.stack_status == expected, "%s: %s" % (stack.stack_status, reason)
    if expected == "DELETE_COMPLETE":
        # as Heat: the state is written first, the row soft-deleted just after
        deadline = time.monotonic() + timeout
        while stack.id in [s.id for s in hc.stacks.list(show_nested=True)]:
            assert time.monotonic() < deadline, "deleted stack %s is still listed" % stack.id
            time.sleep(0.05)
    return stack


def layered_template(layers, width, fail=None):
    """``layers`` x ``width`` TestResources; each one joins the outputs of the layer before.

    Every resource of layer k>0 depends on all of layer k-1 (get_attr on each), so the
    output of the last layer carries every value created before it.
    """
    resources = {}
    for layer in range(layers):
        for i in range(width):
            name = "r%d_%d" % (layer, i)
            if layer == 0:
                value = {"str_replace": {"template": "v$i", "params": {"$i": str(i)}}}
            else:
                value = {
                    "list_join": [
                        "+",
                        [{"get_attr": ["r%d_%d" % (layer - 1, j), "output"]} for j in range(width)],
                    ]
                }
            props = {"value": value}
            if fail == name:
                props["fail"] = True
            resources[name] = {"type": "OS::Heat::TestResource", "properties": props}
    last = ["r%d_%d" % (layers - 1, i) for i in range(width)]
    return {
        "heat_template_version": "2018-08-31",
        "resources": resources,
        "outputs": {
            "first": {"value": {"get_attr": [last[0], "output"]}},
            "ref": {"value": {"get_resource": last[0]}},
        },
    }


def expected_layer_value(layers, width):
    value = ["v%d" % i for i in range(width)]
    for _ in range(1, layers):
        joined = "+".join(value)
        value = [joined] * width
    return value[0]


def wait_cluster_status(coe, name, statuses, until=None, timeout=120):
    """The cluster (``openstack coe cluster show -f json``) once its status is in
    ``statuses`` and, unless it FAILED, ``until(cluster)`` holds. ``until`` is for an
    update: its CAST returns before the conductor stores UPDATE_IN_PROGRESS (as
    Magnum's does), so the previous update's UPDATE_COMPLETE is still what a first
    look finds."""
    deadline = time.monotonic() + timeout
    cluster = None
    while time.monotonic() < deadline:
        proc = coe.run("coe", "cluster", "show", name, "-f", "json")
        if proc.returncode == 0:
            cluster = json.loads(proc.stdout)
            status = cluster["status"]
            done = until is None or status.endswith("FAILED") or until(cluster)
            if status in statuses and done:
                return cluster
        time.sleep(0.5)
    raise AssertionError("cluster %s never reached %s: %s" % (name, statuses, cluster))


def wait_cluster_gone(coe, name, timeout=120):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        proc = coe.run("coe", "cluster", "show", name)
        if proc.returncode != 0 and "could not be found" in proc.stderr:
            return
        time.sleep(0.5)
    raise AssertionError("cluster %s still there" % name)
