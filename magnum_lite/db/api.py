"""Magnum's database API: ``<entity>_<verb>`` functions over SQLAlchemy Core.

Rows come back as plain dicts. Reads of clusters and templates take the request
context and see only the caller's project unless ``context.all_tenants``.

    db_api.configure('postgresql+psycopg2://postgres@127.0.0.1/magnum')
    db_api.cluster_create({'uuid': ..., 'name': 'c1', ...})
    db_api.cluster_get_by_name(ctx, 'c1')
    db_api.cluster_get_all(ctx, limit=10, sort_key='name')

SQLite (the embedded default and the unit tests) runs with foreign keys ON, and every
statement is serialised through one lock, so green threads never see "database is locked".
Each function is retried on a transient error (a lost connection, a deadlock: retry.py);
a pooled PostgreSQL connection is pinged when taken, and replaced if the server lost it.
"""

import contextlib
import threading

import sqlalchemy as sa
from sqlalchemy import event, exc, pool

from magnum_lite.common import exception
from magnum_lite.db import models, retry

_ENGINE = None
_SQLITE_LOCK = None

T_TEMPLATE = models.ClusterTemplate.__table__
T_CLUSTER = models.Cluster.__table__
T_NG = models.NodeGroup.__table__
T_X509 = models.X509KeyPair.__table__
T_QUOTA = models.Quota.__table__
T_SERVICE = models.MagnumService.__table__


