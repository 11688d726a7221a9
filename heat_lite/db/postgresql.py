"""heat's PostgreSQL fast path: the statements a traversal runs thousands of times.

Each function here is the PostgreSQL version of the one it is marked for
(``@session.fast_path_of(<module>.<function>)``), which every other database runs as
written; session chooses once which one runs. Their statements are prepared once per
pooled connection (db.prepared), a few sent together in one round trip and one commit,
and the writes and reports that threads of one process make meanwhile share that round
trip (group commits):

* a nested stack's start (its template, row, event and lock) and its resource rows:
  one round trip each (start_stack, insert_init_rows);
* a resource's state write with its event and properties rows: one statement, batched
  with the process's other writes to the stack (send_write, _WRITES);
* a sync point report, after the sender's deferred write: one statement, batched with the
  traversal's other reports (add_report, _REPORTS);
* its cached attributes: one statement (resource_attr_data_set).

The tests of tests/functional/db run each function and its portable twin on the real
PostgreSQL and on SQLite, with the same expectations.
"""

import functools
import uuid

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as pg_dialect

from heat_lite.common import exception, group_commit
from heat_lite.db import (
    locks,
    models,
    prepared,
    resource_data,
    resources,
    session,
    stacks,
    sync_points,
    templates,
)
from heat_lite.db.models import (
    T_EVENT,
    T_FILES,
    T_INPUT,
    T_PROPS,
    T_RAW,
    T_RSRC,
    T_STACK_LOCK,
    T_SYNC,
    utcnow,
)
from heat_lite.db.retry import is_transient_db_error


@session.fast_path_of(session.run_prepared)
def run_prepared(stmt, params):
    """A prepared.Prepared statement, PREPAREd once per pooled connection."""
    return stmt.execute(session.get_engine(), params)


def _first(stmt, params):
    rows = stmt.execute(session.get_engine(), params)[0]
    return rows[0] if rows else None


# -- templates and stacks --------------------------------------------------------------------


def _raw_template_statements():
    """The inserts of raw_template_create, built once: a template alone, and a template
    with its files' row in one statement."""
    row = [
        sa.bindparam(name, type_=T_RAW.c[name].type).label(name)
        for name in ("template", "environment", "created_at")
    ]
    alone = T_RAW.insert().from_select(
        [c.name for c in row] + ["files_id"], sa.select(*row, sa.null())
    )
    stored = (
        T_FILES.insert()
        .values(
            files=sa.bindparam("files", type_=T_FILES.c.files.type),
            created_at=sa.bindparam("created_at", type_=T_FILES.c.created_at.type),
        )
        .returning(T_FILES.c.id)
        .cte("stored_files")
    )
    with_files = T_RAW.insert().from_select(
        [c.name for c in row] + ["files_id"], sa.select(*row, stored.c.id)
    )
    returning = T_RAW.c.id
    return (
        prepared.Prepared(alone.returning(returning)),
        prepared.Prepared(with_files.returning(returning).add_cte(stored)),
    )


_RAW_INSERT, _RAW_INSERT_WITH_FILES = _raw_template_statements()


def raw_template_prepared(template, environment, files, now):
    """(prepared insert, its parameters) of a template and, if any, its files' row."""
    params = {"template": template, "environment": environment, "created_at": now}
    if not files:
        return _RAW_INSERT, params
    return _RAW_INSERT_WITH_FILES, dict(params, files=files)


@session.fast_path_of(templates.raw_template_create)
def raw_template_create(template, environment, files=None):
    """One statement: the template and, if any, its files' row (a CTE)."""
    return _first(*raw_template_prepared(template, environment, files, utcnow()))[0]


@functools.lru_cache(maxsize=8)
def _prepared_insert(table_name, columns, template_from_sequence=False):
    """A prepared INSERT of ``columns`` into ``table_name``; ``template_from_sequence``:
    its raw_template_id is the template this session inserted last (currval)."""
    table = models.Base.metadata.tables[table_name]
    row = {c: sa.bindparam(c, type_=table.c[c].type) for c in columns}
    if template_from_sequence:
        row["raw_template_id"] = _TEMPLATE_INSERTED
    return prepared.Prepared(table.insert().values(row))


