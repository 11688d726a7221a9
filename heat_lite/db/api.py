"""Heat's database API: small functions, one statement each where possible.

Core statements on the model tables; rows come back as SQLAlchemy ``Row`` objects
(attribute access). Compare-and-swap writes return whether a row matched.

    db_api.configure('postgresql+psycopg2://postgres@127.0.0.1/heat')
    with db_api.transaction() as conn:
        ...
    db_api.stack_get(stack_id)

SQLite (the embedded default) serialises every transaction through one lock, so green
or native threads of one process never meet a "database is locked" error.
"""

import contextlib
import functools
import json
import threading
import types
import uuid

import sqlalchemy as sa
from sqlalchemy import pool
from sqlalchemy.dialects import postgresql, sqlite

from heat_lite.common import exception, group_commit
from heat_lite.db import models, prepared, retry
from heat_lite.db.retry import is_transient_db_error, retry_on_db_error

_ENGINE = None
_GENERATION = 0
_SQLITE_LOCK = None

T_RAW = models.RawTemplate.__table__
T_FILES = models.RawTemplateFiles.__table__
T_STACK = models.Stack.__table__
T_TAG = models.StackTag.__table__
T_RSRC = models.Resource.__table__
T_RDATA = models.ResourceData.__table__
T_PROPS = models.ResourcePropertiesData.__table__
T_EVENT = models.Event.__table__
T_SYNC = models.SyncPoint.__table__
T_INPUT = models.SyncPointInput.__table__
T_CREDS = models.UserCreds.__table__
T_SERVICE = models.Service.__table__

utcnow = models.utcnow


def stamp_id(values):
    """Give ``values`` (the caller's dict) a new ``id`` unless it has one: the row's id
    stays the same in every attempt of a retried create (db.retry)."""
    if not values.get("id"):
        values["id"] = str(uuid.uuid4())
    return values["id"]


def configure(url, max_pool_size=16, max_overflow=0):
    """Create the process-wide engine for ``url`` (replacing any previous one).

    On PostgreSQL its connections run in autocommit mode: the single statements that make
    up most of the traffic take one round trip each (no BEGIN/COMMIT), and transaction()
    sends BEGIN itself. One pool serves both, sized for every RPC handler thread to hold
    a connection, and keeps what it opens (a connection made per burst costs PostgreSQL a
    backend start-up: 3 of 7 s of its CPU in a 10-cluster create, with two pools).
    """
    global _ENGINE, _SQLITE_LOCK, _GENERATION
    dispose()
    _GENERATION += 1
    if url.startswith("sqlite"):
        _ENGINE = sa.create_engine(
            url, connect_args={"check_same_thread": False}, poolclass=pool.StaticPool
        )
        sa.event.listen(_ENGINE, "connect", _sqlite_foreign_keys)
        _SQLITE_LOCK = threading.RLock()
    else:
        _ENGINE = sa.create_engine(
            url,
            isolation_level="AUTOCOMMIT",
            pool_size=max_pool_size,
            max_overflow=max_overflow,
            pool_recycle=3600,
        )
        _SQLITE_LOCK = None
    return _ENGINE


def _sqlite_foreign_keys(dbapi_connection, connection_record):
    """SQLite checks foreign keys only when asked, per connection: ask, as PostgreSQL does."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def generation():
    """Changes whenever the database is reconfigured: part of every cache key of ids."""
    return _GENERATION


def get_engine():
    if _ENGINE is None:
        from heat_lite.conf import CONF

        configure(
            CONF.database.connection,
            CONF.database.max_pool_size,
            CONF.database.max_overflow,
        )
    return _ENGINE


def dispose():
    global _ENGINE
    if _ENGINE is not None:
        _ENGINE.dispose()
    _ENGINE = None


def create_schema():
    """Create every table directly (tests and the embedded default; alembic elsewhere)."""
    models.Base.metadata.create_all(get_engine())


@contextlib.contextmanager
def transaction():
    """A connection inside BEGIN ... COMMIT, rolled back if the block raises."""
    get_engine()
    lock = _SQLITE_LOCK
    if lock is not None:
        with lock, _ENGINE.begin() as conn:
            yield conn
        return
    with _ENGINE.connect() as conn:
        conn.exec_driver_sql("BEGIN")
        try:
            yield conn
        except BaseException:
            _rollback(conn)
            raise
        conn.exec_driver_sql("COMMIT")


def _rollback(conn):
    # the driver does not roll back on its own a transaction begun by hand (it is in
    # autocommit mode): a connection that cannot is dropped, never pooled mid-transaction
    try:
        conn.exec_driver_sql("ROLLBACK")
    except Exception:
        conn.invalidate()


@contextlib.contextmanager
def autocommit():
    """A connection for one statement: no BEGIN/COMMIT round trips on PostgreSQL."""
    get_engine()
    lock = _SQLITE_LOCK
    if lock is not None:
        with lock, _ENGINE.begin() as conn:
            yield conn
    else:
        with _ENGINE.connect() as conn:
            yield conn


def _one(stmt, params=None):
    """The first row of ``stmt`` (run with bound ``params``, for statements built once)."""
    with autocommit() as conn:
        return conn.execute(stmt, params).first()


def _all(stmt, params=None):
    with autocommit() as conn:
        return conn.execute(stmt, params).all()


def _write(stmt, params=None):
    with autocommit() as conn:
        return conn.execute(stmt, params).rowcount


def _holds(table, where, values):
    """Whether the row of ``table`` that ``where`` selects holds ``values``: how a write
    retried after a transient error finds its first attempt stored (db.retry)."""
    columns = [table.c[name] for name in values]
    # JSON columns compared as the text the write stored
    read = [sa.type_coerce(c, sa.Text) if isinstance(c.type, models.Json) else c for c in columns]
    row = _one(sa.select(*read).where(*where))
    if row is None:
        return False
    for column, value, stored in zip(columns, values.values(), row, strict=True):
        if isinstance(column.type, models.Json):
            value = column.type.process_bind_param(value, None)
        if stored != value:
            return False
    return True


def _run_prepared(stmt, params):
    """(rows or None, rowcount) of a prepared.Prepared statement: PREPAREd on PostgreSQL,
    run the ordinary way on SQLite."""
    get_engine()
    if _SQLITE_LOCK is None:
        return stmt.execute(_ENGINE, params)
    with autocommit() as conn:
        result = conn.execute(stmt.stmt, params)
        return (result.all() if result.returns_rows else None), result.rowcount


def _first_prepared(stmt, params):
    """The first row of a prepared.Prepared select, or None."""
    rows = _run_prepared(stmt, params)[0]
    return rows[0] if rows else None


# raw_template ---------------------------------------------------------------------------


def _raw_template_statements():
    """The inserts of raw_template_create, built once: a template alone, and (PostgreSQL)
    a template with its files' row in one statement."""
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


def _raw_template_prepared(template, environment, files, now):
    """(prepared insert, its parameters) of a template and, if any, its files' row."""
    params = {"template": template, "environment": environment, "created_at": now}
    if not files:
        return _RAW_INSERT, params
    return _RAW_INSERT_WITH_FILES, dict(params, files=files)


@retry_on_db_error
def raw_template_create(template, environment, files=None):
    """Insert a template (and its files' row); its id. On PostgreSQL one statement."""
    now = utcnow()
    if files and _SQLITE_LOCK is not None:
        with transaction() as conn:
            return _raw_template_insert(conn, template, environment, files, now)
    return _first_prepared(*_raw_template_prepared(template, environment, files, now))[0]