def _sqlite_foreign_keys(dbapi_connection, connection_record):
    """SQLite checks foreign keys only when asked, per connection: ask, as PostgreSQL does."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


def configure(url, max_pool_size=16, max_overflow=8):
    """Create the process-wide engine for ``url`` (replacing any previous one).

    On PostgreSQL its connections run in autocommit mode: a read is one statement, one
    round trip (no BEGIN and COMMIT), and transaction() sends BEGIN itself.
    """
    global _ENGINE, _SQLITE_LOCK
    dispose()
    if url.startswith("sqlite"):
        _ENGINE = sa.create_engine(
            url, connect_args={"check_same_thread": False}, poolclass=pool.StaticPool
        )
        event.listen(_ENGINE, "connect", _sqlite_foreign_keys)
        _SQLITE_LOCK = threading.RLock()
    else:
        _ENGINE = sa.create_engine(
            url,
            isolation_level="AUTOCOMMIT",
            pool_size=max_pool_size,
            max_overflow=max_overflow,
            pool_recycle=3600,
            # a pooled connection is pinged when taken, and replaced (with every other
            # one opened before) when the server lost it, as oslo.db's engine does
            pool_pre_ping=True,
        )
        _SQLITE_LOCK = None
    return _ENGINE


def get_engine():
    if _ENGINE is None:
        from magnum_lite.conf import CONF

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


def _rows(stmt, params=None):
    """The rows of ``stmt`` (``params``: for a statement built once with bindparams)."""
    get_engine()
    if _SQLITE_LOCK is not None:
        with transaction() as conn:
            return [dict(r._mapping) for r in conn.execute(stmt, params)]
    with _ENGINE.connect() as conn:
        return [dict(r._mapping) for r in conn.execute(stmt, params)]


def _first(stmt):
    rows = _rows(stmt.limit(2) if hasattr(stmt, "limit") else stmt)
    return rows[0] if rows else None


def _insert(table, values, duplicate, children=(), before=None):
    """Insert a row (and ``children``: (table, [values]) inserted in the same transaction);
    returns the row, or (row, [child rows]) when children are given. ``before(conn,
    values)`` runs first in that transaction (a check that may raise)."""
    values = dict(values, created_at=values.get("created_at") or models.utcnow())
    child_ids = []
    try:
        with transaction() as conn:
            if before is not None:
                before(conn, values)
            values["id"] = conn.execute(table.insert().values(**values)).inserted_primary_key[0]
            for child_table, rows in children:
                for row in rows:
                    row = dict(row, created_at=row.get("created_at") or models.utcnow())
                    result = conn.execute(child_table.insert().values(**row))
                    child_ids.append((child_table, result.inserted_primary_key[0]))
    except exc.IntegrityError as e:
        raise duplicate(e)
    row = _first(sa.select(table).where(table.c.id == values["id"]))
    if not children:
        return row
    return row, [_first(sa.select(t).where(t.c.id == i)) for t, i in child_ids]


def _update(table, row_id, values, not_found):
    values = dict(values)
    values.pop("id", None)
    values["updated_at"] = models.utcnow()
    with transaction() as conn:
        result = conn.execute(table.update().where(table.c.id == row_id).values(**values))
        if result.rowcount == 0:
            raise not_found()
        return dict(conn.execute(sa.select(table).where(table.c.id == row_id)).one()._mapping)


def _delete(table, *where, not_found=None):
    with transaction() as conn:
        count = conn.execute(table.delete().where(*where)).rowcount
    if count == 0 and not_found is not None:
        raise not_found()
    return count


def _tenant(stmt, context, table):
    """Only the caller's project's rows unless the context is all_tenants (admins)."""
    if context is None or context.all_tenants:
        return stmt
    if context.project_id:
        return stmt.where(table.c.project_id == context.project_id)
    return stmt.where(table.c.user_id == context.user_id)


def _filters(stmt, table, filters):
    for key, value in (filters or {}).items():
        column = table.c[key]
        if isinstance(value, (list, tuple, set)):
            stmt = stmt.where(column.in_(list(value)))
        else:
            stmt = stmt.where(column == value)
    return stmt


def _paginate(stmt, table, limit=None, marker=None, sort_key=None, sort_dir=None):
    """Sort by ``sort_key`` (then id), start after the row whose id is ``marker``."""
    sort_key = sort_key or "id"
    if sort_key not in table.c:
        raise exception.InvalidParameterValue(
            err='The sort_key value "%s" is an invalid field for sorting' % sort_key
        )
    order = sa.desc if sort_dir == "desc" else sa.asc
    stmt = stmt.order_by(order(table.c[sort_key]), order(table.c.id))
    rows = _rows(stmt)
    if marker is not None:
        ids = [r["id"] for r in rows]
        rows = rows[ids.index(marker) + 1 :] if marker in ids else rows
    return rows[:limit] if limit else rows


# the range of an integer column (ids): a larger id is no row's, and is not sent
_INT_RANGE = range(-(2**31), 2**31)


def _get_one(stmt, not_found, conflict=None, key=None):
    """The one row of ``stmt`` (looked up by ``key``)."""
    if isinstance(key, int) and key not in _INT_RANGE:
        raise not_found()
    rows = _rows(stmt.limit(2))
    if not rows:
        raise not_found()
    if len(rows) > 1 and conflict:
        raise exception.Conflict(conflict)
    return rows[0]


# ---- cluster_template -------------------------------------------------------------------


def _template_visible(stmt, context):
    t = T_TEMPLATE
    if context is None or context.all_tenants:
        return stmt
    public = sa.and_(t.c.public.is_(True), t.c.hidden.is_(False))
    if context.is_admin:
        public = t.c.public.is_(True)
    own = (
        t.c.project_id == context.project_id
        if context.project_id
        else t.c.user_id == context.user_id
    )
    return stmt.where(sa.or_(own, public))


@retry.retry_on_db_error
def cluster_template_create(values):
    def dup(_e):
        return exception.ClusterTemplateAlreadyExists(uuid=values["uuid"])

    return _insert(T_TEMPLATE, values, dup)


def _template_get(context, column, value):
    stmt = _template_visible(sa.select(T_TEMPLATE).where(column == value), context)
    return _get_one(
        stmt,
        lambda: exception.ClusterTemplateNotFound(clustertemplate=value),
        "Multiple ClusterTemplates exist with same name. "
        "Please use the ClusterTemplate uuid instead.",
        key=value,
    )


@retry.retry_on_db_error
def cluster_template_get_by_id(context, template_id):
    return _template_get(context, T_TEMPLATE.c.id, template_id)


@retry.retry_on_db_error
def cluster_template_get_by_uuid(context, uuid):
    return _template_get(context, T_TEMPLATE.c.uuid, uuid)


@retry.retry_on_db_error
def cluster_template_get_by_name(context, name):
    return _template_get(context, T_TEMPLATE.c.name, name)


@retry.retry_on_db_error
def cluster_template_get_all(context, filters=None, **page):
    stmt = _filters(_template_visible(sa.select(T_TEMPLATE), context), T_TEMPLATE, filters)
    return _paginate(stmt, T_TEMPLATE, **page)


@retry.retry_on_db_error
def cluster_template_is_referenced(uuid):
    stmt = sa.select(T_CLUSTER.c.id).where(T_CLUSTER.c.cluster_template_id == uuid)
    return bool(_rows(stmt.limit(1)))


@retry.retry_on_db_error
def cluster_template_update(template_id, values):
    return _update(
        T_TEMPLATE,
        template_id,
        values,
        lambda: exception.ClusterTemplateNotFound(clustertemplate=template_id),
    )


@retry.retry_on_db_error
def cluster_template_destroy(template_id):
    row = _first(sa.select(T_TEMPLATE).where(T_TEMPLATE.c.id == template_id))
    if row is None:
        raise exception.ClusterTemplateNotFound(clustertemplate=template_id)
    if cluster_template_is_referenced(row["uuid"]):
        raise exception.ClusterTemplateReferenced(clustertemplate=row["uuid"])
    try:
        _delete(T_TEMPLATE, T_TEMPLATE.c.id == template_id)
    except exc.IntegrityError:
        raise exception.ClusterTemplateReferenced(clustertemplate=row["uuid"])


# ---- cluster --------------------------------------------------------------------------------


# kinds of transaction-scoped locks (the first key of a PostgreSQL advisory lock)
_LOCK_PROJECT_CLUSTERS = 1
_ADVISORY_LOCK = sa.select(
    sa.func.pg_advisory_xact_lock(
        sa.bindparam("kind", type_=sa.Integer),
        sa.func.hashtext(sa.bindparam("key", type_=sa.String)),
    )
)
QUOTA_RESOURCE_CLUSTER = "Cluster"


def _lock(conn, kind, key):
    """Lock ``(kind, key)`` until the transaction ends. PostgreSQL: an advisory lock (two
    keys that hash alike only wait for each other); SQLite's transactions are serialised
    already (one writer, _SQLITE_LOCK)."""
    if _SQLITE_LOCK is None:
        conn.execute(_ADVISORY_LOCK, {"kind": kind, "key": key})


def cluster_limit_exceeded(limit):
    """Magnum's 403 for a project at its cluster quota."""
    return exception.ResourceLimitExceeded(
        msg="You have reached the maximum clusters per project, %d. You may delete a "
        "cluster to make room for a new one." % limit
    )


