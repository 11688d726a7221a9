"""Sync points in heat's database: where a traversal's graph edges meet (engine/sync_point.py).

    sync_point_create_many(rows)             # a traversal's points, with the stack's
    counts = sync_point_add_input([5, 6], traversal_id, True, sender, data, write=write)
    # {"5": 2, "6": None}: 5 holds two inputs now; the sender had reported to 6 already
    sync_point_inputs(["5"], traversal_id, True)   # {"5": ({sender: data}, extra_data)}

A sync point counts its inputs in ``atomic_key``; each input is a row of
sync_point_input. Of concurrent senders each is told a different count, so exactly one
sees a sync point reach its number of predecessors (and goes on). PostgreSQL adds a
report in one statement, batched with the others that came meanwhile
(postgresql.add_report); SQLite in a few, in its serialised transaction.
"""

import json
import types

import sqlalchemy as sa

from heat_lite.common import exception
from heat_lite.db import prepared, retry, session
from heat_lite.db.models import T_INPUT, T_SYNC, utcnow
from heat_lite.db.retry import retry_on_db_error


@retry_on_db_error
def sync_point_create_many(rows):
    if rows and retry.retrying():
        row = rows[0]
        key = _sync_key(row["entity_id"], row["traversal_id"], row["is_update"])
        if session.select_one(sa.select(T_SYNC.c.atomic_key).where(*key)) is not None:
            return  # the first attempt's rows (one transaction)
    if len(rows) <= _ONE_INSERT:
        with session.autocommit() as conn:  # one multi-row INSERT: atomic on its own
            insert_sync_points(conn, rows)
        return
    with session.transaction() as conn:
        insert_sync_points(conn, rows)


def insert_sync_points(conn, rows):
    """Insert sync_point_create_many's ``rows`` on ``conn`` (stacks.stack_update's too)."""
    now = utcnow()
    for row in rows:
        row.setdefault("atomic_key", 0)
        row.setdefault("extra_data", None)
        row.setdefault("created_at", now)
    conn.execute(T_SYNC.insert(), rows)


# the rows SQLAlchemy sends as one INSERT ... VALUES (its insertmanyvalues page size)
_ONE_INSERT = 1000


def _sync_key(entity_id, traversal_id, is_update):
    return (
        T_SYNC.c.entity_id == str(entity_id),
        T_SYNC.c.traversal_id == traversal_id,
        T_SYNC.c.is_update == is_update,
    )


@retry_on_db_error
def sync_point_get(entity_id, traversal_id, is_update):
    """The sync point with its inputs (``input_data`` = ``{"input_data": {sender: data}}``)
    and the inputs' failures and skip flag merged into its ``extra_data``."""
    with session.autocommit() as conn:
        row = conn.execute(
            sa.select(T_SYNC).where(*_sync_key(entity_id, traversal_id, is_update))
        ).first()
        if row is None:
            return None
        inputs = conn.execute(
            sa.select(T_INPUT).where(
                T_INPUT.c.traversal_id == traversal_id,
                T_INPUT.c.entity_id == str(entity_id),
                T_INPUT.c.is_update == is_update,
            )
        ).all()
    return _with_inputs(row, inputs)


@retry_on_db_error
def sync_point_get_all_by_traversal(stack_id, traversal_id):
    """Every sync point of the traversal, each with its inputs as in sync_point_get."""
    with session.autocommit() as conn:
        points = conn.execute(
            sa.select(T_SYNC).where(
                T_SYNC.c.stack_id == stack_id, T_SYNC.c.traversal_id == traversal_id
            )
        ).all()
        inputs = conn.execute(
            sa.select(T_INPUT).where(T_INPUT.c.traversal_id == traversal_id)
        ).all()
    by_point = {}
    for row in inputs:
        by_point.setdefault((row.entity_id, row.is_update), []).append(row)
    return [_with_inputs(p, by_point.get((p.entity_id, p.is_update), ())) for p in points]


def _with_inputs(point, inputs):
    values = dict(point._mapping)
    values["input_data"] = {"input_data": {row.sender: row.data for row in inputs}}
    values["extra_data"] = _merge_input_extras(point.extra_data, [row.extra_data for row in inputs])
    return types.SimpleNamespace(**values)


