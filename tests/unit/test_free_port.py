"""The test fixtures' free_port(): a port no other test process is handed meanwhile,
outside the kernel's ephemeral range (where bind(0) and outgoing connections take ports)."""

import json
import socket
import subprocess
import sys

import pytest

from tests.fixtures import services


def _ephemeral_range():
    with open("/proc/sys/net/ipv4/ip_local_port_range") as f:
        low, high = map(int, f.read().split())
    return low, high


def test_ports_are_below_the_ephemeral_range_and_bindable():
    low, _ = _ephemeral_range()
    ports = [services.free_port() for _ in range(50)]
    assert len(set(ports)) == 50
    assert all(services.PORT_RANGE[0] <= p < min(services.PORT_RANGE[1], low) for p in ports)
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", ports[0]))


def test_another_process_is_never_handed_a_port_this_one_holds():
    mine = {services.free_port() for _ in range(500)}
    code = (
        "import json; from tests.fixtures import services; "
        "print(json.dumps([services.free_port() for _ in range(3000)]))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=services.REPO
    ).stdout
    theirs = set(json.loads(out))
    assert len(theirs) == 3000
    assert not mine & theirs


def test_a_port_in_use_is_skipped(monkeypatch):
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        monkeypatch.setattr(services, "PORT_RANGE", (port, port + 1))
        monkeypatch.setattr(services.random, "randrange", lambda low, high: low)
        with pytest.raises(RuntimeError, match="no free port"):
            services.free_port()
