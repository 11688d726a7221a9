"""A stack's resources in heat's database: their rows, and the compare-and-swap writes a
worker makes to them (Heat's ``atomic_key`` and ``engine_id`` lock).

    ids = resource_init_many(['a', 'b'], {'stack_id': sid, 'action': 'INIT', ...})
    rsrc, stack = resource_get_with_stack(ids[0])           # one round trip
    write = ResourceWrite(ids[0], {'status': 'IN_PROGRESS', 'engine_id': eid}, 0, None,
                          event, props_data)
    write.run()                      # False: the row moved on (or another engine holds it)

Their data, cached attributes and properties rows: resource_data.py.
"""

import functools
import types
import uuid

import sqlalchemy as sa

from heat_lite.common import exception
from heat_lite.db import events, locks, prepared, resource_data, retry, session, stacks
from heat_lite.db.models import T_EVENT, T_PROPS, T_RDATA, T_RSRC, T_STACK, utcnow
from heat_lite.db.retry import retry_on_db_error


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
    with session.transaction() as conn:
        if budget is not None:
            root_stack_id, limit, stack_id, defined = budget
            locks.transaction_lock(conn, locks.ROOT_RESOURCES, root_stack_id)
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
    return dict(session.select_all(stmt))


# the columns every INIT row of a new stack's resources shares (resource_init_many)
INIT_SHARED = (
    "stack_id",
    "root_stack_id",
    "action",
    "status",
    "status_reason",
    "current_template_id",
    "created_at",
)


@retry_on_db_error
def resource_init_many(names, values, budget=None):
    """A new stack's resource rows, one per name in ``names``, all with the columns
    ``values`` (INIT_SHARED); their ids in ``names``' order. ``budget`` as
    resource_create_many's. PostgreSQL: one round trip (postgresql.insert_init_rows).

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
    return insert_init_rows(names, values, budget)


@session.postgresql_fast_path
def insert_init_rows(names, values, budget):
    """resource_init_many's rows, through resource_create_many. PostgreSQL: one round
    trip and one transaction (postgresql.insert_init_rows)."""
    return resource_create_many([dict(values, name=name) for name in names], budget)


def _init_stored(names, values):
    """The ids of resource_init_many's rows if its first attempt stored them, else None."""
    stmt = sa.select(T_RSRC.c.name, T_RSRC.c.id).where(
        T_RSRC.c.stack_id == values["stack_id"],
        T_RSRC.c.created_at == values["created_at"],
        T_RSRC.c.name.in_(list(names)),
    )
    ids = dict(session.select_all(stmt))
    return [ids[name] for name in names] if len(ids) == len(names) else None


_RSRC_WITH_STACK = prepared.Prepared(
    sa.select(T_RSRC, *stacks.STACK_LIGHT)
    .join(T_STACK, T_RSRC.c.stack_id == T_STACK.c.id)
    .where(T_RSRC.c.id == sa.bindparam("resource_id"))
)
_RSRC_NAMES = [c.name for c in T_RSRC.c]
_STACK_LIGHT_NAMES = [c.name for c in stacks.STACK_LIGHT]


@retry_on_db_error
def resource_get_with_stack(resource_id):
    """(resource row, its stack's row) in one round trip; (None, None) if gone."""
    rows, _ = session.run_prepared(_RSRC_WITH_STACK, {"resource_id": resource_id})
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
def resource_physical_ids_recorded(physical_ids):
    """The ones of ``physical_ids`` that some resource row records as its physical id."""
    if not physical_ids:
        return set()
    stmt = sa.select(T_RSRC.c.nova_instance).where(T_RSRC.c.nova_instance.in_(list(physical_ids)))
    return {row[0] for row in session.select_all(stmt)}


@retry_on_db_error
def resource_get_all_by_stack(stack_id, listed_only=False):
    """The stack's resource rows by id; ``listed_only``: only the columns a resource
    list shows (_RSRC_LISTED)."""
    stmt = sa.select(*(_RSRC_LISTED if listed_only else [T_RSRC]))
    return session.select_all(stmt.where(T_RSRC.c.stack_id == stack_id).order_by(T_RSRC.c.id))


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
    return tuple(session.first_prepared(_RESOURCES_VERSION, {"stack_id": stack_id}))


_COUNT_BY_ROOT = prepared.Prepared(
    sa.select(sa.func.count()).where(T_RSRC.c.root_stack_id == sa.bindparam("root_stack_id"))
)