def _merge_input_extras(base, extras):
    """One extra_data from a sync point's own and its inputs': every resource failure,
    and ``skip_propagate`` if any input had it. None when there is nothing."""
    merged = dict(base or {})
    for extra in extras:
        if not extra:
            continue
        if extra.get("resource_failures"):
            failures = dict(merged.get("resource_failures", {}))
            failures.update(extra["resource_failures"])
            merged["resource_failures"] = failures
        if extra.get("skip_propagate"):
            merged["skip_propagate"] = True
    return merged or None


class Report:
    """One sender's input to its successors' sync points (sync_point_add_input), kept
    from one attempt to the next: ``now`` stamps its input rows, so that a retry finds
    them. ``write``: the sender's deferred write sent in the report's round trip and
    transaction (PostgreSQL, a write with an event), else None; ``before``: a write to
    send first."""

    def __init__(self, entity_ids, traversal_id, is_update, sender, data, extra_data, write):
        self.entity_ids = sorted(str(e) for e in entity_ids)
        self.traversal_id, self.is_update = traversal_id, bool(is_update)
        self.sender, self.data, self.extra_data = sender, data, extra_data
        self.texts = json.dumps(data), json.dumps(extra_data)  # for the PostgreSQL statements
        self.now = utcnow()
        together = write is not None and None not in (write.statement, write.event_uuid)
        self.write, self.before = (write, None) if together else (None, write)

    @retry_on_db_error
    def send(self):
        """The report's counts (sync_point_add_input's answer)."""
        if retry.retrying():
            counts = reported_counts(self)
            if counts is not None:
                return counts
        if self.before is not None and not self.before.run():
            raise exception.UpdateInProgress(resource_name=self.before.resource_id)
        counts = add_report(self)
        if counts is None:
            raise exception.UpdateInProgress(resource_name=self.write.resource_id)
        return counts


def sync_point_add_input(
    entity_ids, traversal_id, is_update, sender, data, extra_data=None, write=None
):
    """Add the input ``sender -> data`` (with ``extra_data``) to several sync points at once.

    Returns ``{entity_id: atomic_key}`` for the sync points that exist: the number of
    inputs they hold once this one is in, or None where ``sender`` had reported already
    (nothing changed there). Atomic: of concurrent senders, each sees a different count,
    so exactly one sees a sync point reach its number of predecessors (add_report).

    ``write``: a ResourceWrite (the sender's own state, COMPLETE) sent first, in the same
    round trip and transaction on PostgreSQL; the input is added only if it matched, else
    UpdateInProgress is raised and nothing changed.

    Retried in Report.send, whose attempts share the report (db.retry): a retry after
    the report was stored answers the counts it made.
    """
    report = Report(entity_ids, traversal_id, is_update, sender, data, extra_data, write)
    return report.send()


def reported_counts(report):
    """The counts ``report`` made if an earlier attempt stored it (its input rows carry
    its ``now``), else None. An input's count is the sync point's count before its batch
    plus its rank by sender among the batch's inputs there, as add_report ranks them."""
    ranked = (
        sa.select(
            T_INPUT.c.entity_id,
            T_INPUT.c.sender,
            T_INPUT.c.created_at,
            (
                T_INPUT.c.inputs_before
                + sa.func.row_number().over(
                    partition_by=(T_INPUT.c.entity_id, T_INPUT.c.inputs_before),
                    order_by=T_INPUT.c.sender,
                )
            ).label("count"),
        )
        .where(
            T_INPUT.c.traversal_id == report.traversal_id,
            T_INPUT.c.is_update == report.is_update,
            T_INPUT.c.entity_id.in_(report.entity_ids),
        )
        .subquery()
    )
    own = sa.select(ranked).where(ranked.c.sender == report.sender).subquery()
    stmt = (
        sa.select(T_SYNC.c.entity_id, own.c.created_at, own.c.count)
        .select_from(T_SYNC.outerjoin(own, own.c.entity_id == T_SYNC.c.entity_id))
        .where(
            T_SYNC.c.entity_id.in_(report.entity_ids),
            T_SYNC.c.traversal_id == report.traversal_id,
            T_SYNC.c.is_update == report.is_update,
        )
    )
    rows = session.select_all(stmt)
    if not any(row.created_at == report.now for row in rows):
        return None
    return {row.entity_id: row.count if row.created_at == report.now else None for row in rows}