def _raw_template_insert(conn, template, environment, files, now):
    """raw_template_create's rows inserted on ``conn`` (inside its transaction); the id."""
    files_id = _inserted_id(conn, T_FILES, {"files": files, "created_at": now}) if files else None
    row = {"template": template, "environment": environment, "files_id": files_id}
    return _inserted_id(conn, T_RAW, dict(row, created_at=now))


_RAW_GET = prepared.Prepared(
    sa.select(T_RAW, T_FILES.c.files.label("files_data"))
    .select_from(T_RAW.outerjoin(T_FILES, T_RAW.c.files_id == T_FILES.c.id))
    .where(T_RAW.c.id == sa.bindparam("template_id")),
    named=True,
)


@retry_on_db_error
def raw_template_get(template_id):
    row = _first_prepared(_RAW_GET, {"template_id": template_id})
    if row is None:
        raise exception.EntityNotFound(entity="Template", name=template_id)
    return row


@retry_on_db_error
def raw_template_delete(template_id):
    with transaction() as conn:
        row = conn.execute(sa.select(T_RAW.c.files_id).where(T_RAW.c.id == template_id)).first()
        conn.execute(T_RAW.delete().where(T_RAW.c.id == template_id))
        if row is not None and row.files_id is not None:
            conn.execute(T_FILES.delete().where(T_FILES.c.id == row.files_id))


# user_creds -----------------------------------------------------------------------------


@retry_on_db_error
def user_creds_create(context):
    return _insert_id(T_CREDS, _creds_values(context))


def _creds_values(context):
    return dict(
        username=context.username,
        tenant=context.project_name,
        tenant_id=context.project_id,
        region_name=context.region_name,
        auth_url=context.auth_url,
        trustor_user_id=context.user_id,
        created_at=utcnow(),
    )


@retry_on_db_error
def user_creds_delete(creds_id):
    """Delete credentials; the deleted nested stacks that shared them let go first (their
    rows stay, soft-deleted, and would otherwise hold the foreign key)."""
    with transaction() as conn:
        conn.execute(
            T_STACK.update()
            .where(T_STACK.c.user_creds_id == creds_id, T_STACK.c.deleted_at.is_not(None))
            .values(user_creds_id=None)
        )
        conn.execute(T_CREDS.delete().where(T_CREDS.c.id == creds_id))


def _insert_id(table, values):
    with transaction() as conn:
        return _inserted_id(conn, table, values)


def _inserted_id(conn, table, values):
    """Insert ``values`` into ``table`` on ``conn``; the new row's id."""
    return conn.execute(table.insert().values(**values)).inserted_primary_key[0]


# stack ----------------------------------------------------------------------------------


@retry_on_db_error
def stack_create(
    values, tags=None, max_stacks=None, template=None, creds_of=None, event=None, engine_id=None
):
    """Insert a stack row and its tags; the database holds the project's rules.

    A live stack's name is unique in its project (a partial unique index): the loser of
    two parallel creates gets StackExists. With ``max_stacks``, the project's live
    top-level stacks are counted under a lock on the project, in the inserting
    transaction: at most ``max_stacks`` exist whatever runs in parallel.

    A create that starts its traversal at once stores everything in that transaction (one
    commit, nothing left behind by a refusal): ``template`` ``(template, environment,
    files)`` and, with ``creds_of`` (a context), new credentials, the rows the stack
    refers to; ``event``, its first event; ``engine_id``, its lock (stack_lock_set).
    Returns the stack's ``(raw_template_id, user_creds_id)``.

    :raises: StackExists; RequestLimitExceeded (max_stacks_per_tenant)
    """
    now = values.setdefault("created_at", utcnow())
    if retry.retrying():
        stored = stack_get(values["id"], show_deleted=True)
        if stored is not None:  # the first attempt's commit (the id is the caller's)
            return stored.raw_template_id, stored.user_creds_id
    try:
        alone = all(extra is None for extra in (max_stacks, template, creds_of, event, engine_id))
        together = None not in (template, event, engine_id) and not tags
        if alone and not tags:
            _write(T_STACK.insert().values(**values))  # nothing else: one statement
        elif _SQLITE_LOCK is None and together and max_stacks is None and creds_of is None:
            # a nested stack's start: one round trip (_started_stack_insert)
            values["raw_template_id"] = _started_stack_insert(values, template, event, engine_id)
        else:
            with transaction() as conn:
                if max_stacks is not None:
                    _lock(conn, _LOCK_PROJECT_STACKS, values["tenant"])
                    if _count_live_top_stacks(conn, values["tenant"]) >= max_stacks:
                        raise exception.stack_limit_exceeded(max_stacks)
                if template is not None:
                    values["raw_template_id"] = _raw_template_insert(conn, *template, now)
                if creds_of is not None:
                    values["user_creds_id"] = _inserted_id(conn, T_CREDS, _creds_values(creds_of))
                conn.execute(T_STACK.insert().values(**values))
                if tags:
                    stack_tags = [{"stack_id": values["id"], "tag": t} for t in tags]
                    conn.execute(T_TAG.insert(), stack_tags)
                if event is not None:
                    conn.execute(T_EVENT.insert(), _event_values(event))
                if engine_id is not None:
                    conn.execute(_lock_set(), _lock_values(values["id"], engine_id))
    except sa.exc.IntegrityError:
        if stack_get_by_name(values.get("tenant"), values.get("name")) is not None:
            raise exception.StackExists(stack_name=values.get("name"))
        raise
    return values["raw_template_id"], values.get("user_creds_id")


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
    """stack_lock_set's upsert, prepared (PostgreSQL)."""
    columns = _lock_values(None, None)
    row = {c: sa.bindparam(c, type_=T_STACK_LOCK.c[c].type) for c in columns}
    return prepared.Prepared(_lock_set_statement("postgresql").values(row))


def _started_stack_insert(values, template, event, engine_id):
    """stack_create of a stack that starts at once with a new template (a nested stack's
    create), on PostgreSQL: the template (and its files), the stack, its event and its
    lock as prepared statements sent together, one implicit transaction (it took six round
    trips on the engine's critical path, once per nested stack). The template's id."""
    stack = {k: v for k, v in values.items() if k != "raw_template_id"}
    event_values = _event_values(event)
    statements = [
        _raw_template_prepared(*template, values["created_at"]),
        (_prepared_insert("stack", tuple(sorted(stack)), True), stack),
        (_prepared_insert("event", tuple(sorted(event_values))), event_values),
        (_lock_set_prepared(), _lock_values(values["id"], engine_id)),
        (_TEMPLATE_ID, {}),
    ]
    rows, _ = prepared.execute_together(get_engine(), statements)
    return rows[0][0]


# kinds of transaction-scoped locks (the first key of a PostgreSQL advisory lock)
_LOCK_PROJECT_STACKS = 1
_LOCK_ROOT_RESOURCES = 2


def _lock(conn, kind, key):
    """Lock ``(kind, key)`` until the transaction ends. PostgreSQL: an advisory lock
    (two keys that hash alike only wait for each other); SQLite's transactions are
    serialised already."""
    if _SQLITE_LOCK is None:
        conn.execute(_ADVISORY_LOCK.stmt, {"kind": kind, "key": key})


def _count_live_top_stacks(conn, tenant):
    return conn.execute(
        sa.select(sa.func.count()).where(
            T_STACK.c.tenant == tenant,
            T_STACK.c.deleted_at.is_(None),
            T_STACK.c.owner_id.is_(None),
        )
    ).scalar()


# every stack column but the graph, which can be large: fetched only on a cache miss
_STACK_LIGHT = [c for c in T_STACK.c if c.name != "current_deps"]


@retry_on_db_error
def stack_get(stack_id, show_deleted=False, tenant=None):
    """The stack row without ``current_deps`` (see stack_deps_get)."""
    stmt = _stack_get_statement(bool(show_deleted), tenant is not None)
    return _first_prepared(stmt, {"stack_id": stack_id, "tenant": tenant})


