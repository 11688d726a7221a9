"""Resource._poll: how long a resource task waits between its check_*_complete calls."""

import contextlib

import pytest

from heat_lite.engine import resource, stack_watch


class Waiting(resource.Resource):
    """A task that completes at its ``checks``-th check, waiting for ``watched`` (a
    nested stack's id) or for nothing."""

    def __init__(self, watched, checks):  # no stack: only the polling is under test
        self.cancel_event = None
        self.watched = watched
        self.checks_left = checks

    def watched_stack(self, token):
        return self.watched

    def check(self, token):
        self.checks_left -= 1
        return self.checks_left == 0


class Recorder:
    """Stands for time (sleep) and for the woken Event (wait): records each pause."""

    def __init__(self):
        self.pauses = []

    def sleep(self, seconds):
        self.pauses.append(seconds)

    wait = sleep

    def clear(self):
        pass

    def is_set(self):
        return False

    @staticmethod
    def monotonic():
        return 0.0


@pytest.fixture
def pauses(monkeypatch):
    recorder = Recorder()
    monkeypatch.setattr(resource, "time", recorder)

    @contextlib.contextmanager
    def watching(stack_id):
        yield recorder

    monkeypatch.setattr(stack_watch, "watching", watching)
    return recorder.pauses


def _backoff(cap, count):
    waits, wait = [], resource.POLL_START
    for _ in range(count):
        waits.append(wait)
        wait = min(wait * 2, cap)
    return waits


def test_a_plain_task_backs_off_to_its_poll_cap(pauses):
    rsrc = Waiting(watched=None, checks=12)
    rsrc._poll(lambda: None, rsrc.check, None)
    assert pauses == _backoff(resource.POLL_CAP, 11)
    assert max(pauses) == 0.25


def test_a_watched_stack_is_polled_at_heats_1s_step(pauses):
    """A nested stack's end wakes the poll (stack_watch): polls only catch a lost
    announcement, so they back off to 1 s as Heat's resource tasks step."""
    rsrc = Waiting(watched="child-id", checks=12)
    rsrc._poll(lambda: None, rsrc.check, None)
    assert pauses == _backoff(resource.WATCHED_POLL_CAP, 11)
    assert pauses[-3:] == [1.0, 1.0, 1.0]
