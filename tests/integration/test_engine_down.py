"""The API when no engine answers: a 503 that names the engine, within seconds when none
runs (a few seconds of grace for an engine reconnecting to the broker)."""

import os
import signal
import subprocess
import time

import pytest
import requests
import tenacity

from tests.fixtures import services

pytestmark = pytest.mark.integration


@pytest.fixture
def api_only(tmp_path):
    with services.isolated_backends() as (db_url, transport_url):
        heat = services.HeatProcesses(
            tmp_path, db_url, transport_url, workers=0, defaults={"rpc_response_timeout": "3"}
        )
        argv, env = heat.db_sync()
        subprocess.run(argv, check=True, capture_output=True, timeout=120)
        services_by_name = {name: (argv, env) for name, argv, env in heat.services()}
        heat._spawn("api", *services_by_name["api"])
        try:
            yield heat, services_by_name
        finally:
            heat.stop()


def error_of(resp):
    return resp.status_code, resp.json()["error"]["message"]


def test_no_engine_is_a_prompt_503_naming_it(api_only):
    heat, by_name = api_only

    @tenacity.retry(stop=tenacity.stop_after_delay(30), wait=tenacity.wait_fixed(0.2))
    def first_answer():
        return requests.get(heat.endpoint + "/stacks", timeout=10)

    started = time.monotonic()
    resp = first_answer()
    print("no engine: answered %d in %.3f s" % (resp.status_code, time.monotonic() - started))
    assert error_of(resp) == (
        503,
        "The orchestration engine is unavailable: no heat-lite-engine is running (nothing "
        "consumes RPC topic 'engine'); start heat-lite-engine",
    )

    heat._spawn("engine", *by_name["engine"])

    @tenacity.retry(stop=tenacity.stop_after_delay(30), wait=tenacity.wait_fixed(0.3))
    def served():
        resp = requests.get(heat.endpoint + "/stacks", timeout=10)
        assert resp.status_code == 200, resp.text
        return resp

    assert served().json() == {"stacks": []}

    # an engine that consumes but never answers (stopped): 503 after rpc_response_timeout
    engine = heat.procs["engine"]
    os.kill(engine.pid, signal.SIGSTOP)
    try:
        resp = requests.get(heat.endpoint + "/stacks", timeout=30)
    finally:
        os.kill(engine.pid, signal.SIGCONT)
    assert error_of(resp) == (
        503,
        "The orchestration engine is unavailable: heat-lite-engine did not answer list_stacks "
        "within 3 s (RPC topic 'engine')",
    )