@functools.cache
def _stack_get_statement(show_deleted, of_tenant):
    """stack_get's query, prepared once per variant (parameters ``stack_id``, ``tenant``)."""
    stmt = sa.select(*_STACK_LIGHT).where(T_STACK.c.id == sa.bindparam("stack_id"))
    if not show_deleted:
        stmt = stmt.where(T_STACK.c.deleted_at.is_(None))
    if of_tenant:
        stmt = stmt.where(T_STACK.c.tenant == sa.bindparam("tenant"))
    return prepared.Prepared(stmt, named=True)


_DEPS_GET = prepared.Prepared(
    sa.select(T_STACK.c.current_deps).where(T_STACK.c.id == sa.bindparam("stack_id"))
)


@retry_on_db_error
def stack_deps_get(stack_id):
    """The stored convergence graph of the stack's current traversal."""
    row = _first_prepared(_DEPS_GET, {"stack_id": stack_id})
    return row[0] if row is not None else None


@retry_on_db_error
def stack_get_by_name(tenant, name):
    """The live stack ``name`` of project ``tenant`` (None: of no project)."""
    stmt = _stack_by_name_statement(tenant is None)
    return _one(stmt, {"tenant": tenant, "name": name})


@functools.cache
def _stack_by_name_statement(no_tenant):
    """stack_get_by_name's query, built once per variant (parameters ``tenant``, ``name``)."""
    tenant = T_STACK.c.tenant.is_(None) if no_tenant else T_STACK.c.tenant == sa.bindparam("tenant")
    return sa.select(*_STACK_LIGHT).where(
        tenant, T_STACK.c.name == sa.bindparam("name"), T_STACK.c.deleted_at.is_(None)
    )


@retry_on_db_error
def stack_tags_set(stack_id, tags):
    with transaction() as conn:
        conn.execute(T_TAG.delete().where(T_TAG.c.stack_id == stack_id))
        if tags:
            conn.execute(T_TAG.insert(), [{"stack_id": stack_id, "tag": t} for t in tags])


@retry_on_db_error
def stack_tags_get(stack_ids):
    """{stack_id: [tag, ...]} for the given stacks (missing ids have no tags)."""
    if not stack_ids:
        return {}
    tags = {}
    for stack_id, tag in _run_prepared(_STACK_TAGS, {"stack_ids": list(stack_ids)})[0]:
        tags.setdefault(stack_id, []).append(tag)
    return tags


_STACK_TAGS = prepared.Prepared(
    sa.select(T_TAG.c.stack_id, T_TAG.c.tag)
    .where(T_TAG.c.stack_id.in_(sa.bindparam("stack_ids", expanding=True)))
    .order_by(T_TAG.c.id)
)


_STACK_SORT_KEYS = {
    "stack_name": T_STACK.c.name,
    "name": T_STACK.c.name,
    "stack_status": T_STACK.c.status,
    "status": T_STACK.c.status,
    "creation_time": T_STACK.c.created_at,
    "created_at": T_STACK.c.created_at,
    "updated_time": T_STACK.c.updated_at,
    "updated_at": T_STACK.c.updated_at,
}

_STACK_FILTER_COLUMNS = {
    "id": T_STACK.c.id,
    "name": T_STACK.c.name,
    "status": T_STACK.c.status,
    "action": T_STACK.c.action,
    "tenant": T_STACK.c.tenant,
    "username": T_STACK.c.username,
    "owner_id": T_STACK.c.owner_id,
    "status_reason": T_STACK.c.status_reason,
    "disable_rollback": T_STACK.c.disable_rollback,
    "timeout": T_STACK.c.timeout,
    "stack_user_project_id": T_STACK.c.stack_user_project_id,
}


def _stack_query(
    tenant,
    columns=None,
    filters=None,
    show_deleted=False,
    show_nested=False,
    show_hidden=False,
    tags=None,
    tags_any=None,
    not_tags=None,
    not_tags_any=None,
):
    """The stack selection shared by listing and counting (show_hidden: no hidden tags)."""
    stmt = sa.select(*(columns if columns is not None else _STACK_LIGHT))
    if tenant is not None:
        stmt = stmt.where(T_STACK.c.tenant == tenant)
    if not show_deleted:
        stmt = stmt.where(T_STACK.c.deleted_at.is_(None))
    if not show_nested:
        stmt = stmt.where(T_STACK.c.owner_id.is_(None))
    for key, value in (filters or {}).items():
        column = _STACK_FILTER_COLUMNS.get(key)
        if column is None:
            continue
        values = value if isinstance(value, list) else [value]
        stmt = stmt.where(column.in_(values))

    def tagged(tag):
        return sa.exists().where(T_TAG.c.stack_id == T_STACK.c.id, T_TAG.c.tag == tag)

    if tags:
        stmt = stmt.where(sa.and_(*[tagged(t) for t in tags]))
    if tags_any:
        stmt = stmt.where(sa.or_(*[tagged(t) for t in tags_any]))
    if not_tags:
        stmt = stmt.where(sa.not_(sa.and_(*[tagged(t) for t in not_tags])))
    if not_tags_any:
        stmt = stmt.where(sa.not_(sa.or_(*[tagged(t) for t in not_tags_any])))
    return stmt


@retry_on_db_error
def stack_get_all(tenant=None, limit=None, sort_keys=None, marker=None, sort_dir=None, **query):
    stmt = _stack_query(tenant, **query)
    keys = [_STACK_SORT_KEYS[k] for k in (sort_keys or []) if k in _STACK_SORT_KEYS]
    if not keys:
        keys = [T_STACK.c.created_at]
        direction = sort_dir or "desc"
    else:
        direction = sort_dir or "asc"
    keys.append(T_STACK.c.id)
    order = [k.desc() if direction == "desc" else k.asc() for k in keys]
    return _page(_all(stmt.order_by(*order)), marker, limit, "id")


def _page(rows, marker, limit, key):
    """The rows after the one whose ``key`` is ``marker``, at most ``limit`` of them."""
    if marker:
        ids = [getattr(r, key) for r in rows]
        if marker in ids:
            rows = rows[ids.index(marker) + 1 :]
    if limit is not None:
        rows = rows[: int(limit)]
    return rows


@retry_on_db_error
def stack_count_all(tenant=None, **query):
    stmt = _stack_query(tenant, columns=[sa.func.count(T_STACK.c.id)], **query)
    return _one(stmt)[0]


@retry_on_db_error
def stack_update(stack_id, values, exp_trvsl=None, event=None, engine_id=None, sync_points=()):
    """Update a stack; with ``exp_trvsl`` only if its current traversal is still that one.
    Whether it did.

    In the same transaction (one commit): ``event`` is inserted first and ``engine_id``
    takes the stack's lock (stack_lock_set), whether the update matches or not (a
    traversal's start, as Heat writes its event before the state); ``sync_points``
    (sync_point_create_many's rows) only if it matched.

    A retry (db.retry) finds its first attempt stored where the stack holds ``values``
    (a new traversal's id, a graph naming its traversal, a state and its time).
    """
    if retry.retrying() and _holds(T_STACK, [T_STACK.c.id == stack_id], values):
        return True
    params = {"v_" + name: value for name, value in values.items()}
    params["w_id"] = stack_id
    if exp_trvsl is not None:
        params["w_traversal"] = exp_trvsl
    stmt = _stack_update(tuple(sorted(values)), exp_trvsl is not None)
    if event is None and engine_id is None and not sync_points:
        return _write(stmt, params) > 0
    with transaction() as conn:
        if event is not None:
            conn.execute(T_EVENT.insert(), _event_values(event))
        if engine_id is not None:
            conn.execute(_lock_set(), _lock_values(stack_id, engine_id))
        updated = conn.execute(stmt, params).rowcount > 0
        if updated and sync_points:
            _sync_point_insert(conn, sync_points)
    return updated