def _check_cluster_quota(conn, values):
    """The project's clusters under its limit (its quotas row for 'Cluster', else
    ``[quotas] max_clusters_per_project``), counted under the project's lock: creates of
    one project run this one at a time, each seeing the rows the ones before committed.
    A retried create whose first commit got through finds its own row: no check."""
    from magnum_lite.conf import CONF

    project_id = values["project_id"]
    _lock(conn, _LOCK_PROJECT_CLUSTERS, project_id)
    quota = conn.execute(
        sa.select(T_QUOTA.c.hard_limit).where(
            T_QUOTA.c.project_id == project_id, T_QUOTA.c.resource == QUOTA_RESOURCE_CLUSTER
        )
    ).first()
    limit = CONF.quotas.max_clusters_per_project if quota is None else quota.hard_limit
    mine = sa.case((T_CLUSTER.c.uuid == values["uuid"], 1), else_=0)
    count, stored = conn.execute(
        sa.select(sa.func.count(), sa.func.coalesce(sa.func.sum(mine), 0)).where(
            T_CLUSTER.c.project_id == project_id
        )
    ).one()
    if not stored and limit is not None and count >= limit:
        raise cluster_limit_exceeded(limit)


@retry.retry_on_db_error
def cluster_create(values, nodegroups=None, check_quota=False):
    """A cluster row; with ``nodegroups`` (their values) those rows too, in the same
    transaction (no reader ever sees the cluster without them): then (row, ng rows).

    ``check_quota``: the project's cluster quota holds whatever runs in parallel (the
    count and the insert in one transaction under the project's lock, as heat-lite's
    stack_create keeps max_stacks_per_tenant).

    :raises: ResourceLimitExceeded (403) at the quota, ClusterTemplateNotFound,
        ClusterAlreadyExists
    """

    def dup(e):
        if "foreign key" in str(e).lower() or "foreign_key" in str(e).lower():
            return exception.ClusterTemplateNotFound(
                clustertemplate=values.get("cluster_template_id")
            )
        return exception.ClusterAlreadyExists(uuid=values["uuid"])

    children = [(T_NG, nodegroups)] if nodegroups else ()
    before = _check_cluster_quota if check_quota else None
    return _insert(T_CLUSTER, values, dup, children, before=before)


