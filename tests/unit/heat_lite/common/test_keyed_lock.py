import threading

from heat_lite.common import keyed_lock


def test_same_key_one_at_a_time_other_keys_meanwhile_then_forgotten():
    locks = keyed_lock.KeyedLocks()
    inside = threading.Event()
    release = threading.Event()
    order = []

    def holder():
        with locks.held("t1"):
            order.append("first in")
            inside.set()
            release.wait(5)
            order.append("first out")

    def waiter():
        with locks.held("t1"):
            order.append("second in")

    first = threading.Thread(target=holder)
    first.start()
    assert inside.wait(5)
    second = threading.Thread(target=waiter)
    second.start()
    with locks.held("t2"):  # another key is not held up
        order.append("other key")
        assert len(locks) == 2
    release.set()
    first.join(5)
    second.join(5)
    assert order == ["first in", "other key", "first out", "second in"]
    assert len(locks) == 0


def test_released_when_the_body_raises():
    locks = keyed_lock.KeyedLocks()
    try:
        with locks.held("k"):
            raise ValueError
    except ValueError:
        pass
    assert len(locks) == 0
    with locks.held("k"):
        pass