@functools.lru_cache(maxsize=64)
def _stack_update(columns, of_traversal):
    """stack_update's UPDATE of ``columns`` (parameters ``v_<column>``, ``w_id`` and, when
    ``of_traversal``, ``w_traversal``), built once per shape."""
    stmt = T_STACK.update().where(T_STACK.c.id == sa.bindparam("w_id"))
    if of_traversal:
        stmt = stmt.where(T_STACK.c.current_traversal == sa.bindparam("w_traversal"))
    return stmt.values(
        {name: sa.bindparam("v_" + name, type_=T_STACK.c[name].type) for name in columns}
    )


@retry_on_db_error
def stack_soft_delete(stack_id, user_creds_id=None):
    """Mark the stack deleted; with ``user_creds_id``, delete those credentials too.

    The soft-deleted nested stacks of the tree still refer to the root's credentials:
    every stack lets go of them (user_creds_id NULL) in the same transaction, so the
    foreign key holds.
    """
    with transaction() as conn:
        conn.execute(T_STACK.update().where(T_STACK.c.id == stack_id).values(deleted_at=utcnow()))
        if user_creds_id is not None:
            conn.execute(
                T_STACK.update()
                .where(T_STACK.c.user_creds_id == user_creds_id)
                .values(user_creds_id=None)
            )
            conn.execute(T_CREDS.delete().where(T_CREDS.c.id == user_creds_id))


# resource -------------------------------------------------------------------------------


@retry_on_db_error
def resource_create_many(rows, budget=None):
    """Insert resource rows in one round trip; returns their new ids in the same order.

    ``budget``: (root stack id, max_resources_per_stack, stack id, resources the stack
    defines): under a lock on the root, in the inserting transaction, every resource row
    under the root but the stack's own, plus the stack's definitions, must stay within the
    limit (parallel nested stacks of one tree cannot overshoot it together).

    :raises: RequestLimitExceeded (nothing is inserted)
    """
    if not rows:
        return []
    now = utcnow()
    for row in rows:
        row.setdefault("uuid", str(uuid.uuid4()))
        row.setdefault("created_at", now)
        row.setdefault("atomic_key", 0)
        row.setdefault("requires", [])
        row.setdefault("needed_by", [])
    if retry.retrying():
        ids = _ids_by_uuid([row["uuid"] for row in rows])  # the uuids stamped above
        if len(ids) == len(rows):
            return [ids[row["uuid"]] for row in rows]
    with transaction() as conn:
        if budget is not None:
            root_stack_id, limit, stack_id, defined = budget
            _lock(conn, _LOCK_ROOT_RESOURCES, root_stack_id)
            others = sa.select(sa.func.count()).where(
                T_RSRC.c.root_stack_id == root_stack_id, T_RSRC.c.stack_id != stack_id
            )
            if conn.execute(others).scalar() + defined > limit:
                raise exception.resource_limit_exceeded()
        result = conn.execute(
            T_RSRC.insert().returning(T_RSRC.c.id, T_RSRC.c.uuid, sort_by_parameter_order=True),
            rows,
        )
        return [r.id for r in result]


def _ids_by_uuid(uuids):
    stmt = sa.select(T_RSRC.c.uuid, T_RSRC.c.id).where(T_RSRC.c.uuid.in_(uuids))
    return dict(_all(stmt))


# the columns every INIT row of a new stack's resources shares (resource_init_many)
_RSRC_INIT_SHARED = (
    "stack_id",
    "root_stack_id",
    "action",
    "status",
    "status_reason",
    "current_template_id",
    "created_at",
)


def _resource_init_statement():
    """resource_init_many's insert on PostgreSQL: one row per name of the arrays ``names``
    and ``uuids``, the shared columns from parameters, only if the root's other rows plus
    ``defined`` stay within ``limit`` (-1: no limit); returns (id, name)."""
    listed = (
        sa.func.unnest(
            sa.bindparam("names", type_=postgresql.ARRAY(sa.String)),
            sa.bindparam("uuids", type_=postgresql.ARRAY(sa.String)),
        )
        .table_valued("name", "uuid", with_ordinality="ord")
        .render_derived(name="listed")
    )
    shared = [sa.bindparam(name, type_=T_RSRC.c[name].type) for name in _RSRC_INIT_SHARED]
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
    columns = ["name", "uuid", *_RSRC_INIT_SHARED, "atomic_key", "requires", "needed_by"]
    insert = T_RSRC.insert().from_select(columns, rows)
    return prepared.Prepared(insert.returning(T_RSRC.c.id, T_RSRC.c.name))


_RSRC_INIT = _resource_init_statement()
_ADVISORY_LOCK = prepared.Prepared(
    sa.select(
        sa.func.pg_advisory_xact_lock(
            sa.bindparam("kind", type_=sa.Integer),
            sa.func.hashtext(sa.bindparam("key", type_=sa.String)),
        )
    )
)


@retry_on_db_error
def resource_init_many(names, values, budget=None):
    """A new stack's resource rows, one per name in ``names``, all with the columns
    ``values`` (_RSRC_INIT_SHARED); their ids in ``names``' order. ``budget`` as
    resource_create_many's. On PostgreSQL one round trip and one transaction: the
    root's lock, then the insert that counts the root's rows itself (a nested stack's
    creation waited for five round trips here).

    :raises: RequestLimitExceeded (nothing is inserted)
    """
    if not names:
        return []
    if not values.get("created_at"):
        values["created_at"] = utcnow()  # kept in the caller's dict: a retry's mark
    if retry.retrying():
        ids = _init_stored(names, values)
        if ids is not None:
            return ids
    if _SQLITE_LOCK is not None:
        return resource_create_many([dict(values, name=name) for name in names], budget)
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
        lock = {"kind": _LOCK_ROOT_RESOURCES, "key": root_stack_id}
        statements.insert(0, (_ADVISORY_LOCK, lock))
    rows, _ = prepared.execute_together(get_engine(), statements)
    if len(rows) < len(names):
        raise exception.resource_limit_exceeded()
    ids = {name: rsrc_id for rsrc_id, name in rows}
    return [ids[name] for name in names]


def _init_stored(names, values):
    """The ids of resource_init_many's rows if its first attempt stored them, else None."""
    stmt = sa.select(T_RSRC.c.name, T_RSRC.c.id).where(
        T_RSRC.c.stack_id == values["stack_id"],
        T_RSRC.c.created_at == values["created_at"],
        T_RSRC.c.name.in_(list(names)),
    )
    ids = dict(_all(stmt))
    return [ids[name] for name in names] if len(ids) == len(names) else None


_RSRC_WITH_STACK = prepared.Prepared(
    sa.select(T_RSRC, *_STACK_LIGHT)
    .join(T_STACK, T_RSRC.c.stack_id == T_STACK.c.id)
    .where(T_RSRC.c.id == sa.bindparam("resource_id"))
)
_RSRC_NAMES = [c.name for c in T_RSRC.c]
_STACK_LIGHT_NAMES = [c.name for c in _STACK_LIGHT]


@retry_on_db_error
def resource_get_with_stack(resource_id):
    """(resource row, its stack's row) in one round trip; (None, None) if gone."""
    rows, _ = _run_prepared(_RSRC_WITH_STACK, {"resource_id": resource_id})
    if not rows:
        return None, None
    row = rows[0]
    split = len(_RSRC_NAMES)
    rsrc = types.SimpleNamespace(**dict(zip(_RSRC_NAMES, row[:split], strict=True)))
    stack = types.SimpleNamespace(**dict(zip(_STACK_LIGHT_NAMES, row[split:], strict=True)))
    return rsrc, stack