def _cluster_get(context, column, value):
    stmt = _tenant(sa.select(T_CLUSTER).where(column == value), context, T_CLUSTER)
    return _get_one(
        stmt,
        lambda: exception.ClusterNotFound(cluster=value),
        "Multiple clusters exist with same name. Please use the cluster uuid instead.",
        key=value,
    )


@retry.retry_on_db_error
def cluster_get_by_id(context, cluster_id):
    return _cluster_get(context, T_CLUSTER.c.id, cluster_id)


@retry.retry_on_db_error
def cluster_get_by_uuid(context, uuid):
    return _cluster_get(context, T_CLUSTER.c.uuid, uuid)


@retry.retry_on_db_error
def cluster_get_by_name(context, name):
    return _cluster_get(context, T_CLUSTER.c.name, name)


@retry.retry_on_db_error
def cluster_get_all(context, filters=None, **page):
    stmt = _filters(_tenant(sa.select(T_CLUSTER), context, T_CLUSTER), T_CLUSTER, filters)
    return _paginate(stmt, T_CLUSTER, **page)


@retry.retry_on_db_error
def cluster_count_all(context, filters=None):
    stmt = sa.select(sa.func.count()).select_from(T_CLUSTER)
    stmt = _filters(_tenant(stmt, context, T_CLUSTER), T_CLUSTER, filters)
    with transaction() as conn:
        return conn.execute(stmt).scalar_one()


@retry.retry_on_db_error
def cluster_get_stats(context, project_id=None):
    """(number of clusters, sum of node_count over all their nodegroups)."""
    clusters = sa.select(sa.func.count()).select_from(T_CLUSTER)
    nodes = sa.select(sa.func.coalesce(sa.func.sum(T_NG.c.node_count), 0)).select_from(T_NG)
    if project_id:
        clusters = clusters.where(T_CLUSTER.c.project_id == project_id)
        nodes = nodes.where(T_NG.c.project_id == project_id)
    with transaction() as conn:
        return conn.execute(clusters).scalar_one(), conn.execute(nodes).scalar_one()


@retry.retry_on_db_error
def cluster_update(cluster_id, values):
    return _update(
        T_CLUSTER, cluster_id, values, lambda: exception.ClusterNotFound(cluster=cluster_id)
    )


@retry.retry_on_db_error
def cluster_destroy(cluster_id):
    """Remove a cluster with its nodegroups (one transaction)."""
    with transaction() as conn:
        row = conn.execute(sa.select(T_CLUSTER.c.uuid).where(T_CLUSTER.c.id == cluster_id)).first()
        if row is None:
            raise exception.ClusterNotFound(cluster=cluster_id)
        conn.execute(T_NG.delete().where(T_NG.c.cluster_id == row.uuid))
        conn.execute(T_CLUSTER.delete().where(T_CLUSTER.c.id == cluster_id))


# ---- nodegroup --------------------------------------------------------------------------------


@retry.retry_on_db_error
def nodegroup_create(values):
    def dup(e):
        if "foreign key" in str(e).lower():
            return exception.ClusterNotFound(cluster=values.get("cluster_id"))
        return exception.NodeGroupAlreadyExists(
            name=values.get("name"), cluster_id=values.get("cluster_id")
        )

    return _insert(T_NG, values, dup)


def _nodegroup_get(context, cluster_id, column, value):
    stmt = sa.select(T_NG).where(T_NG.c.cluster_id == cluster_id, column == value)
    return _get_one(stmt, lambda: exception.NodeGroupNotFound(nodegroup=value), key=value)


@retry.retry_on_db_error
def nodegroup_get_by_id(context, cluster_id, nodegroup_id):
    return _nodegroup_get(context, cluster_id, T_NG.c.id, nodegroup_id)