_TEMPLATE_INSERTED = sa.func.currval(sa.func.pg_get_serial_sequence("raw_template", "id"))
_TEMPLATE_ID = prepared.Prepared(sa.select(_TEMPLATE_INSERTED))


@functools.lru_cache(maxsize=1)
def _lock_set_prepared():
    """stack_lock_set's upsert, prepared."""
    columns = locks.lock_values(None, None)
    row = {c: sa.bindparam(c, type_=T_STACK_LOCK.c[c].type) for c in columns}
    return prepared.Prepared(locks.lock_set_statement("postgresql").values(row))


@session.fast_path_of(stacks.start_stack)
def start_stack(values, template, event, lock):
    """The template (and its files), the stack, its event and its lock as prepared
    statements sent together, one implicit transaction: one round trip on the engine's
    critical path, where the portable version makes six (once per nested stack). The
    template's id."""
    stack = {k: v for k, v in values.items() if k != "raw_template_id"}
    statements = [
        raw_template_prepared(*template, values["created_at"]),
        (_prepared_insert("stack", tuple(sorted(stack)), True), stack),
        (_prepared_insert("event", tuple(sorted(event))), event),
        (_lock_set_prepared(), lock),
        (_TEMPLATE_ID, {}),
    ]
    rows, _ = prepared.execute_together(session.get_engine(), statements)
    return rows[0][0]


_ADVISORY_LOCK = prepared.Prepared(
    sa.select(
        sa.func.pg_advisory_xact_lock(
            sa.bindparam("kind", type_=sa.Integer),
            sa.func.hashtext(sa.bindparam("key", type_=sa.String)),
        )
    )
)


@session.fast_path_of(locks.transaction_lock)
def transaction_lock(conn, kind, key):
    """An advisory lock until the transaction ends (two keys that hash alike only wait
    for each other)."""
    conn.execute(_ADVISORY_LOCK.stmt, {"kind": kind, "key": key})


# -- resources -------------------------------------------------------------------------------


def _resource_init_statement():
    """resource_init_many's insert: one row per name of the arrays ``names``
    and ``uuids``, the shared columns from parameters, only if the root's other rows plus
    ``defined`` stay within ``limit`` (-1: no limit); returns (id, name)."""
    listed = (
        sa.func.unnest(
            sa.bindparam("names", type_=pg_dialect.ARRAY(sa.String)),
            sa.bindparam("uuids", type_=pg_dialect.ARRAY(sa.String)),
        )
        .table_valued("name", "uuid", with_ordinality="ord")
        .render_derived(name="listed")
    )
    shared = [sa.bindparam(name, type_=T_RSRC.c[name].type) for name in resources.INIT_SHARED]
    limit = sa.bindparam("limit", type_=sa.Integer)
    others = (
        sa.select(sa.func.count())
        .where(
            T_RSRC.c.root_stack_id == sa.bindparam("root_stack_id"),
            T_RSRC.c.stack_id != sa.bindparam("stack_id"),
        )
        .scalar_subquery()
    )
    within = sa.or_(limit < 0, others + sa.bindparam("defined", type_=sa.Integer) <= limit)
    rows = (
        sa.select(
            listed.c.name,
            listed.c.uuid,
            *shared,
            sa.literal_column("0"),
            sa.literal_column("'[]'"),
            sa.literal_column("'[]'"),
        )
        .where(within)
        .order_by(listed.c.ord)
    )
    columns = ["name", "uuid", *resources.INIT_SHARED, "atomic_key", "requires", "needed_by"]
    insert = T_RSRC.insert().from_select(columns, rows)
    return prepared.Prepared(insert.returning(T_RSRC.c.id, T_RSRC.c.name))


_RSRC_INIT = _resource_init_statement()


@session.fast_path_of(resources.insert_init_rows)
def insert_init_rows(names, values, budget):
    """One round trip and one transaction: the root's lock, then the insert that counts
    the root's rows itself (a nested stack's creation waited for five round trips here).

    :raises: RequestLimitExceeded (nothing is inserted)
    """
    root_stack_id, limit, _, defined = budget or (values["root_stack_id"], -1, None, 0)
    params = dict(
        values,
        names=list(names),
        uuids=[str(uuid.uuid4()) for _ in names],
        root_stack_id=root_stack_id,
        limit=limit,
        defined=defined,
    )
    statements = [(_RSRC_INIT, params)]
    if budget is not None:
        lock = {"kind": locks.ROOT_RESOURCES, "key": root_stack_id}
        statements.insert(0, (_ADVISORY_LOCK, lock))
    rows, _ = prepared.execute_together(session.get_engine(), statements)
    if len(rows) < len(names):
        raise exception.resource_limit_exceeded()
    ids = {name: rsrc_id for rsrc_id, name in rows}
    return [ids[name] for name in names]