# what a resource list reads of a row (1,000-row lists: fewer columns
# fetched and built into rows)
_RSRC_LISTED = [
    T_RSRC.c[name]
    for name in (
        "id",
        "name",
        "nova_instance",
        "stack_id",
        "attr_data_id",
        "requires",
        "replaced_by",
        "current_template_id",
        "action",
        "status",
        "status_reason",
        "created_at",
        "updated_at",
    )
]


@retry_on_db_error
def resource_get_all_by_stack(stack_id, listed_only=False):
    """The stack's resource rows by id; ``listed_only``: only the columns a resource
    list shows (_RSRC_LISTED)."""
    stmt = sa.select(*(_RSRC_LISTED if listed_only else [T_RSRC]))
    return _all(stmt.where(T_RSRC.c.stack_id == stack_id).order_by(T_RSRC.c.id))


def _resources_version_statement():
    live_children = (
        sa.select(T_STACK.c.id)
        .where(T_STACK.c.owner_id == sa.bindparam("stack_id"), T_STACK.c.deleted_at.is_(None))
        .order_by(T_STACK.c.id)
        .subquery()
    )
    return prepared.Prepared(
        sa.select(
            sa.func.count(T_RSRC.c.id),
            sa.func.coalesce(sa.func.sum(T_RSRC.c.id), 0),
            sa.func.coalesce(sa.func.sum(T_RSRC.c.atomic_key), 0),
            # a literal separator: a bound one would be a post-compile parameter
            sa.select(
                sa.func.aggregate_strings(live_children.c.id, sa.literal_column("','"))
            ).scalar_subquery(),
        ).where(T_RSRC.c.stack_id == sa.bindparam("stack_id"))
    )


_RESOURCES_VERSION = _resources_version_statement()


@retry_on_db_error
def resources_version(stack_id):
    """A tuple that is never the same for two different states of the stack's resource
    rows and its live nested stacks' ids, however they came about: every resource write
    adds one to its row's atomic_key, and row ids are never reused, so from a state,
    (count, sum of ids, sum of atomic_keys) cannot come back to it after a change.
    One statement, far cheaper than reading the rows."""
    return tuple(_first_prepared(_RESOURCES_VERSION, {"stack_id": stack_id}))


_COUNT_BY_ROOT = prepared.Prepared(
    sa.select(sa.func.count()).where(T_RSRC.c.root_stack_id == sa.bindparam("root_stack_id"))
)


@retry_on_db_error
def resource_count_by_root(root_stack_id):
    """How many resource rows the stack tree under ``root_stack_id`` holds."""
    return _first_prepared(_COUNT_BY_ROOT, {"root_stack_id": root_stack_id})[0]


@retry_on_db_error
def resource_update(resource_id, values, atomic_key, expected_engine_id=None):
    """CAS write: matches only ``atomic_key`` and the expected lock holder (None = unlocked)."""
    return resource_update_and_event(resource_id, values, atomic_key, expected_engine_id, None)


@retry_on_db_error
def resource_update_and_event(
    resource_id, values, atomic_key, expected_engine_id, event, props_data=None
):
    """A CAS resource write plus its event row, atomically. Returns success.

    ``props_data``: the resource's properties from now on, stored as a new
    resource_properties_data row that the resource (``rsrc_prop_data_id``) and, as Heat's,
    every later event of it refer to (event show's ``resource_properties``).

    On PostgreSQL it is one statement (the event is inserted from the UPDATE's RETURNING,
    so it exists exactly when the write matched); elsewhere one transaction. Each shape of
    write (columns written, lock expected or not, event, properties) is built once
    (_cas_update, _pg_update_and_event) and run with this write's values as parameters.
    """
    if event is not None:
        event.setdefault("uuid", str(uuid.uuid4()))  # the same in every attempt
    write = ResourceWrite(resource_id, values, atomic_key, expected_engine_id, event, props_data)
    return write.run()


class ResourceWrite:
    """resource_update_and_event's write, built and not sent yet: ``run()`` sends it alone,
    sync_point_add_input(..., write=) with a sync point report (one round trip, one
    commit; the report is made only if the write matched). ``statement``: on PostgreSQL
    the (Prepared, params) of the write; ``event_uuid``: its event's, if it has one."""

    def __init__(self, resource_id, values, atomic_key, expected_engine_id, event, props_data):
        self.resource_id, self.values, self.props_data = resource_id, values, props_data
        self.unlocked = expected_engine_id is None
        self.event = _event_values(event) if event is not None else None
        self.event_uuid = self.event["uuid"] if self.event is not None else None
        self.params = {"v_" + name: value for name, value in values.items()}
        self.params.update(w_id=resource_id, w_key=atomic_key, v_atomic_key=atomic_key + 1)
        if not self.unlocked:
            self.params["w_engine"] = expected_engine_id
        if self.event is not None:
            self.params.update(("e_" + name, value) for name, value in self.event.items())
        self.statement = None
        get_engine()
        if _SQLITE_LOCK is None:
            if props_data is not None:
                self.params.update(p_data=props_data, p_created_at=utcnow())
            event_columns = tuple(sorted(self.event)) if self.event is not None else None
            stmt = _pg_update_and_event(
                tuple(sorted(values)), self.unlocked, event_columns, props_data is not None
            )
            self.statement = stmt, self.params

    @retry_on_db_error
    def run(self):
        """Send the write; whether it matched. On PostgreSQL a write with an event goes
        with the others that came meanwhile (_WRITES). A retry (db.retry) whose first
        attempt was stored answers True (_stored)."""
        if retry.retrying() and self._stored():
            return True
        if self.statement is not None:
            if self.event_uuid is not None:
                return _WRITES.submit(self.event["stack_id"], self)
            return self._execute()
        columns, params = tuple(sorted(self.values)), dict(self.params)
        with transaction() as conn:
            if self.props_data is not None:
                columns += ("rsrc_prop_data_id",)
                params["v_rsrc_prop_data_id"] = conn.execute(
                    T_PROPS.insert().values(data=self.props_data, created_at=utcnow())
                ).inserted_primary_key[0]
            if conn.execute(_cas_update(columns, self.unlocked), params).rowcount == 0:
                conn.rollback()
                return False
            if self.event is not None:
                prop_id = conn.execute(
                    sa.select(T_RSRC.c.rsrc_prop_data_id).where(T_RSRC.c.id == self.resource_id)
                ).scalar()
                conn.execute(T_EVENT.insert().values(rsrc_prop_data_id=prop_id, **self.event))
            return True

    def _execute(self):
        stmt, params = self.statement
        return stmt.execute(get_engine(), params)[1] > 0

    def _stored(self):
        """Whether the write is in the database: its event exists (it is inserted exactly
        when the write matches), or, without one, the row holds its values at the next
        atomic_key."""
        if self.event_uuid is not None:
            stmt = sa.select(T_EVENT.c.id).where(T_EVENT.c.uuid == self.event_uuid)
            return _one(stmt) is not None
        next_key = T_RSRC.c.atomic_key == self.params["v_atomic_key"]
        return _holds(T_RSRC, [T_RSRC.c.id == self.resource_id, next_key], self.values)


_EVENTS_WRITTEN = prepared.Prepared(
    sa.select(T_EVENT.c.uuid).where(T_EVENT.c.uuid.in_(sa.bindparam("uuids", expanding=True)))
)