@retry.retry_on_db_error
def nodegroup_get_by_uuid(context, cluster_id, uuid):
    return _nodegroup_get(context, cluster_id, T_NG.c.uuid, uuid)


@retry.retry_on_db_error
def nodegroup_get_by_name(context, cluster_id, name):
    return _nodegroup_get(context, cluster_id, T_NG.c.name, name)


@retry.retry_on_db_error
def nodegroup_get_all(context, cluster_id, filters=None, **page):
    stmt = _filters(sa.select(T_NG).where(T_NG.c.cluster_id == cluster_id), T_NG, filters)
    return _paginate(stmt, T_NG, **page)


@retry.retry_on_db_error
def nodegroup_get_all_of_clusters(cluster_ids):
    """The nodegroups of every cluster (uuid) in ``cluster_ids``, by id: one query for a
    page of clusters."""
    if not cluster_ids:
        return []
    return _rows(sa.select(T_NG).where(T_NG.c.cluster_id.in_(cluster_ids)).order_by(T_NG.c.id))


# the clusters whose own stack, or a nodegroup's, is the parameter ``stack_id``: a Heat
# notification (one per nested stack too, most of them no cluster's) costs one query
_CLUSTERS_OF_STACK = sa.union(
    sa.select(T_CLUSTER.c.uuid).where(T_CLUSTER.c.stack_id == sa.bindparam("stack_id")),
    sa.select(T_NG.c.cluster_id).where(T_NG.c.stack_id == sa.bindparam("stack_id")),
)


@retry.retry_on_db_error
def cluster_uuids_of_stack(stack_id):
    return sorted(row["uuid"] for row in _rows(_CLUSTERS_OF_STACK, {"stack_id": stack_id}))


@retry.retry_on_db_error
def nodegroup_update(cluster_id, nodegroup_id, values):
    return _update(
        T_NG, nodegroup_id, values, lambda: exception.NodeGroupNotFound(nodegroup=nodegroup_id)
    )


@retry.retry_on_db_error
def nodegroup_destroy(cluster_id, nodegroup_id):
    _delete(
        T_NG,
        T_NG.c.cluster_id == cluster_id,
        T_NG.c.id == nodegroup_id,
        not_found=lambda: exception.NodeGroupNotFound(nodegroup=nodegroup_id),
    )


# ---- x509keypair ----------------------------------------------------------------------------


@retry.retry_on_db_error
def x509keypair_create(values):
    return _insert(
        T_X509, values, lambda e: exception.X509KeyPairAlreadyExists(uuid=values["uuid"])
    )


@retry.retry_on_db_error
def x509keypair_get_by_uuid(context, uuid):
    stmt = sa.select(T_X509).where(T_X509.c.uuid == uuid)
    return _get_one(stmt, lambda: exception.X509KeyPairNotFound(x509keypair=uuid))


@retry.retry_on_db_error
def x509keypair_get_by_id(context, x509keypair_id):
    stmt = sa.select(T_X509).where(T_X509.c.id == x509keypair_id)
    return _get_one(
        stmt, lambda: exception.X509KeyPairNotFound(x509keypair=x509keypair_id), key=x509keypair_id
    )


@retry.retry_on_db_error
def x509keypair_update(x509keypair_id, values):
    return _update(
        T_X509,
        x509keypair_id,
        values,
        lambda: exception.X509KeyPairNotFound(x509keypair=x509keypair_id),
    )


@retry.retry_on_db_error
def x509keypair_destroy(uuid):
    _delete(
        T_X509,
        T_X509.c.uuid == uuid,
        not_found=lambda: exception.X509KeyPairNotFound(x509keypair=uuid),
    )


@retry.retry_on_db_error
def cluster_certificates_store(cluster_id, status, refs, replaced=()):
    """Insert the key pairs of ``refs`` ({cluster ref field: x509keypair values}), point
    the cluster's fields at them and delete the rows ``replaced`` (uuids), in one
    transaction and only while the stored cluster's status is ``status``: the updated
    cluster row, or None, storing nothing, when the row is gone or changed. A conductor
    killed at any moment leaves either all of it or none, never a row no cluster names."""

    def store_pairs(conn):
        now = models.utcnow()
        for pair in refs.values():
            conn.execute(T_X509.insert().values(dict(pair, created_at=now)))
        if replaced:
            conn.execute(T_X509.delete().where(T_X509.c.uuid.in_(list(replaced))))

    values = {field: pair["uuid"] for field, pair in refs.items()}
    return _cluster_swap(cluster_id, values, status, then=store_pairs)


