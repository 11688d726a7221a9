"""Stacks in heat's database: their rows, tags and listings, and the compare-and-swap on
a stack's current traversal that starts, ends or supersedes one.

    stack_create({'id': sid, 'name': 's1', 'tenant': 'p1', 'raw_template_id': tid, ...})
    stack_update(sid, {'current_traversal': new, ...}, exp_trvsl=old)   # True: stored
    stack_get(sid)               # the row without the graph (current_deps: stack_deps_get)
    stack_get_all('p1', limit=20, sort_keys=['created_at'], filters={'status': 'FAILED'})

Their templates and credentials: templates.py and user_creds.py.
"""

import functools

import sqlalchemy as sa

from heat_lite.common import exception
from heat_lite.db import events, locks, prepared, retry, session, templates, user_creds
from heat_lite.db.models import (
    T_CREDS,
    T_EVENT,
    T_RSRC,
    T_STACK,
    T_SYNC,
    T_TAG,
    utcnow,
)
from heat_lite.db.retry import retry_on_db_error
from heat_lite.db.sync_points import insert_sync_points


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
    values.setdefault("created_at", utcnow())
    if retry.retrying():
        stored = stack_get(values["id"], show_deleted=True)
        if stored is not None:  # the first attempt's commit (the id is the caller's)
            return stored.raw_template_id, stored.user_creds_id
    try:
        alone = all(extra is None for extra in (max_stacks, template, creds_of, event, engine_id))
        together = None not in (template, event, engine_id) and not tags
        if alone and not tags:
            session.write(T_STACK.insert().values(**values))  # nothing else: one statement
        elif together and max_stacks is None and creds_of is None:
            # a nested stack's start (on PostgreSQL one round trip)
            event, lock = events.event_values(event), locks.lock_values(values["id"], engine_id)
            values["raw_template_id"] = start_stack(values, template, event, lock)
        else:
            with session.transaction() as conn:
                if max_stacks is not None:
                    locks.transaction_lock(conn, locks.PROJECT_STACKS, values["tenant"])
                    if _count_live_top_stacks(conn, values["tenant"]) >= max_stacks:
                        raise exception.stack_limit_exceeded(max_stacks)
                if creds_of is not None:
                    creds = user_creds.creds_values(creds_of)
                    values["user_creds_id"] = session.inserted_id(conn, T_CREDS, creds)
                event = events.event_values(event) if event is not None else None
                lock = locks.lock_values(values["id"], engine_id) if engine_id is not None else None
                _insert_stack(conn, values, template, tags, event, lock)
    except sa.exc.IntegrityError:
        if stack_get_by_name(values.get("tenant"), values.get("name")) is not None:
            raise exception.StackExists(stack_name=values.get("name"))
        raise
    return values["raw_template_id"], values.get("user_creds_id")


def _insert_stack(conn, values, template, tags, event, lock):
    """The stack row of ``values`` on ``conn``, after its ``template``'s rows (if any,
    ``(template, environment, files)``), then its tags, its event's row and its lock's
    row (events.event_values, locks.lock_values), each if given."""
    if template is not None:
        now = values["created_at"]
        values["raw_template_id"] = templates.insert_raw_template(conn, *template, now)
    conn.execute(T_STACK.insert().values(**values))
    if tags:
        conn.execute(T_TAG.insert(), [{"stack_id": values["id"], "tag": t} for t in tags])
    if event is not None:
        conn.execute(T_EVENT.insert(), event)
    if lock is not None:
        conn.execute(locks.lock_set(), lock)


@session.postgresql_fast_path
def start_stack(values, template, event, lock):
    """stack_create of a stack that starts at once with a new template (a nested stack's
    create): its template, the stack, its event and its lock in one transaction; the
    template's id. PostgreSQL: one round trip (postgresql.start_stack)."""
    with session.transaction() as conn:
        _insert_stack(conn, values, template, None, event, lock)
    return values["raw_template_id"]


def _count_live_top_stacks(conn, tenant):
    return conn.execute(
        sa.select(sa.func.count()).where(
            T_STACK.c.tenant == tenant,
            T_STACK.c.deleted_at.is_(None),
            T_STACK.c.owner_id.is_(None),
        )
    ).scalar()


# every stack column but the graph, which can be large: fetched only on a cache miss
STACK_LIGHT = [c for c in T_STACK.c if c.name != "current_deps"]


@retry_on_db_error
def stack_get(stack_id, show_deleted=False, tenant=None):
    """The stack row without ``current_deps`` (see stack_deps_get)."""
    stmt = _stack_get_statement(bool(show_deleted), tenant is not None)
    return session.first_prepared(stmt, {"stack_id": stack_id, "tenant": tenant})