def _send_writes(_stack_id, writes):
    """Send ``writes`` (ResourceWrites with events) in one round trip and one commit;
    whether each matched: its event exists exactly when it did (_update_and_event)."""
    if len(writes) == 1:
        return [writes[0]._execute()]
    # resource rows in id order: two batches never wait for each other's
    statements = [write.statement for write in sorted(writes, key=lambda w: w.resource_id)]
    uuids = {"uuids": [write.event_uuid for write in writes]}
    rows, _ = prepared.execute_together(get_engine(), statements + [(_EVENTS_WRITTEN, uuids)])
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
def _cas_update(columns, unlocked, new_props=False):
    """The CAS UPDATE of resource_update_and_event writing ``columns`` (and atomic_key):
    parameters ``w_id``, ``w_key`` (the expected atomic_key), ``w_engine`` (the expected
    lock holder, unless ``unlocked``) and ``v_<column>``. ``new_props``: rsrc_prop_data_id
    takes the next id of resource_properties_data's sequence (PostgreSQL)."""
    stmt = T_RSRC.update().where(
        T_RSRC.c.id == sa.bindparam("w_id"), T_RSRC.c.atomic_key == sa.bindparam("w_key")
    )
    if unlocked:
        stmt = stmt.where(T_RSRC.c.engine_id.is_(None))
    else:
        stmt = stmt.where(T_RSRC.c.engine_id == sa.bindparam("w_engine"))
    values = {
        name: sa.bindparam("v_" + name, type_=T_RSRC.c[name].type)
        for name in set(columns) | {"atomic_key"}
    }
    if new_props:
        values["rsrc_prop_data_id"] = sa.func.nextval("resource_properties_data_id_seq")
    return stmt.values(**values)


@functools.lru_cache(maxsize=256)
def _pg_update_and_event(columns, unlocked, event_columns, new_props):
    """The CAS update (_cas_update) with its event and properties rows as one PostgreSQL
    statement, prepared; more parameters: ``e_<event column>`` and ``p_data``,
    ``p_created_at``."""
    return prepared.Prepared(_update_and_event(columns, unlocked, event_columns, new_props))


def _update_and_event(columns, unlocked, event_columns, new_props):
    """The statement of _pg_update_and_event.

    The rows are inserted from the UPDATE's RETURNING, so they exist exactly when the
    write matched; the new properties row takes its id from its sequence in the UPDATE
    (the foreign key is checked at the end of the statement, when the row exists).
    """
    stmt = _cas_update(columns, unlocked, new_props)
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


@retry_on_db_error
def resource_make_replacement(old_id, atomic_key, template_id, requires, event):
    """Insert an INIT row replacing ``old_id`` and link the two, in one transaction.

    The old row must be unlocked and at ``atomic_key`` (else None is returned and nothing
    is written); ``event`` is recorded on it.
    """
    if retry.retrying():
        new_id = _replacement_stored(old_id, atomic_key, template_id)
        if new_id is not None:
            return new_id
    with transaction() as conn:
        old = conn.execute(sa.select(T_RSRC).where(T_RSRC.c.id == old_id)).first()
        if old is None:
            return None
        new_id = conn.execute(
            T_RSRC.insert().values(
                uuid=str(uuid.uuid4()),
                name=old.name,
                stack_id=old.stack_id,
                root_stack_id=old.root_stack_id,
                action="INIT",
                status="COMPLETE",
                status_reason="",
                replaces=old_id,
                requires=requires,
                needed_by=[],
                current_template_id=template_id,
                atomic_key=0,
                created_at=utcnow(),
            )
        ).inserted_primary_key[0]
        linked = conn.execute(
            T_RSRC.update()
            .where(
                T_RSRC.c.id == old_id,
                T_RSRC.c.atomic_key == atomic_key,
                T_RSRC.c.engine_id.is_(None),
            )
            .values(replaced_by=new_id, atomic_key=atomic_key + 1)
        ).rowcount
        if not linked:
            conn.rollback()
            return None
        conn.execute(T_EVENT.insert().values(**_event_values(event)))
        return new_id


def _replacement_stored(old_id, atomic_key, template_id):
    """The replacement's id if resource_make_replacement's first attempt stored it."""
    new = T_RSRC.alias("new")
    stmt = (
        sa.select(new.c.id)
        .select_from(T_RSRC.join(new, new.c.id == T_RSRC.c.replaced_by))
        .where(
            T_RSRC.c.id == old_id,
            T_RSRC.c.atomic_key == atomic_key + 1,
            new.c.replaces == old_id,
            new.c.current_template_id == template_id,
        )
    )
    row = _one(stmt)
    return row.id if row is not None else None


@retry_on_db_error
def resource_delete(resource_id):
    with transaction() as conn:
        conn.execute(T_RDATA.delete().where(T_RDATA.c.resource_id == resource_id))
        conn.execute(T_RSRC.delete().where(T_RSRC.c.id == resource_id))


_DELETED_IDS = sa.select(T_RSRC.c.id).where(
    T_RSRC.c.stack_id == sa.bindparam("stack_id"),
    T_RSRC.c.action == "DELETE",
    T_RSRC.c.status == "COMPLETE",
)


@retry_on_db_error
def resource_purge_deleted(stack_id):
    """Delete the stack's DELETE_COMPLETE resource rows (and their data).

    Most traversals end with none (a create): one read finds that out; a row that
    becomes DELETE_COMPLETE after it is purged at the next traversal's end, as one
    after the deletion's transaction would be."""
    ids = [row.id for row in _all(_DELETED_IDS, {"stack_id": stack_id})]
    if not ids:
        return
    with transaction() as conn:
        conn.execute(T_RDATA.delete().where(T_RDATA.c.resource_id.in_(ids)))
        props = conn.execute(
            sa.select(T_RSRC.c.rsrc_prop_data_id, T_RSRC.c.attr_data_id).where(T_RSRC.c.id.in_(ids))
        ).all()
        conn.execute(T_RSRC.delete().where(T_RSRC.c.id.in_(ids)))
        prop_ids = {i for row in props for i in row if i is not None}
        if prop_ids:
            # a properties row still shown by an event stays (event show)
            _delete_unreferenced_props(conn, prop_ids)


@retry_on_db_error
def resource_data_get_all(resource_id):
    rows = _all(sa.select(T_RDATA).where(T_RDATA.c.resource_id == resource_id))
    return {r.key: r.value for r in rows}


@retry_on_db_error
def resource_data_set(resource_id, key, value, redact=False):
    with transaction() as conn:
        updated = conn.execute(
            T_RDATA.update()
            .where(T_RDATA.c.resource_id == resource_id, T_RDATA.c.key == key)
            .values(value=value, redact=redact, updated_at=utcnow())
        ).rowcount
        if not updated:
            conn.execute(
                T_RDATA.insert().values(
                    resource_id=resource_id,
                    key=key,
                    value=value,
                    redact=redact,
                    created_at=utcnow(),
                )
            )


@retry_on_db_error
def resource_data_delete(resource_id, key):
    """Remove one resource_data entry (nothing happens when there is none)."""
    _write(T_RDATA.delete().where(T_RDATA.c.resource_id == resource_id, T_RDATA.c.key == key))