@session.postgresql_fast_path
def add_report(report):
    """Add ``report``'s inputs; its counts (sync_point_add_input's answer), None if its
    write (``report.write``) did not match. Here in a few statements in one transaction,
    which SQLite serialises; PostgreSQL: one statement, with the reports that queued
    meanwhile (postgresql.add_report)."""
    with session.transaction() as conn:
        return _add_input(conn, report)


def _add_input(conn, report):
    entity_ids, traversal_id, is_update = report.entity_ids, report.traversal_id, report.is_update
    point = (T_SYNC.c.traversal_id == traversal_id, T_SYNC.c.is_update == is_update)
    existing = dict(
        conn.execute(
            sa.select(T_SYNC.c.entity_id, T_SYNC.c.atomic_key).where(
                T_SYNC.c.entity_id.in_(entity_ids), *point
            )
        ).all()
    )
    reported = conn.execute(
        sa.select(T_INPUT.c.entity_id).where(
            T_INPUT.c.traversal_id == traversal_id,
            T_INPUT.c.is_update == is_update,
            T_INPUT.c.sender == report.sender,
            T_INPUT.c.entity_id.in_(entity_ids),
        )
    ).scalars()
    result = dict.fromkeys(existing)
    added = sorted(set(existing) - set(reported))
    if not added:
        return result
    conn.execute(
        T_INPUT.insert(),
        [
            {
                "traversal_id": traversal_id,
                "entity_id": entity_id,
                "is_update": is_update,
                "sender": report.sender,
                "data": report.data,
                "extra_data": report.extra_data,
                "created_at": report.now,
                "inputs_before": existing[entity_id],
            }
            for entity_id in added
        ],
    )
    conn.execute(
        T_SYNC.update()
        .where(T_SYNC.c.entity_id.in_(added), *point)
        .values(atomic_key=T_SYNC.c.atomic_key + 1, updated_at=report.now)
    )
    result.update((entity_id, existing[entity_id] + 1) for entity_id in added)
    return result


# sync_point_inputs reads the JSON columns as text: decoded once per distinct value
_SYNC_INPUTS = prepared.Prepared(
    sa.select(
        T_INPUT.c.entity_id,
        T_INPUT.c.sender,
        sa.type_coerce(T_INPUT.c.data, sa.Text).label("data"),
        sa.type_coerce(T_INPUT.c.extra_data, sa.Text).label("extra_data"),
    ).where(
        T_INPUT.c.traversal_id == sa.bindparam("traversal_id"),
        T_INPUT.c.is_update == sa.bindparam("is_update"),
        T_INPUT.c.entity_id.in_(sa.bindparam("entity_ids", expanding=True)),
    )
)


@retry_on_db_error
def sync_point_inputs(entity_ids, traversal_id, is_update):
    """``{entity_id: ({sender: data}, extra_data)}`` of the given sync points' inputs
    (extra_data: the inputs' failures and skip flag merged, or None).

    A sender sends the same data to all the sync points it reports to, so under full
    fan-in the 100 inputs of each of 100 sync points are 100 distinct values: each is
    decoded once, and the sync points share the decoded values (read-only)."""
    params = {
        "traversal_id": traversal_id,
        "is_update": is_update,
        "entity_ids": sorted(str(e) for e in entity_ids),
    }
    rows, _ = session.run_prepared(_SYNC_INPUTS, params)
    decoded = {None: None}

    def load(text):
        if text not in decoded:
            decoded[text] = json.loads(text)
        return decoded[text]

    grouped = {}
    for entity_id, sender, data, extra_data in rows:
        grouped.setdefault(entity_id, []).append((sender, data, extra_data))
    return {
        entity_id: (
            {sender: load(data) for sender, data, _ in group},
            _merge_input_extras(None, [load(extra_data) for _, _, extra_data in group]),
        )
        for entity_id, group in grouped.items()
    }


_SYNC_DELETE = T_SYNC.delete().where(
    T_SYNC.c.stack_id == sa.bindparam("stack_id"),
    T_SYNC.c.traversal_id == sa.bindparam("traversal_id"),
)


@retry_on_db_error
def sync_point_delete_all_by_stack_and_traversal(stack_id, traversal_id):
    return session.write(_SYNC_DELETE, {"stack_id": stack_id, "traversal_id": traversal_id})
