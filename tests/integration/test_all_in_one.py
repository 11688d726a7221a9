"""``heat-lite-all`` with no arguments: SQLite in the current directory, the in-process
transport, the API on 127.0.0.1:8004 — and a stack converges through python-heatclient."""

import os
import signal
import subprocess
import time

import pytest
import requests
from heatclient import client as heat_client

from tests.fixtures import logcheck, services
from tests.integration import helpers

pytestmark = pytest.mark.integration

ENDPOINT = "http://127.0.0.1:8004/v1/admin"


@pytest.fixture
def all_in_one(tmp_path):
    log = open(tmp_path / "heat-lite-all.log", "wb")
    source = logcheck.watch_file(tmp_path / "heat-lite-all.log", "heat-lite-all")
    proc = subprocess.Popen(
        [services.script("heat-lite-all")],
        cwd=tmp_path,
        stdout=log,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert proc.poll() is None, (tmp_path / "heat-lite-all.log").read_text()
            try:
                if requests.get(ENDPOINT + "/stacks", timeout=2).status_code == 200:
                    break
            except requests.RequestException:
                pass
            assert time.monotonic() < deadline, "heat-lite-all did not start"
            time.sleep(0.2)
        yield tmp_path
    finally:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        logcheck.retire(source)


def test_embedded_default_converges_a_stack(all_in_one):
    hc = heat_client.Client("1", endpoint=ENDPOINT, token="notused")
    template = helpers.layered_template(3, 4)
    stack_id = hc.stacks.create(stack_name="aio", template=template)["stack"]["id"]
    stack = helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    outputs = {o["output_key"]: o["output_value"] for o in stack.outputs}
    assert outputs["first"] == helpers.expected_layer_value(3, 4)
    assert len(hc.resources.list(stack_id)) == 12
    hc.stacks.delete(stack_id)
    stack = helpers.wait_for(hc, stack_id, "DELETE_COMPLETE")
    assert (all_in_one / "heat.sqlite").exists()