@retry_on_db_error
def resource_count_by_root(root_stack_id):
    """How many resource rows the stack tree under ``root_stack_id`` holds."""
    return session.first_prepared(_COUNT_BY_ROOT, {"root_stack_id": root_stack_id})[0]


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

    Here one transaction; PostgreSQL: one statement (postgresql.send_write). Each shape of
    write (columns written, lock expected or not, event, properties) is built once
    (cas_update) and run with this write's values as parameters.
    """
    if event is not None:
        event.setdefault("uuid", str(uuid.uuid4()))  # the same in every attempt
    write = ResourceWrite(resource_id, values, atomic_key, expected_engine_id, event, props_data)
    return write.run()


class ResourceWrite:
    """resource_update_and_event's write, built and not sent yet: ``run()`` sends it alone,
    sync_point_add_input(..., write=) with a sync point report (one round trip, one
    commit; the report is made only if the write matched). ``statement``: on PostgreSQL
    the (Prepared, params) of the write (postgresql.write_statement), else None;
    ``event_uuid``: its event's, if it has one."""

    def __init__(self, resource_id, values, atomic_key, expected_engine_id, event, props_data):
        self.resource_id, self.values, self.props_data = resource_id, values, props_data
        self.unlocked = expected_engine_id is None
        self.event = events.event_values(event) if event is not None else None
        self.event_uuid = self.event["uuid"] if self.event is not None else None
        self.params = {"v_" + name: value for name, value in values.items()}
        self.params.update(w_id=resource_id, w_key=atomic_key, v_atomic_key=atomic_key + 1)
        if not self.unlocked:
            self.params["w_engine"] = expected_engine_id
        if self.event is not None:
            self.params.update(("e_" + name, value) for name, value in self.event.items())
        self.statement = write_statement(self)

    @retry_on_db_error
    def run(self):
        """Send the write; whether it matched (send_write). A retry (db.retry) whose first
        attempt was stored answers True (_stored)."""
        if retry.retrying() and self._stored():
            return True
        return send_write(self)

    def _stored(self):
        """Whether the write is in the database: its event exists (it is inserted exactly
        when the write matches), or, without one, the row holds its values at the next
        atomic_key."""
        if self.event_uuid is not None:
            return events.event_exists(self.event_uuid)
        next_key = T_RSRC.c.atomic_key == self.params["v_atomic_key"]
        return session.holds(T_RSRC, [T_RSRC.c.id == self.resource_id, next_key], self.values)


@session.postgresql_fast_path
def write_statement(write):
    """The statement of a ResourceWrite sent together with others: none here (it is
    sent alone, send_write). PostgreSQL: postgresql.write_statement."""


@session.postgresql_fast_path
def send_write(write):
    """Send a ResourceWrite; whether it matched. Here in one transaction: its properties
    row, the CAS update, its event. PostgreSQL: one statement, with the writes that came
    meanwhile (postgresql.send_write)."""
    columns, params = tuple(sorted(write.values)), dict(write.params)
    with session.transaction() as conn:
        if write.props_data is not None:
            columns += ("rsrc_prop_data_id",)
            props = {"data": write.props_data, "created_at": utcnow()}
            params["v_rsrc_prop_data_id"] = session.inserted_id(conn, T_PROPS, props)
        if conn.execute(cas_update(columns, write.unlocked), params).rowcount == 0:
            conn.rollback()
            return False
        if write.event is not None:
            prop_id = conn.execute(
                sa.select(T_RSRC.c.rsrc_prop_data_id).where(T_RSRC.c.id == write.resource_id)
            ).scalar()
            conn.execute(T_EVENT.insert().values(rsrc_prop_data_id=prop_id, **write.event))
        return True


@functools.lru_cache(maxsize=256)
def cas_update(columns, unlocked, new_props=False):
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
    with session.transaction() as conn:
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
        conn.execute(T_EVENT.insert().values(**events.event_values(event)))
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
    row = session.select_one(stmt)
    return row.id if row is not None else None


@retry_on_db_error
def resource_delete(resource_id):
    with session.transaction() as conn:
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
    ids = [row.id for row in session.select_all(_DELETED_IDS, {"stack_id": stack_id})]
    if not ids:
        return
    with session.transaction() as conn:
        conn.execute(T_RDATA.delete().where(T_RDATA.c.resource_id.in_(ids)))
        props = conn.execute(
            sa.select(T_RSRC.c.rsrc_prop_data_id, T_RSRC.c.attr_data_id).where(T_RSRC.c.id.in_(ids))
        ).all()
        conn.execute(T_RSRC.delete().where(T_RSRC.c.id.in_(ids)))
        prop_ids = {i for row in props for i in row if i is not None}
        if prop_ids:
            # a properties row still shown by an event stays (event show)
            resource_data.delete_unreferenced_props(conn, prop_ids)


@retry_on_db_error
def resource_locks_of_stacks_in_progress():
    """(stack_id, engine_id) of every resource lock held in an *_IN_PROGRESS stack."""
    stmt = (
        sa.select(T_RSRC.c.stack_id, T_RSRC.c.engine_id)
        .distinct()
        .select_from(T_RSRC.join(T_STACK, T_RSRC.c.stack_id == T_STACK.c.id))
        .where(T_RSRC.c.engine_id.is_not(None), T_STACK.c.status == "IN_PROGRESS")
    )
    return session.select_all(stmt)