# ---- quotas ---------------------------------------------------------------------------------


@retry.retry_on_db_error
def quota_create(values):
    def dup(_e):
        return exception.QuotaAlreadyExists(
            project_id=values["project_id"], resource=values["resource"]
        )

    return _insert(T_QUOTA, values, dup)


@retry.retry_on_db_error
def quota_get_by_project_id_resource(project_id, resource):
    stmt = sa.select(T_QUOTA).where(
        T_QUOTA.c.project_id == project_id, T_QUOTA.c.resource == resource
    )
    msg = "for project %s, resource %s" % (project_id, resource)
    return _get_one(stmt, lambda: exception.QuotaNotFound(msg=msg))


@retry.retry_on_db_error
def quota_get_all(context, filters=None, **page):
    stmt = _filters(sa.select(T_QUOTA), T_QUOTA, filters)
    return _paginate(stmt, T_QUOTA, **page)


@retry.retry_on_db_error
def quota_update(project_id, resource, values):
    row = quota_get_by_project_id_resource(project_id, resource)
    return _update(T_QUOTA, row["id"], values, lambda: exception.QuotaNotFound(msg=project_id))


@retry.retry_on_db_error
def quota_destroy(project_id, resource):
    msg = "for project %s, resource %s" % (project_id, resource)
    _delete(
        T_QUOTA,
        T_QUOTA.c.project_id == project_id,
        T_QUOTA.c.resource == resource,
        not_found=lambda: exception.QuotaNotFound(msg=msg),
    )


# ---- magnum_service -------------------------------------------------------------------------


@retry.retry_on_db_error
def magnum_service_create(values):
    return _insert(T_SERVICE, values, lambda e: exception.MagnumServiceAlreadyExists(id=values))


@retry.retry_on_db_error
def magnum_service_get_by_host_and_binary(host, binary):
    stmt = sa.select(T_SERVICE).where(T_SERVICE.c.host == host, T_SERVICE.c.binary == binary)
    return _first(stmt)


@retry.retry_on_db_error
def magnum_service_get_all(filters=None, **page):
    return _paginate(_filters(sa.select(T_SERVICE), T_SERVICE, filters), T_SERVICE, **page)


@retry.retry_on_db_error
def magnum_service_update(service_id, values):
    return _update(
        T_SERVICE,
        service_id,
        values,
        lambda: exception.MagnumServiceNotFound(magnum_service_id=service_id),
    )


@retry.retry_on_db_error
def magnum_service_destroy(service_id):
    _delete(
        T_SERVICE,
        T_SERVICE.c.id == service_id,
        not_found=lambda: exception.MagnumServiceNotFound(magnum_service_id=service_id),
    )


@retry.retry_on_db_error
def cluster_update_if_status(cluster_id, values, status, without_stack=False):
    """Update a cluster only while its stored status is ``status`` (a compare-and-swap),
    and with ``without_stack`` only while it records no stack: the updated row, or None
    when the row is gone or changed."""
    return _cluster_swap(cluster_id, values, status, without_stack)


def _cluster_swap(cluster_id, values, status, without_stack=False, then=None):
    """The compare-and-swap update of cluster_update_if_status; ``then(conn)`` runs in
    its transaction once the row matched (nothing is written when it does not)."""
    values = dict(values, updated_at=models.utcnow())
    values.pop("id", None)
    where = [T_CLUSTER.c.id == cluster_id, T_CLUSTER.c.status == status]
    if without_stack:
        where.append(T_CLUSTER.c.stack_id.is_(None))
    with transaction() as conn:
        if conn.execute(T_CLUSTER.update().where(*where).values(**values)).rowcount == 0:
            return None
        if then is not None:
            then(conn)
        return dict(
            conn.execute(sa.select(T_CLUSTER).where(T_CLUSTER.c.id == cluster_id)).one()._mapping
        )