@session.fast_path_of(resources.write_statement)
def write_statement(write):
    """A ResourceWrite's (Prepared, params): its CAS update and, from the UPDATE's
    RETURNING, its event and properties rows, in one statement (_update_and_event)."""
    params = write.params
    if write.props_data is not None:
        params.update(p_data=write.props_data, p_created_at=utcnow())
    event_columns = tuple(sorted(write.event)) if write.event is not None else None
    columns = tuple(sorted(write.values))
    stmt = _pg_update_and_event(
        columns, write.unlocked, event_columns, write.props_data is not None
    )
    return stmt, params


@session.fast_path_of(resources.send_write)
def send_write(write):
    """A write with an event goes with the others that came meanwhile (_WRITES)."""
    if write.event_uuid is not None:
        return _WRITES.submit(write.event["stack_id"], write)
    return _execute(write)


def _execute(write):
    stmt, params = write.statement
    return stmt.execute(session.get_engine(), params)[1] > 0


_EVENTS_WRITTEN = prepared.Prepared(
    sa.select(T_EVENT.c.uuid).where(T_EVENT.c.uuid.in_(sa.bindparam("uuids", expanding=True)))
)


def _send_writes(_stack_id, writes):
    """Send ``writes`` (ResourceWrites with events) in one round trip and one commit;
    whether each matched: its event exists exactly when it did (_update_and_event)."""
    if len(writes) == 1:
        return [_execute(writes[0])]
    # resource rows in id order: two batches never wait for each other's
    statements = [write.statement for write in sorted(writes, key=lambda w: w.resource_id)]
    uuids = {"uuids": [write.event_uuid for write in writes]}
    rows, _ = prepared.execute_together(
        session.get_engine(), statements + [(_EVENTS_WRITTEN, uuids)]
    )
    written = {row[0] for row in rows}
    return [write.event_uuid in written for write in writes]


def _split_batch(exc):
    """A batch that failed for a reason of its own items (not a lost connection, a
    deadlock) is sent again item by item: only the item at fault fails."""
    return not is_transient_db_error(exc)


# The writes a process's threads make at the same time to one stack's resources (each
# node's IN_PROGRESS: a traversal's many at once) share a round trip and a commit:
# PostgreSQL flushes its WAL once per commit, serially, and under a 1,000-resource
# traversal's load a flush took ~2 ms: one commit per write made them the traversal's pace
# (548 flushes, 1.06 s of a 2.2 s wide create; 188 and 0.41 s batched).
_WRITES = group_commit.GroupCommit(
    _send_writes, max_items=100, tag=lambda write: write.resource_id, alone=_split_batch
)


@functools.lru_cache(maxsize=256)
def _pg_update_and_event(columns, unlocked, event_columns, new_props):
    """The CAS update (resources.cas_update) with its event and properties rows as one PostgreSQL
    statement, prepared; more parameters: ``e_<event column>`` and ``p_data``,
    ``p_created_at``."""
    return prepared.Prepared(_update_and_event(columns, unlocked, event_columns, new_props))


def _update_and_event(columns, unlocked, event_columns, new_props):
    """The statement of _pg_update_and_event.

    The rows are inserted from the UPDATE's RETURNING, so they exist exactly when the
    write matched; the new properties row takes its id from its sequence in the UPDATE
    (the foreign key is checked at the end of the statement, when the row exists).
    """
    stmt = resources.cas_update(columns, unlocked, new_props)
    if event_columns is None and not new_props:
        return stmt
    updated = stmt.returning(T_RSRC.c.rsrc_prop_data_id).cte("updated")
    props = None
    if new_props:
        props = T_PROPS.insert().from_select(
            ["id", "data", "created_at"],
            sa.select(
                updated.c.rsrc_prop_data_id,
                sa.bindparam("p_data", type_=T_PROPS.c.data.type),
                sa.bindparam("p_created_at", type_=T_PROPS.c.created_at.type),
            ).select_from(updated),
        )
        if event_columns is None:
            return props
    source = sa.select(
        *[sa.bindparam("e_" + n, type_=T_EVENT.c[n].type).label(n) for n in event_columns],
        updated.c.rsrc_prop_data_id,
    ).select_from(updated)
    insert = T_EVENT.insert().from_select(list(event_columns) + ["rsrc_prop_data_id"], source)
    if props is not None:
        insert = insert.add_cte(props.cte("props"))
    return insert


