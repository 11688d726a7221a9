"""A worker's load of a resource with its stack, through SQLAlchemy and prepared.

    python bench/db_statements.py --n 5000

On a fresh PostgreSQL database (migrated by heat-lite-manage's db_sync), under eventlet
with psycogreen as the worker runs: the statement of db.api.resource_get_with_stack run
N times through SQLAlchemy Core (``conn.execute``) and N times as heat_lite.db.prepared
runs it. Prints, per call, the microseconds of this process's CPU, of the PostgreSQL
backend's CPU and of wall time; the last line is
``sqlalchemy_cpu_us=… prepared_cpu_us=… sqlalchemy_pg_us=… prepared_pg_us=…``.
"""

import eventlet

eventlet.monkey_patch()

import argparse  # noqa: E402
import os  # noqa: E402
import pathlib  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402

from psycogreen.eventlet import patch_psycopg  # noqa: E402

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
patch_psycopg()

from heat_lite.cmd import manage  # noqa: E402
from heat_lite.db import api as db_api  # noqa: E402
from tests.fixtures import services  # noqa: E402

_TICKS = os.sysconf("SC_CLK_TCK")


def _backend_cpu(pid):
    with open("/proc/%d/stat" % pid) as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def _backend_pid():
    """The pid of the pool's one connection's PostgreSQL backend."""
    with db_api.autocommit() as conn:
        return conn.exec_driver_sql("SELECT pg_backend_pid()").scalar()


def _stack_and_resource():
    now = db_api.utcnow()
    with db_api.transaction() as conn:
        template = conn.execute(
            db_api.T_RAW.insert().values(template={}, environment={}, created_at=now)
        ).inserted_primary_key[0]
        conn.execute(
            db_api.T_STACK.insert().values(
                id="bench",
                name="bench",
                raw_template_id=template,
                action="CREATE",
                status="IN_PROGRESS",
                tenant="bench",
                username="bench",
                disable_rollback=True,
                current_traversal="bench",
                created_at=now,
            )
        )
        return conn.execute(
            db_api.T_RSRC.insert().values(
                name="r",
                uuid="bench",
                stack_id="bench",
                action="INIT",
                status="COMPLETE",
                atomic_key=0,
                created_at=now,
            )
        ).inserted_primary_key[0]


def measure(label, call, n, pid):
    for _ in range(200):
        call()
    cpu, pg, wall = time.process_time(), _backend_cpu(pid), time.perf_counter()
    for _ in range(n):
        call()
    figures = {
        "cpu_us": (time.process_time() - cpu) / n * 1e6,
        "pg_us": (_backend_cpu(pid) - pg) / n * 1e6,
        "wall_us": (time.perf_counter() - wall) / n * 1e6,
    }
    print("%-10s %s" % (label, " ".join("%s=%.0f" % item for item in figures.items())))
    return figures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=5000)
    args = parser.parse_args()
    name, url = services.create_database()
    try:
        manage.db_sync(url)
        db_api.configure(url, max_pool_size=1, max_overflow=0)
        resource_id = _stack_and_resource()
        pid = _backend_pid()
        stmt, params = db_api._RSRC_WITH_STACK, {"resource_id": resource_id}

        def through_sqlalchemy():
            with db_api.autocommit() as conn:
                conn.execute(stmt.stmt, params).first()

        def prepared():
            stmt.execute(db_api.get_engine(), params)

        plain = measure("sqlalchemy", through_sqlalchemy, args.n, pid)
        fast = measure("prepared", prepared, args.n, pid)
        print(
            "sqlalchemy_cpu_us=%.0f prepared_cpu_us=%.0f sqlalchemy_pg_us=%.0f prepared_pg_us=%.0f"
            % (plain["cpu_us"], fast["cpu_us"], plain["pg_us"], fast["pg_us"])
        )
    finally:
        db_api.dispose()
        services.drop_database(name)


if __name__ == "__main__":
    main()
