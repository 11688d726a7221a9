"""messaging.topic_consumers: only the first caller waits for the broker; later callers
get the last count at once while one background thread counts again."""

import threading
import time

from heat_lite.common import messaging


def test_an_old_count_is_answered_at_once_and_recounted_in_the_background(monkeypatch):
    counts = iter([1, 0])
    recounted = threading.Event()
    calls = []

    def count(topic):
        calls.append(topic)
        value = next(counts)
        if len(calls) == 2:
            recounted.set()
        return value

    monkeypatch.setattr(messaging, "_count_consumers", count)
    monkeypatch.setattr(messaging, "_consumers", {})
    assert messaging.topic_consumers("engine") == 1  # first caller: counted now
    assert messaging.topic_consumers("engine") == 1  # fresh: no count
    assert calls == ["engine"]
    stamp, value = messaging._consumers["engine"]
    messaging._consumers["engine"] = (stamp - messaging.CONSUMERS_TTL - 1, value)
    assert messaging.topic_consumers("engine") == 1  # old: answered, recounted meanwhile
    assert recounted.wait(5)
    deadline = time.monotonic() + 5
    while messaging.topic_consumers("engine") != 0 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert messaging.topic_consumers("engine") == 0
    assert calls == ["engine", "engine"]
    assert not messaging._recounting