def _attr_data_statement(with_data):
    """resource_attr_data_set in one statement: insert the new values' row
    (``with_data``; not for a resource that is gone), point the resource at it, delete
    the row it pointed at. Only the worker holding the resource writes its attributes."""
    new = (
        "new AS (INSERT INTO resource_properties_data (data, created_at) "
        "SELECT :data, :now WHERE EXISTS (SELECT 1 FROM resource WHERE id = :resource_id) "
        "RETURNING id), "
        if with_data
        else ""
    )
    target = "(SELECT id FROM new)" if with_data else "NULL"
    stmt = sa.text(
        "WITH old AS (SELECT attr_data_id AS id FROM resource WHERE id = :resource_id), "
        + new
        + "pointed AS (UPDATE resource SET attr_data_id = %s WHERE id = :resource_id "
        "RETURNING id) "
        "DELETE FROM resource_properties_data WHERE id = (SELECT id FROM old) "
        "AND EXISTS (SELECT 1 FROM pointed)" % target
    )
    params = [sa.bindparam("resource_id", type_=T_RSRC.c.id.type)]
    if with_data:
        params += [
            sa.bindparam("data", type_=T_PROPS.c.data.type),
            sa.bindparam("now", type_=T_PROPS.c.created_at.type),
        ]
    return prepared.Prepared(stmt.bindparams(*params))


_ATTR_DATA_SET, _ATTR_DATA_CLEAR = _attr_data_statement(True), _attr_data_statement(False)


@session.fast_path_of(resource_data.resource_attr_data_set)
def resource_attr_data_set(resource_id, data):
    """One statement (_attr_data_statement)."""
    if data:
        params = {"resource_id": resource_id, "data": data, "now": utcnow()}
        _ATTR_DATA_SET.execute(session.get_engine(), params)
    else:
        _ATTR_DATA_CLEAR.execute(session.get_engine(), {"resource_id": resource_id})


# -- sync points -----------------------------------------------------------------------------


