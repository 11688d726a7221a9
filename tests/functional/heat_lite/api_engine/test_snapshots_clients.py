"""Stack snapshots through python-heatclient over HTTP (both transport modes) against the
API and the real engine: stacks.snapshot / snapshot_list / snapshot_show /
snapshot_delete / restore, with the values and errors the client hands back.
"""

import time

import pytest
from heatclient import client as heat_client
from heatclient import exc as heat_exc
from keystoneauth1 import noauth as ks_noauth
from keystoneauth1 import session as ks_session

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "parameters": {"p": {"type": "string", "default": "first"}},
    "resources": {
        "r": {"type": "OS::Heat::TestResource", "properties": {"value": {"get_param": "p"}}},
        "rand": {"type": "OS::Heat::RandomString"},
    },
    "outputs": {
        "o": {"value": {"get_attr": ["r", "output"]}},
        "rand": {"value": {"get_attr": ["rand", "value"]}},
    },
}
TEMPLATE2 = {
    "heat_template_version": "2016-10-14",
    "resources": {"n": {"type": "OS::Heat::None"}},
    "outputs": {"o": {"value": "second"}},
}


def _plain(endpoint):
    return heat_client.Client("1", endpoint=endpoint, token="x")


def _session(endpoint):
    """As OSC does with --os-auth-type none: keystoneauth follows the 302s itself."""
    sess = ks_session.Session(auth=ks_noauth.NoAuth(endpoint=endpoint))
    return heat_client.Client(
        "1", session=sess, endpoint_override=endpoint, service_type="orchestration"
    )


def _wait(check, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value is not None:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def _settled(hc, name):
    def check():
        stack = hc.stacks.get(name)
        return None if stack.stack_status.endswith("_IN_PROGRESS") else stack

    return _wait(check)


def _snapshot_done(hc, name, snapshot_id):
    def check():
        snap = hc.stacks.snapshot_show(name, snapshot_id)["snapshot"]
        return None if snap["status"] == "IN_PROGRESS" else snap

    return _wait(check)


def _outputs(stack):
    return {o["output_key"]: o["output_value"] for o in stack.outputs}


@pytest.mark.parametrize("make_client", [_plain, _session], ids=["plain", "session"])
def test_heatclient_snapshot_lifecycle(endpoint, make_client):
    hc = make_client(endpoint)
    name = "hcsnap-" + make_client.__name__.strip("_")
    hc.stacks.create(stack_name=name, template=TEMPLATE, parameters={"p": "kept"})
    first = _settled(hc, name)
    assert first.stack_status == "CREATE_COMPLETE"

    snap = hc.stacks.snapshot(name, "s1")
    assert (snap["name"], snap["action"], snap["status"]) == ("s1", "CREATE", "IN_PROGRESS")
    done = _snapshot_done(hc, name, snap["id"])
    assert (done["status"], done["status_reason"]) == (
        "COMPLETE",
        "Stack SNAPSHOT completed successfully",
    )
    assert done["data"]["environment"]["parameters"] == {"p": "kept"}
    assert done["data"]["resources"]["rand"]["resource_data"]["value"] == (_outputs(first)["rand"])
    assert hc.stacks.get(name).stack_status == "SNAPSHOT_COMPLETE"
    listed = hc.stacks.snapshot_list(name)["snapshots"]
    assert [s["id"] for s in listed] == [snap["id"]]

    # update to another template, then restore the snapshot
    hc.stacks.update(name, template=TEMPLATE2, parameters={})
    assert _settled(hc, name).stack_status == "UPDATE_COMPLETE"
    assert _outputs(hc.stacks.get(name)) == {"o": "second"}
    assert hc.stacks.restore(name, snap["id"]) is None
    restored = _settled(hc, name)
    assert restored.stack_status == "RESTORE_COMPLETE"
    assert _outputs(restored) == _outputs(first)
    assert restored.parameters["p"] == "kept"
    assert sorted(r.resource_name for r in hc.resources.list(name)) == ["r", "rand"]

    # delete the snapshot; then it is unknown
    hc.stacks.snapshot_delete(name, snap["id"])
    assert hc.stacks.snapshot_list(name)["snapshots"] == []
    with pytest.raises(heat_exc.HTTPNotFound) as err:
        hc.stacks.snapshot_show(name, snap["id"])
    assert "Snapshot with id %s not found" % snap["id"] in str(err.value)
    with pytest.raises(heat_exc.HTTPNotFound):
        hc.stacks.restore(name, snap["id"])


def test_heatclient_snapshot_errors(endpoint):
    hc = _plain(endpoint)
    with pytest.raises(heat_exc.HTTPNotFound) as err:
        hc.stacks.snapshot("no-such-stack", "s")
    assert "The Stack (no-such-stack) could not be found." in str(err.value)
    hc.stacks.create(
        stack_name="hcsnap-busy",
        template={
            "heat_template_version": "2016-10-14",
            "resources": {
                "t": {"type": "OS::Heat::TestResource", "properties": {"wait_secs": 0.5}}
            },
        },
    )
    with pytest.raises(heat_exc.HTTPConflict) as err:
        hc.stacks.snapshot("hcsnap-busy", "too-early")
    assert "Stack hcsnap-busy already has an action (CREATE) in progress." in str(err.value)
    assert _settled(hc, "hcsnap-busy").stack_status == "CREATE_COMPLETE"