def _attr_data_statement(with_data):
    """resource_attr_data_set in one statement (PostgreSQL): insert the new values' row
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


@retry_on_db_error
def resource_attr_data_set(resource_id, data):
    """Store cached attribute values of a resource (``None`` clears them); the row of
    the values they replace is deleted. On PostgreSQL one statement."""
    if _SQLITE_LOCK is None:
        if data:
            params = {"resource_id": resource_id, "data": data, "now": utcnow()}
            _run_prepared(_ATTR_DATA_SET, params)
        else:
            _run_prepared(_ATTR_DATA_CLEAR, {"resource_id": resource_id})
        return
    with transaction() as conn:
        row = conn.execute(
            sa.select(T_RSRC.c.attr_data_id).where(T_RSRC.c.id == resource_id)
        ).first()
        if row is None:
            return
        old_id = row.attr_data_id
        prop_id = None
        if data:
            prop_id = conn.execute(
                T_PROPS.insert().values(data=data, created_at=utcnow())
            ).inserted_primary_key[0]
        conn.execute(T_RSRC.update().where(T_RSRC.c.id == resource_id).values(attr_data_id=prop_id))
        if old_id is not None:
            conn.execute(T_PROPS.delete().where(T_PROPS.c.id == old_id))


def _delete_unreferenced_props(conn, prop_ids):
    """Delete those resource_properties_data rows that no resource or event refers to."""
    conn.execute(
        T_PROPS.delete().where(
            T_PROPS.c.id.in_(prop_ids),
            ~sa.exists().where(T_RSRC.c.rsrc_prop_data_id == T_PROPS.c.id),
            ~sa.exists().where(T_RSRC.c.attr_data_id == T_PROPS.c.id),
            ~sa.exists().where(T_EVENT.c.rsrc_prop_data_id == T_PROPS.c.id),
        )
    )


def _attr_data_statement(by_names):
    """resource_attr_data_get's join, of the named resources (``names``) or of all."""
    where = [T_RSRC.c.stack_id == sa.bindparam("stack_id"), T_RSRC.c.replaced_by.is_(None)]
    if by_names:
        where.append(T_RSRC.c.name.in_(sa.bindparam("names", expanding=True)))
    return prepared.Prepared(
        sa.select(T_RSRC.c.name, T_PROPS.c.data)
        .join(T_PROPS, T_PROPS.c.id == T_RSRC.c.attr_data_id)
        .where(*where)
    )


_ATTR_DATA_BY_NAMES, _ATTR_DATA_ALL = _attr_data_statement(True), _attr_data_statement(False)


@retry_on_db_error
def resource_attr_data_get(stack_id, names=None):
    """{name: cached attribute values} of the stack's live resources that have some (of
    ``names`` only, if given), in one statement."""
    if names is None:
        rows = _run_prepared(_ATTR_DATA_ALL, {"stack_id": stack_id})[0]
    else:
        rows = _run_prepared(_ATTR_DATA_BY_NAMES, {"stack_id": stack_id, "names": list(names)})[0]
    return dict(rows)


@retry_on_db_error
def resource_properties_data_get(prop_id):
    """The data of a resource_properties_data row (None when there is none)."""
    row = _one(sa.select(T_PROPS.c.data).where(T_PROPS.c.id == prop_id))
    return row.data if row is not None else None


# event ----------------------------------------------------------------------------------


def _event_values(event):
    values = dict(event)
    values.setdefault("uuid", str(uuid.uuid4()))
    values.setdefault("created_at", utcnow())
    reason = values.get("resource_status_reason") or ""
    values["resource_status_reason"] = reason[:255]
    return values


@retry_on_db_error
def event_create(event):
    event.setdefault("uuid", str(uuid.uuid4()))  # the same in every attempt
    if retry.retrying() and _one(sa.select(T_EVENT.c.id).where(T_EVENT.c.uuid == event["uuid"])):
        return
    _write(T_EVENT.insert(), _event_values(event))


@retry_on_db_error
def event_count_all_by_stack(stack_id):
    return _one(sa.select(sa.func.count(T_EVENT.c.id)).where(T_EVENT.c.stack_id == stack_id))[0]


@retry_on_db_error
def event_purge_oldest(stack_id, count):
    """Delete the stack's ``count`` oldest events (and the properties rows only they used)."""
    with transaction() as conn:
        oldest = conn.execute(
            sa.select(T_EVENT.c.id, T_EVENT.c.rsrc_prop_data_id)
            .where(T_EVENT.c.stack_id == stack_id)
            .order_by(T_EVENT.c.id)
            .limit(count)
        ).all()
        conn.execute(T_EVENT.delete().where(T_EVENT.c.id.in_([row.id for row in oldest])))
        prop_ids = {row.rsrc_prop_data_id for row in oldest if row.rsrc_prop_data_id}
        if prop_ids:
            _delete_unreferenced_props(conn, prop_ids)


_EVENT_SORT_KEYS = {
    "event_time": T_EVENT.c.created_at,
    "created_at": T_EVENT.c.created_at,
    "resource_type": T_EVENT.c.resource_type,
}
_EVENT_FILTER_COLUMNS = {
    "resource_status": T_EVENT.c.resource_status,
    "resource_action": T_EVENT.c.resource_action,
    "resource_name": T_EVENT.c.resource_name,
    "resource_type": T_EVENT.c.resource_type,
    "uuid": T_EVENT.c.uuid,
}


@retry_on_db_error
def event_get_all_by_stacks(
    stack_ids, filters=None, limit=None, marker=None, sort_keys=None, sort_dir=None
):
    stmt = sa.select(T_EVENT).where(T_EVENT.c.stack_id.in_(list(stack_ids)))
    for key, value in (filters or {}).items():
        column = _EVENT_FILTER_COLUMNS.get(key)
        if column is not None:
            stmt = stmt.where(column.in_(value if isinstance(value, list) else [value]))
    keys = [_EVENT_SORT_KEYS[k] for k in (sort_keys or []) if k in _EVENT_SORT_KEYS]
    if not keys:
        keys = [T_EVENT.c.created_at]
    direction = sort_dir or ("asc" if sort_keys else "desc")
    keys.append(T_EVENT.c.id)
    stmt = stmt.order_by(*[k.desc() if direction == "desc" else k.asc() for k in keys])
    return _page(_all(stmt), marker, limit, "uuid")


# sync_point -----------------------------------------------------------------------------


@retry_on_db_error
def sync_point_create_many(rows):
    if rows and retry.retrying():
        row = rows[0]
        key = _sync_key(row["entity_id"], row["traversal_id"], row["is_update"])
        if _one(sa.select(T_SYNC.c.atomic_key).where(*key)) is not None:
            return  # the first attempt's rows (one transaction)
    if len(rows) <= _ONE_INSERT:
        with autocommit() as conn:  # one multi-row INSERT: atomic on its own
            _sync_point_insert(conn, rows)
        return
    with transaction() as conn:
        _sync_point_insert(conn, rows)


def _sync_point_insert(conn, rows):
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
    with autocommit() as conn:
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
    with autocommit() as conn:
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
# the counts they made, the same ranks again (_reported_counts).
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