# A worker's reports to one traversal's sync points go as group commits: one batch in
# flight per traversal and process, carrying every report that queued behind the last
# (heat_lite.common.group_commit). The reports of one traversal mostly lock the same rows
# (the next layer's sync points, the stack's own): one at a time, each paid a round trip
# and a commit with those rows locked (a 1,000-resource wide stack: 1,000 reports in a
# row on the stack's sync point); queued in PostgreSQL instead, each waiter re-reads every
# version of every row it waited for (a 1000-resource full fan-in, 2 workers: 7,300
# buffers and 22 s of PostgreSQL CPU for the 1,800 reports, against 2,600 and 15 s queued
# here).
#
# A lone report is one statement (_pg_add_input), after its write. A batch is its
# reports' writes, then one statement (_PG_REPORTS): the sync points of all its reports
# are locked in entity order first (two batches reporting to overlapping sets queue
# behind each other instead of deadlocking) and their counts read, an input row is added
# where the sender has none yet, and each sync point's count is raised by its new inputs.
# It answers the counts before the batch, the rank of each new input at its sync point
# and the reports whose write did not match (their event is missing: they add nothing);
# _send_reports tells each input the count it made, before + rank, so of all senders each
# sees a different count and exactly one sees a sync point reach its number of
# predecessors. (Joined in the statement, the planner, which cannot estimate the rows of
# the statement's own steps, looped: 1.3 s for 20 reports to 100 sync points.)
#
# Each input row keeps the count before its batch (inputs_before) and its report's time
# (created_at): a report retried after its commit's answer was lost finds its rows and
# the counts they made, the same ranks again (sync_points.reported_counts).
def _pg_add_input(guarded):
    """The statement of sync_point_add_input; ``guarded``: only if the event ``:g_event``
    exists (the resource write sent before it in the same transaction matched), else
    one row ``(NULL, NULL)``."""
    guard, checked, failed = "", "", ""
    if guarded:
        guard = "guard AS (SELECT 1 FROM event WHERE uuid = :g_event), "
        checked = "AND EXISTS (SELECT 1 FROM guard) "
        failed = " UNION ALL SELECT NULL, NULL WHERE NOT EXISTS (SELECT 1 FROM guard)"
    binds = [
        sa.bindparam("entity_ids", type_=T_SYNC.c.entity_id.type, expanding=True),
        sa.bindparam("traversal_id", type_=T_SYNC.c.traversal_id.type),
        sa.bindparam("is_update", type_=sa.Boolean),
        sa.bindparam("sender", type_=T_INPUT.c.sender.type),
        sa.bindparam("data", type_=sa.Text),
        sa.bindparam("extra_data", type_=sa.Text),
        sa.bindparam("now", type_=sa.DateTime),
    ]
    if guarded:
        binds.append(sa.bindparam("g_event", type_=T_EVENT.c.uuid.type))
    return prepared.Prepared(
        sa.text(
            "WITH " + guard + "locked AS (SELECT entity_id, atomic_key FROM sync_point "
            "WHERE entity_id IN :entity_ids "
            "AND traversal_id = :traversal_id AND is_update = :is_update "
            + checked
            + "ORDER BY entity_id FOR UPDATE), "
            "added AS (INSERT INTO sync_point_input (traversal_id, entity_id, is_update, "
            "sender, data, extra_data, created_at, inputs_before) "
            "SELECT :traversal_id, entity_id, :is_update, :sender, :data, :extra_data, :now, "
            "atomic_key FROM locked ON CONFLICT DO NOTHING RETURNING entity_id), "
            "counted AS (UPDATE sync_point SET atomic_key = sync_point.atomic_key + 1, "
            "updated_at = :now FROM added WHERE sync_point.entity_id = added.entity_id "
            "AND sync_point.traversal_id = :traversal_id AND sync_point.is_update = :is_update "
            "RETURNING sync_point.entity_id, sync_point.atomic_key) "
            "SELECT locked.entity_id, counted.atomic_key FROM locked "
            "LEFT JOIN counted ON counted.entity_id = locked.entity_id" + failed
        ).bindparams(*binds)
    )


_PG_ADD_INPUT = _pg_add_input(guarded=False)
_PG_ADD_INPUT_AFTER_WRITE = _pg_add_input(guarded=True)

