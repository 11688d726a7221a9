"""Many processes and threads satisfy one sync point (or several, each sender reporting
to all, as under full fan-in) at once on PostgreSQL: no input is lost, and exactly one of
them sees each sync point complete. The threads of a process that report meanwhile go
as batches (heat_lite.common.group_commit)."""

import multiprocessing
import threading
import uuid

import pytest

from heat_lite.db import api as db_api
from heat_lite.engine import sync_point
from tests.fixtures import services

pytestmark = pytest.mark.integration

PROCESSES, THREADS, PER_THREAD = 4, 8, 4
TOTAL = PROCESSES * THREADS * PER_THREAD


@pytest.fixture(scope="module")
def pg_url():
    name, url = services.create_database()
    try:
        from heat_lite.cmd import manage

        manage.db_sync(url)
        yield url
    finally:
        db_api.dispose()
        services.drop_database(name)


def _hammer(url, stack_id, traversal, proc_index, results, targets=None):
    """Every sender reports to the stack's sync point, or to each of ``targets``."""
    db_api.configure(url)
    predecessors = {(n, True) for n in range(TOTAL)}
    completions = []

    def one_thread(t):
        for k in range(PER_THREAD):
            n = (proc_index * THREADS + t) * PER_THREAD + k
            sync_point.sync_many(
                traversal,
                True,
                {target: predecessors for target in targets or [stack_id]},
                {(n, True): {"n": n}},
                lambda *args: completions.append(args[0]),
            )

    threads = [threading.Thread(target=one_thread, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    db_api.dispose()
    results.put(completions)


def _stack(pg_url):
    db_api.configure(pg_url)
    stack_id, traversal = str(uuid.uuid4()), str(uuid.uuid4())
    tmpl_id = db_api.raw_template_create({"heat_template_version": "2015-04-30"}, {})
    db_api.stack_create(
        {
            "id": stack_id,
            "name": "s",
            "raw_template_id": tmpl_id,
            "disable_rollback": True,
            "current_traversal": traversal,
        }
    )
    return stack_id, traversal


def _run(pg_url, stack_id, traversal, targets=None):
    """Run _hammer in PROCESSES processes; the sync points completed, one per completion."""
    db_api.dispose()
    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    procs = [
        ctx.Process(target=_hammer, args=(pg_url, stack_id, traversal, i, results, targets))
        for i in range(PROCESSES)
    ]
    for p in procs:
        p.start()
    completions = [entity for _ in procs for entity in results.get(timeout=120)]
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0
    db_api.configure(pg_url)
    return completions


def _assert_all_in(entity_id, traversal):
    row = db_api.sync_point_get(entity_id, traversal, True)
    received = sync_point.deserialize_input_data(row.input_data["input_data"])
    assert set(received) == {(n, True) for n in range(TOTAL)}
    assert row.atomic_key == TOTAL


def test_no_lost_update_under_contention(pg_url):
    stack_id, traversal = _stack(pg_url)
    db_api.sync_point_create_many(sync_point.rows(stack_id, traversal, []))
    assert _run(pg_url, stack_id, traversal) == [stack_id]
    _assert_all_in(stack_id, traversal)


def test_full_fan_in_completes_each_sync_point_once(pg_url):
    stack_id, traversal = _stack(pg_url)
    nodes = [(TOTAL + i, True) for i in range(8)]
    db_api.sync_point_create_many(sync_point.rows(stack_id, traversal, nodes))
    completions = _run(pg_url, stack_id, traversal, targets=[node[0] for node in nodes])
    assert sorted(completions) == sorted(node[0] for node in nodes)
    for node in nodes:
        _assert_all_in(node[0], traversal)