@functools.cache
def _stack_get_statement(show_deleted, of_tenant):
    """stack_get's query, prepared once per variant (parameters ``stack_id``, ``tenant``)."""
    stmt = sa.select(*STACK_LIGHT).where(T_STACK.c.id == sa.bindparam("stack_id"))
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
    row = session.first_prepared(_DEPS_GET, {"stack_id": stack_id})
    return row[0] if row is not None else None


@retry_on_db_error
def stack_get_by_name(tenant, name):
    """The live stack ``name`` of project ``tenant`` (None: of no project)."""
    stmt = _stack_by_name_statement(tenant is None)
    return session.select_one(stmt, {"tenant": tenant, "name": name})


@functools.cache
def _stack_by_name_statement(no_tenant):
    """stack_get_by_name's query, built once per variant (parameters ``tenant``, ``name``)."""
    tenant = T_STACK.c.tenant.is_(None) if no_tenant else T_STACK.c.tenant == sa.bindparam("tenant")
    return sa.select(*STACK_LIGHT).where(
        tenant, T_STACK.c.name == sa.bindparam("name"), T_STACK.c.deleted_at.is_(None)
    )


@retry_on_db_error
def stack_tags_set(stack_id, tags):
    with session.transaction() as conn:
        conn.execute(T_TAG.delete().where(T_TAG.c.stack_id == stack_id))
        if tags:
            conn.execute(T_TAG.insert(), [{"stack_id": stack_id, "tag": t} for t in tags])


@retry_on_db_error
def stack_tags_get(stack_ids):
    """{stack_id: [tag, ...]} for the given stacks (missing ids have no tags)."""
    if not stack_ids:
        return {}
    tags = {}
    for stack_id, tag in session.run_prepared(_STACK_TAGS, {"stack_ids": list(stack_ids)})[0]:
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
    "parent_resource_name": T_STACK.c.parent_resource_name,  # (the API does not offer it)
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
    stmt = sa.select(*(columns if columns is not None else STACK_LIGHT))
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
    return session.page(session.select_all(stmt.order_by(*order)), marker, limit, "id")


@retry_on_db_error
def stack_count_all(tenant=None, **query):
    stmt = _stack_query(tenant, columns=[sa.func.count(T_STACK.c.id)], **query)
    return session.select_one(stmt)[0]


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
    if retry.retrying() and session.holds(T_STACK, [T_STACK.c.id == stack_id], values):
        return True
    params = {"v_" + name: value for name, value in values.items()}
    params["w_id"] = stack_id
    if exp_trvsl is not None:
        params["w_traversal"] = exp_trvsl
    stmt = _stack_update(tuple(sorted(values)), exp_trvsl is not None)
    if event is None and engine_id is None and not sync_points:
        return session.write(stmt, params) > 0
    with session.transaction() as conn:
        if event is not None:
            conn.execute(T_EVENT.insert(), events.event_values(event))
        if engine_id is not None:
            conn.execute(locks.lock_set(), locks.lock_values(stack_id, engine_id))
        updated = conn.execute(stmt, params).rowcount > 0
        if updated and sync_points:
            insert_sync_points(conn, sync_points)
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
    with session.transaction() as conn:
        conn.execute(T_STACK.update().where(T_STACK.c.id == stack_id).values(deleted_at=utcnow()))
        if user_creds_id is not None:
            conn.execute(
                T_STACK.update()
                .where(T_STACK.c.user_creds_id == user_creds_id)
                .values(user_creds_id=None)
            )
            conn.execute(T_CREDS.delete().where(T_CREDS.c.id == user_creds_id))


@retry_on_db_error
def stack_get_all_in_progress():
    """Every project's live stacks (nested ones too) that are *_IN_PROGRESS."""
    return session.select_all(
        sa.select(*STACK_LIGHT).where(
            T_STACK.c.status == "IN_PROGRESS", T_STACK.c.deleted_at.is_(None)
        )
    )


@retry_on_db_error
def stack_last_progress(stack_id, traversal_id):
    """The latest change of the traversal: a sync point's input or a resource's state."""
    sync = sa.select(sa.func.max(sa.func.coalesce(T_SYNC.c.updated_at, T_SYNC.c.created_at))).where(
        T_SYNC.c.stack_id == stack_id, T_SYNC.c.traversal_id == traversal_id
    )
    rsrc = sa.select(sa.func.max(T_RSRC.c.updated_at)).where(T_RSRC.c.stack_id == stack_id)
    row = session.select_one(sa.select(sync.scalar_subquery(), rsrc.scalar_subquery()))
    return max([t for t in row if t is not None], default=None)