_PG_REPORTS = prepared.Prepared(
    sa.text(
        "WITH req AS (SELECT * FROM unnest(:r_idx, :r_sender, :r_data, :r_extra, :r_event, "
        ":r_now) AS r(idx, sender, data, extra_data, g_event, now)), "
        "ok AS (SELECT * FROM req WHERE req.g_event IS NULL "
        "OR EXISTS (SELECT 1 FROM event WHERE event.uuid = req.g_event)), "
        "locked AS (SELECT entity_id, atomic_key FROM sync_point "
        "WHERE entity_id = ANY(:p_entity) "
        "AND traversal_id = :traversal_id AND is_update = :is_update "
        "ORDER BY entity_id FOR UPDATE), "
        "added AS (INSERT INTO sync_point_input (traversal_id, entity_id, is_update, "
        "sender, data, extra_data, created_at, inputs_before) "
        "SELECT :traversal_id, p.entity_id, :is_update, ok.sender, ok.data, ok.extra_data, "
        "ok.now, locked.atomic_key "
        "FROM unnest(:p_idx, :p_entity) AS p(idx, entity_id) JOIN ok ON ok.idx = p.idx "
        "JOIN locked ON locked.entity_id = p.entity_id "
        "ON CONFLICT DO NOTHING RETURNING entity_id, sender), "
        "counted AS (UPDATE sync_point SET atomic_key = sync_point.atomic_key + n.new, "
        "updated_at = :now FROM (SELECT entity_id, count(*) AS new FROM added "
        "GROUP BY entity_id) AS n WHERE sync_point.entity_id = n.entity_id "
        "AND sync_point.traversal_id = :traversal_id AND sync_point.is_update = :is_update) "
        "SELECT NULL::int AS idx, NULL AS sender, entity_id, atomic_key FROM locked "
        "UNION ALL SELECT NULL, sender, entity_id, "
        "row_number() OVER (PARTITION BY entity_id ORDER BY sender) FROM added "
        "UNION ALL SELECT idx, NULL, NULL, NULL FROM req "
        "WHERE NOT EXISTS (SELECT 1 FROM ok WHERE ok.idx = req.idx)"
    ).bindparams(
        sa.bindparam("r_idx", type_=sa.ARRAY(sa.Integer)),
        sa.bindparam("r_sender", type_=sa.ARRAY(T_INPUT.c.sender.type)),
        sa.bindparam("r_data", type_=sa.ARRAY(sa.Text)),
        sa.bindparam("r_extra", type_=sa.ARRAY(sa.Text)),
        sa.bindparam("r_event", type_=sa.ARRAY(T_EVENT.c.uuid.type)),
        sa.bindparam("r_now", type_=sa.ARRAY(sa.DateTime)),
        sa.bindparam("p_idx", type_=sa.ARRAY(sa.Integer)),
        sa.bindparam("p_entity", type_=sa.ARRAY(T_SYNC.c.entity_id.type)),
        sa.bindparam("traversal_id", type_=T_SYNC.c.traversal_id.type),
        sa.bindparam("is_update", type_=sa.Boolean),
        sa.bindparam("now", type_=sa.DateTime),
    )
)


def _send_reports(key, reports):
    """Send a batch of ``reports`` of traversal ``key``; each one's ``{entity_id:
    atomic_key}``, or None where its write did not match."""
    traversal_id, is_update = key
    params = {"traversal_id": traversal_id, "is_update": is_update}
    if len(reports) == 1:
        (report,) = reports
        params.update(
            entity_ids=report.entity_ids,
            sender=report.sender,
            data=report.texts[0],
            extra_data=report.texts[1],
            now=report.now,
        )
        if report.write is None:
            return [dict(_PG_ADD_INPUT.execute(session.get_engine(), params)[0])]
        params["g_event"] = report.write.event_uuid
        rows = prepared.execute_together(
            session.get_engine(), [report.write.statement, (_PG_ADD_INPUT_AFTER_WRITE, params)]
        )[0]
        return [None if rows and rows[0][0] is None else dict(rows)]
    params.update(
        r_idx=list(range(len(reports))),
        r_sender=[report.sender for report in reports],
        r_data=[report.texts[0] for report in reports],
        r_extra=[report.texts[1] for report in reports],
        r_event=[report.write and report.write.event_uuid for report in reports],
        r_now=[report.now for report in reports],
        p_idx=[i for i, report in enumerate(reports) for _ in report.entity_ids],
        p_entity=[entity for report in reports for entity in report.entity_ids],
        now=utcnow(),
    )
    # resource rows in id order too: two batches never wait for each other's
    writes = sorted(
        (report.write for report in reports if report.write is not None),
        key=lambda write: write.resource_id,
    )
    statements = [write.statement for write in writes] + [(_PG_REPORTS, params)]
    rows, _ = prepared.execute_together(session.get_engine(), statements)
    before, made, failed = {}, {}, set()
    for idx, sender, entity_id, number in rows:
        if idx is not None:
            failed.add(idx)
        elif sender is None:
            before[entity_id] = number
        else:
            made[sender, entity_id] = number
    results = []
    for idx, report in enumerate(reports):
        if idx in failed:
            results.append(None)
            continue
        counts = {}
        for entity_id in report.entity_ids:
            if entity_id in before:
                rank = made.get((report.sender, entity_id))
                counts[entity_id] = None if rank is None else before[entity_id] + rank
        results.append(counts)
    return results


_REPORTS = group_commit.GroupCommit(
    _send_reports, max_items=100, tag=lambda report: report.sender, alone=_split_batch
)


@session.fast_path_of(sync_points.add_report)
def add_report(report):
    """One statement, with the reports of the traversal that queued meanwhile (_REPORTS)."""
    return _REPORTS.submit((report.traversal_id, report.is_update), report)
