"""Many processes and threads satisfy one sync point at once on PostgreSQL: no input is
lost, and exactly one of them sees the sync point complete."""

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


def _hammer(url, stack_id, traversal, proc_index, results):
    db_api.configure(url)
    predecessors = {(n, True) for n in range(TOTAL)}
    completions = []

    def one_thread(t):
        for k in range(PER_THREAD):
            n = (proc_index * THREADS + t) * PER_THREAD + k
            sync_point.sync(
                stack_id,
                traversal,
                True,
                predecessors,
                {(n, True): {"n": n}},
                lambda *args: completions.append(args),
            )

    threads = [threading.Thread(target=one_thread, args=(t,)) for t in range(THREADS)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    db_api.dispose()
    results.put(len(completions))


def test_no_lost_update_under_contention(pg_url):
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
    sync_point.create_all(stack_id, traversal, [])
    db_api.dispose()

    ctx = multiprocessing.get_context("spawn")
    results = ctx.Queue()
    procs = [
        ctx.Process(target=_hammer, args=(pg_url, stack_id, traversal, i, results))
        for i in range(PROCESSES)
    ]
    for p in procs:
        p.start()
    completions = sum(results.get(timeout=120) for _ in procs)
    for p in procs:
        p.join(timeout=30)
        assert p.exitcode == 0

    db_api.configure(pg_url)
    row = db_api.sync_point_get(stack_id, traversal, True)
    received = sync_point.deserialize_input_data(row.input_data["input_data"])
    assert set(received) == {(n, True) for n in range(TOTAL)}
    assert row.atomic_key == TOTAL
    assert completions == 1
