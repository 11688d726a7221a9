"""x509.KeyPool: RSA keys made ahead of need by a native thread, each handed out once."""

import os
import threading
import time

import pytest

from magnum_lite.common import x509
from magnum_lite.conf import CONF

KEY_SIZE = 1024  # quicker to make than the default 2048; the pool does not care


@pytest.fixture
def conf():
    CONF([], project="magnum", default_config_files=[])
    CONF.set_override("rsa_key_size", KEY_SIZE, group="x509")
    CONF.set_override("key_pool_size", 3, group="x509")
    yield CONF
    CONF.reset()
    CONF.clear_override("rsa_key_size", group="x509")
    CONF.clear_override("key_pool_size", group="x509")


@pytest.fixture
def idle_machine(monkeypatch):
    """The machine's CPUs always look idle (a test run keeps them busy)."""
    monkeypatch.setattr(x509, "_cpu_times", lambda: None)


def wait_for(predicate, timeout=30):
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def public_numbers(key):
    return key.public_key().public_numbers().n


def test_pool_fills_to_its_size_and_hands_each_key_out_once(conf, idle_machine):
    pool = x509.KeyPool()
    pool.start()
    wait_for(lambda: len(pool._keys) == 3)
    time.sleep(0.1)
    assert len(pool._keys) == 3  # and no more
    pooled = {public_numbers(k) for k in pool._keys}
    taken = [pool.take() for _ in range(3)]
    assert {public_numbers(k) for k in taken} == pooled
    assert all(k.key_size == KEY_SIZE for k in taken)
    wait_for(lambda: len(pool._keys) == 3)  # refilled, with new keys
    assert not pooled & {public_numbers(k) for k in pool._keys}


def test_empty_pool_makes_the_key_on_the_spot(conf):
    CONF.set_override("key_pool_size", 0, group="x509")
    pool = x509.KeyPool()
    pool.start()
    assert pool._thread is None
    first, second = pool.take(), pool.take()
    assert first.key_size == second.key_size == KEY_SIZE
    assert public_numbers(first) != public_numbers(second)


def test_pooled_key_of_another_size_is_not_handed_out(conf, idle_machine):
    pool = x509.KeyPool()
    pool.start()
    wait_for(lambda: len(pool._keys) == 3)
    CONF.set_override("rsa_key_size", 2048, group="x509")
    assert pool.take().key_size == 2048


def test_fill_waits_for_idle_cpus(monkeypatch):
    """Busy, busy, then idle over each interval: three looks at /proc/stat's deltas."""
    totals = iter([(0, 0), (10, 100), (20, 200), (80, 300)])  # (idle, total) so far
    monkeypatch.setattr(x509, "_cpu_times", lambda: next(totals))
    slept = []
    clock = type("Clock", (), {"sleep": staticmethod(slept.append)})
    x509._wait_for_idle_cpu(clock, share=0.5, interval=0.1)
    assert slept == [0.1, 0.1, 0.1]
    assert next(totals, None) is None


def test_fill_thread_runs_at_the_lowest_priority(conf, idle_machine, monkeypatch):
    """Nice 19 for the filling thread only: the rest of the conductor keeps its own."""
    mine = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    seen = []
    real = x509._lowest_cpu_priority

    def spy(native):
        real(native)
        seen.append(os.getpriority(os.PRIO_PROCESS, native.get_native_id()))

    monkeypatch.setattr(x509, "_lowest_cpu_priority", spy)
    x509.KeyPool().start()
    wait_for(lambda: seen)
    assert seen == [19]
    assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) == mine