class _Report:
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
            counts = _reported_counts(self)
            if counts is not None:
                return counts
        if self.before is not None and not self.before.run():
            raise exception.UpdateInProgress(resource_name=self.before.resource_id)
        if _SQLITE_LOCK is not None:
            with transaction() as conn:
                return _add_input(conn, self)
        counts = _REPORTS.submit((self.traversal_id, self.is_update), self)
        if counts is None:
            raise exception.UpdateInProgress(resource_name=self.write.resource_id)
        return counts


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
            return [dict(_PG_ADD_INPUT.execute(get_engine(), params)[0])]
        params["g_event"] = report.write.event_uuid
        rows = prepared.execute_together(
            get_engine(), [report.write.statement, (_PG_ADD_INPUT_AFTER_WRITE, params)]
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
    rows, _ = prepared.execute_together(get_engine(), statements)
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


def sync_point_add_input(
    entity_ids, traversal_id, is_update, sender, data, extra_data=None, write=None
):
    """Add the input ``sender -> data`` (with ``extra_data``) to several sync points at once.

    Returns ``{entity_id: atomic_key}`` for the sync points that exist: the number of
    inputs they hold once this one is in, or None where ``sender`` had reported already
    (nothing changed there). Atomic: of concurrent senders, each sees a different count,
    so exactly one sees a sync point reach its number of predecessors. On PostgreSQL one
    statement, with the reports that queued meanwhile (see _PG_REPORTS); elsewhere
    (SQLite, whose transactions are serialised) a few in one transaction.

    ``write``: a ResourceWrite (the sender's own state, COMPLETE) sent first, in the same
    round trip and transaction on PostgreSQL; the input is added only if it matched, else
    UpdateInProgress is raised and nothing changed.

    Retried in _Report.send, whose attempts share the report (db.retry): a retry after
    the report was stored answers the counts it made.
    """
    report = _Report(entity_ids, traversal_id, is_update, sender, data, extra_data, write)
    return report.send()


def _reported_counts(report):
    """The counts ``report`` made if an earlier attempt stored it (its input rows carry
    its ``now``), else None. An input's count is the sync point's count before its batch
    plus its rank by sender among the batch's inputs there, as _send_reports ranks them."""
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
    rows = _all(stmt)
    if not any(row.created_at == report.now for row in rows):
        return None
    return {row.entity_id: row.count if row.created_at == report.now else None for row in rows}


def _add_input(conn, report):
    """sync_point_add_input in portable statements (inside one serialised transaction)."""
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
    rows, _ = _run_prepared(_SYNC_INPUTS, params)
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
    return _write(_SYNC_DELETE, {"stack_id": stack_id, "traversal_id": traversal_id})


@retry_on_db_error
def service_create(values):
    values.setdefault("id", str(uuid.uuid4()))
    values.setdefault("created_at", utcnow())
    if retry.retrying() and _one(sa.select(T_SERVICE.c.id).where(T_SERVICE.c.id == values["id"])):
        return values["id"]
    with transaction() as conn:
        conn.execute(T_SERVICE.insert().values(**values))
    return values["id"]


@retry_on_db_error
def service_update(service_id):
    """Record a heartbeat; False when the row is gone (reaped as stale meanwhile)."""
    stmt = T_SERVICE.update().where(T_SERVICE.c.id == service_id).values(updated_at=utcnow())
    return _write(stmt) > 0


@retry_on_db_error
def service_delete(service_id):
    _write(T_SERVICE.delete().where(T_SERVICE.c.id == service_id))


@retry_on_db_error
def service_get_all():
    return _all(sa.select(T_SERVICE).where(T_SERVICE.c.deleted_at.is_(None)))


@retry_on_db_error
def service_get_by_engine_id(engine_id):
    return _one(sa.select(T_SERVICE).where(T_SERVICE.c.engine_id == engine_id))


# stack_lock: which engine is starting a stack's traversal (engine/recovery.py) ----------

T_STACK_LOCK = models.StackLock.__table__


@retry_on_db_error
def stack_lock_set(stack_id, engine_id):
    """Record that ``engine_id`` is starting the stack's traversal (replacing any holder):
    one statement, the lock row inserted or taken over. IntegrityError: the stack is gone."""
    _write(_lock_set(), _lock_values(stack_id, engine_id))


def _lock_values(stack_id, engine_id):
    return {"stack_id": stack_id, "engine_id": engine_id, "created_at": utcnow()}


@functools.lru_cache(maxsize=2)
def _lock_set_statement(dialect_name):
    module = {"postgresql": postgresql, "sqlite": sqlite}[dialect_name]
    insert = module.insert(T_STACK_LOCK)
    return insert.on_conflict_do_update(
        index_elements=[T_STACK_LOCK.c.stack_id],
        set_={"engine_id": insert.excluded.engine_id, "updated_at": insert.excluded.created_at},
    )


def _lock_set():
    return _lock_set_statement(get_engine().dialect.name)


@retry_on_db_error
def stack_lock_take(stack_id, engine_id):
    """Take the lock if nobody holds it; whether this caller got it."""
    try:
        _write(
            T_STACK_LOCK.insert(),
            {"stack_id": stack_id, "engine_id": engine_id, "created_at": utcnow()},
        )
    except sa.exc.IntegrityError:
        # a retry meets the lock its first attempt took
        return retry.retrying() and _lock_holder(stack_id) == engine_id
    return True


def _lock_holder(stack_id):
    row = _one(sa.select(T_STACK_LOCK.c.engine_id).where(T_STACK_LOCK.c.stack_id == stack_id))
    return row.engine_id if row is not None else None


_LOCK_RELEASE = T_STACK_LOCK.delete().where(T_STACK_LOCK.c.stack_id == sa.bindparam("stack_id"))
_LOCK_RELEASE_OWN = _LOCK_RELEASE.where(T_STACK_LOCK.c.engine_id == sa.bindparam("engine_id"))


@retry_on_db_error
def stack_lock_release(stack_id, engine_id):
    """Drop the lock if ``engine_id`` (None: anyone) still holds it; whether it did."""
    if engine_id is None:
        released = _write(_LOCK_RELEASE, {"stack_id": stack_id}) > 0
    else:
        released = _write(_LOCK_RELEASE_OWN, {"stack_id": stack_id, "engine_id": engine_id}) > 0
    # a retry finds the lock its first attempt dropped gone
    return released or (retry.retrying() and _lock_holder(stack_id) is None)


@retry_on_db_error
def stack_lock_get_all():
    return _all(sa.select(T_STACK_LOCK.c.stack_id, T_STACK_LOCK.c.engine_id))


@retry_on_db_error
def stack_lock_steal(stack_id, old_engine_id, new_engine_id):
    """Compare-and-swap of the holder; whether this caller got it."""
    stmt = (
        T_STACK_LOCK.update()
        .where(T_STACK_LOCK.c.stack_id == stack_id, T_STACK_LOCK.c.engine_id == old_engine_id)
        .values(engine_id=new_engine_id, updated_at=utcnow())
    )
    # a retry finds the lock its first attempt took
    return _write(stmt) > 0 or (retry.retrying() and _lock_holder(stack_id) == new_engine_id)


# traversal recovery (engine/recovery.py) ----------------------------------------------


@retry_on_db_error
def stack_get_all_in_progress():
    """Every project's live stacks (nested ones too) that are *_IN_PROGRESS."""
    return _all(
        sa.select(*_STACK_LIGHT).where(
            T_STACK.c.status == "IN_PROGRESS", T_STACK.c.deleted_at.is_(None)
        )
    )


@retry_on_db_error
def resource_locks_of_stacks_in_progress():
    """(stack_id, engine_id) of every resource lock held in an *_IN_PROGRESS stack."""
    stmt = (
        sa.select(T_RSRC.c.stack_id, T_RSRC.c.engine_id)
        .distinct()
        .select_from(T_RSRC.join(T_STACK, T_RSRC.c.stack_id == T_STACK.c.id))
        .where(T_RSRC.c.engine_id.is_not(None), T_STACK.c.status == "IN_PROGRESS")
    )
    return _all(stmt)


@retry_on_db_error
def stack_last_progress(stack_id, traversal_id):
    """The latest change of the traversal: a sync point's input or a resource's state."""
    sync = sa.select(sa.func.max(sa.func.coalesce(T_SYNC.c.updated_at, T_SYNC.c.created_at))).where(
        T_SYNC.c.stack_id == stack_id, T_SYNC.c.traversal_id == traversal_id
    )
    rsrc = sa.select(sa.func.max(T_RSRC.c.updated_at)).where(T_RSRC.c.stack_id == stack_id)
    row = _one(sa.select(sync.scalar_subquery(), rsrc.scalar_subquery()))
    return max([t for t in row if t is not None], default=None)
