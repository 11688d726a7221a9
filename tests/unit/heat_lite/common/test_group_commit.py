import threading

import pytest

from heat_lite.common import group_commit


class Sender:
    """A send() whose first batch blocks until released, so that others queue behind it."""

    def __init__(self, fail=None):
        self.batches = []
        self.entered = threading.Event()
        self.release = threading.Event()
        self.fail = fail or (lambda items: None)

    def __call__(self, key, items):
        self.batches.append((key, list(items)))
        if len(self.batches) == 1:
            self.entered.set()
            assert self.release.wait(5)
        error = self.fail(items)
        if error is not None:
            raise error
        return [item.upper() if isinstance(item, str) else item for item in items]


def _submit_all(commits, calls):
    """Run ``commits.submit(key, item)`` for each (key, item) in threads; their outcomes."""
    outcomes = [None] * len(calls)

    def run(i, key, item):
        try:
            outcomes[i] = commits.submit(key, item)
        except Exception as exc:
            outcomes[i] = exc

    threads = [threading.Thread(target=run, args=(i, *call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    return threads, outcomes


def _queued(commits, key, count):
    for _ in range(500):
        with commits._guard:
            if len(commits._queues.get(key, ())) >= count:
                return
        threading.Event().wait(0.01)
    raise AssertionError("nobody queued")


def _in_flight(send, first="a", key="k", **options):
    """A GroupCommit over ``send`` whose first batch (``first``) is in flight, and the
    threads of that batch's caller."""
    commits = group_commit.GroupCommit(send, **options)
    threads, outcomes = _submit_all(commits, [(key, first)])
    assert send.entered.wait(5)
    return commits, threads, outcomes


def _stray_waiter(commits, key, item):
    """A caller queued without a thread of its own: one whose thread is being killed."""
    waiter = group_commit._Waiter(item)
    with commits._guard:
        commits._queues[key].append(waiter)
    return waiter


def test_callers_queued_behind_a_batch_go_together_in_the_next():
    send = Sender()
    commits, first, first_outcome = _in_flight(
        send, first="a1", key="t1", max_items=10, tag=lambda item: item[0]
    )
    threads, outcomes = _submit_all(commits, [("t1", "b1"), ("t1", "c1"), ("t1", "d1")])
    _queued(commits, "t1", 3)
    other, other_outcome = _submit_all(commits, [("t2", "x1")])  # another key: not held up
    other[0].join(5)
    assert other_outcome == ["X1"]
    send.release.set()
    for thread in first + threads:
        thread.join(5)
    assert first_outcome == ["A1"]
    assert outcomes == ["B1", "C1", "D1"]
    t1_batches = [sorted(items) for key, items in send.batches if key == "t1"]
    assert t1_batches == [["a1"], ["b1", "c1", "d1"]]
    assert len(commits) == 0


def test_one_item_per_tag_and_max_items_per_batch():
    send = Sender()
    commits, first, _ = _in_flight(send, first="a1", max_items=2, tag=lambda item: item[0])
    threads, outcomes = _submit_all(commits, [("k", "b1"), ("k", "b2"), ("k", "c1")])
    _queued(commits, "k", 3)
    send.release.set()
    for thread in first + threads:
        thread.join(5)
    assert sorted(outcomes) == ["B1", "B2", "C1"]
    batches = [items for _, items in send.batches]
    assert len(batches) == 3  # a1 | two of b1/b2/c1, never b1 with b2 | the third
    assert all(len(items) <= 2 for items in batches)
    assert all(sum(item[0] == "b" for item in items) <= 1 for items in batches)
    assert sorted(item for items in batches for item in items) == ["a1", "b1", "b2", "c1"]


def test_a_failed_batch_is_sent_again_item_by_item_when_alone_says_so():
    def fail(items):
        if "bad" in items:
            return ValueError("bad item")
        return None

    send = Sender(fail=fail)
    commits, first, first_outcome = _in_flight(
        send, alone=lambda exc: isinstance(exc, ValueError), tag=lambda item: item
    )
    threads, outcomes = _submit_all(commits, [("k", "bad"), ("k", "c")])
    _queued(commits, "k", 2)
    send.release.set()
    for thread in first + threads:
        thread.join(5)
    assert first_outcome == ["A"]
    assert outcomes[1] == "C"
    assert isinstance(outcomes[0], ValueError)
    assert [sorted(items) for _, items in send.batches[1:]][0] == ["bad", "c"]
    assert sorted(items[0] for _, items in send.batches[2:]) == ["bad", "c"]


def test_without_alone_every_caller_of_a_failed_batch_gets_its_error():
    send = Sender(fail=lambda items: RuntimeError("connection lost") if len(items) > 1 else None)
    commits, first, _ = _in_flight(send, tag=lambda item: item)
    threads, outcomes = _submit_all(commits, [("k", "b"), ("k", "c")])
    _queued(commits, "k", 2)
    send.release.set()
    for thread in first + threads:
        thread.join(5)
    assert all(isinstance(outcome, RuntimeError) for outcome in outcomes)
    assert len(commits) == 0


def test_a_result_that_is_an_exception_is_raised_to_its_caller_only():
    def send(key, items):
        return [KeyError(item) if item == "gone" else item for item in items]

    commits = group_commit.GroupCommit(send)
    assert commits.submit("k", "here") == "here"
    with pytest.raises(KeyError):
        commits.submit("k", "gone")
    assert len(commits) == 0


def test_a_queued_caller_that_gives_up_leaves_the_queue():
    send = Sender()
    commits, first, _ = _in_flight(send, tag=lambda item: item)
    waiter = _stray_waiter(commits, "k", "b")
    commits._abandon("k", waiter)  # as when its thread is killed while it waits
    threads, outcomes = _submit_all(commits, [("k", "c")])
    _queued(commits, "k", 1)
    send.release.set()
    for thread in first + threads:
        thread.join(5)
    assert outcomes == ["C"]
    assert [items for _, items in send.batches] == [["a"], ["c"]]
    assert len(commits) == 0


def test_a_promoted_caller_that_gives_up_hands_the_lead_on():
    send = Sender()
    commits, first, _ = _in_flight(send, tag=lambda item: item)
    quitter = _stray_waiter(commits, "k", "b")
    threads, outcomes = _submit_all(commits, [("k", "c")])
    _queued(commits, "k", 2)
    send.release.set()
    first[0].join(5)
    assert quitter.event.wait(5) and quitter.leads  # first in the queue: it leads next
    assert outcomes == [None]  # ... so "c" waits for it
    commits._abandon("k", quitter)
    threads[0].join(5)
    assert outcomes == ["C"]
    assert [items for _, items in send.batches] == [["a"], ["c"]]
    assert len(commits) == 0
