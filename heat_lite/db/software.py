"""Software configs and deployments in heat's database (docs/rpc-and-convergence.md §5.7).

Every getter takes the caller's ``tenant`` (None: an admin, who sees every project) and
raises Heat's NotFound for a row of another project, as heat/db/api.py does.

    sc = software_config_create({'name': 'c', 'group': 'script', 'config': {...},
                                 'tenant': 'p1'})
    software_deployment_create({'config_id': sc.id, 'server_id': 's1', ...}, tenant='p1')
    software_deployment_get_all('p1', server_id='s1')    # oldest first, with config
"""

import sqlalchemy as sa

from heat_lite.common import exception
from heat_lite.db import models, retry, session
from heat_lite.db.models import T_RSRC, utcnow

T_CONFIG = models.SoftwareConfig.__table__
T_DEPLOY = models.SoftwareDeployment.__table__

# a deployment row joined with the name of its config (metadata sorts by it)
_DEPLOY_COLUMNS = [*T_DEPLOY.c, T_CONFIG.c.name.label("config_name")]
_DEPLOY_JOIN = T_DEPLOY.join(T_CONFIG, T_DEPLOY.c.config_id == T_CONFIG.c.id)


def _config_not_found(config_id):
    return exception.NotFound("Software config with id %s not found" % config_id)


def _deployment_not_found(deployment_id):
    return exception.NotFound("Deployment with id %s not found" % deployment_id)


# software_config ------------------------------------------------------------------------


@retry.retry_on_db_error
def software_config_create(values):
    session.stamp_id(values)
    if retry.retrying():  # the first attempt's row, if it was stored
        with session.autocommit() as conn:
            row = conn.execute(_CONFIG_GET, {"config_id": values["id"]}).first()
        if row is not None:
            return row
    values = dict(values, created_at=utcnow())
    with session.transaction() as conn:
        conn.execute(T_CONFIG.insert().values(**values))
    return software_config_get(values["id"])


_CONFIG_GET = sa.select(T_CONFIG).where(T_CONFIG.c.id == sa.bindparam("config_id"))


def _config_get(conn, config_id, tenant):
    row = conn.execute(_CONFIG_GET, {"config_id": config_id}).first()
    if row is None or (tenant is not None and row.tenant != tenant):
        raise _config_not_found(config_id)
    return row


@retry.retry_on_db_error
def software_config_get(config_id, tenant=None):
    with session.autocommit() as conn:
        return _config_get(conn, config_id, tenant)


@retry.retry_on_db_error
def software_config_get_all(tenant=None, limit=None, marker=None):
    """Newest first (then id), as Heat pages them; ``marker`` is the last id seen."""
    stmt = sa.select(T_CONFIG).order_by(T_CONFIG.c.created_at.desc(), T_CONFIG.c.id.desc())
    if tenant is not None:
        stmt = stmt.where(T_CONFIG.c.tenant == tenant)
    with session.autocommit() as conn:
        rows = conn.execute(stmt).all()
    return session.page(rows, marker, limit, "id")


@retry.retry_on_db_error
def software_config_delete(config_id, tenant=None):
    """:raises: NotFound; InvalidRestrictedAction while a deployment uses the config."""
    with session.transaction() as conn:
        _config_get(conn, config_id, tenant)
        used = conn.execute(
            sa.select(T_DEPLOY.c.id).where(T_DEPLOY.c.config_id == config_id).limit(1)
        ).first()
        if used is not None:
            raise exception.InvalidRestrictedAction(
                message="Software config with id %s can not be deleted as it is referenced."
                % config_id
            )
        conn.execute(T_CONFIG.delete().where(T_CONFIG.c.id == config_id))


# software_deployment --------------------------------------------------------------------


def _visible(tenant):
    """A deployment is the caller's if it is its project's or its stack user project's."""
    if tenant is None:
        return sa.true()
    return sa.or_(T_DEPLOY.c.tenant == tenant, T_DEPLOY.c.stack_user_project_id == tenant)


# deployment by id, of any project / of the project ``tenant`` (built once)
_DEPLOY_GET = (
    sa.select(*_DEPLOY_COLUMNS)
    .select_from(_DEPLOY_JOIN)
    .where(T_DEPLOY.c.id == sa.bindparam("deployment_id"))
)
_DEPLOY_GET_OF = _DEPLOY_GET.where(_visible(sa.bindparam("tenant")))


def _deployment_get(conn, deployment_id, tenant):
    stmt = _DEPLOY_GET if tenant is None else _DEPLOY_GET_OF
    params = {"deployment_id": deployment_id}
    if tenant is not None:
        params["tenant"] = tenant
    row = conn.execute(stmt, params).first()
    if row is None:
        raise _deployment_not_found(deployment_id)
    return row


@retry.retry_on_db_error
def software_deployment_get(deployment_id, tenant=None):
    with session.autocommit() as conn:
        return _deployment_get(conn, deployment_id, tenant)


@retry.retry_on_db_error
def software_deployment_create(values, tenant=None):
    """:raises: NotFound when the config is not one the caller may use."""
    session.stamp_id(values)
    if retry.retrying():  # the first attempt's row, if it was stored
        with session.autocommit() as conn:
            row = conn.execute(_DEPLOY_GET, {"deployment_id": values["id"]}).first()
        if row is not None:
            return row
    values = dict(values, created_at=utcnow())
    with session.transaction() as conn:
        _config_get(conn, values.get("config_id"), tenant)
        conn.execute(T_DEPLOY.insert().values(**values))
        return _deployment_get(conn, values["id"], None)


@retry.retry_on_db_error
def software_deployment_get_all(tenant=None, server_id=None):
    """Oldest first; each row also carries its config's name (``config_name``)."""
    stmt = (
        sa.select(*_DEPLOY_COLUMNS)
        .select_from(_DEPLOY_JOIN)
        .where(_visible(tenant))
        .order_by(T_DEPLOY.c.created_at, T_DEPLOY.c.id)
    )
    if server_id:
        stmt = stmt.where(T_DEPLOY.c.server_id == server_id)
    with session.autocommit() as conn:
        return conn.execute(stmt).all()


@retry.retry_on_db_error
def software_deployment_update(deployment_id, values, tenant=None):
    """Set ``values`` (a new config_id must be the caller's too); the updated row."""
    with session.transaction() as conn:
        if "config_id" in values:
            _config_get(conn, values["config_id"], tenant)
        _deployment_get(conn, deployment_id, tenant)
        conn.execute(T_DEPLOY.update().where(T_DEPLOY.c.id == deployment_id).values(**values))
        return _deployment_get(conn, deployment_id, None)


@retry.retry_on_db_error
def software_deployment_delete(deployment_id, tenant=None):
    with session.transaction() as conn:
        _deployment_get(conn, deployment_id, tenant)
        conn.execute(T_DEPLOY.delete().where(T_DEPLOY.c.id == deployment_id))


# the server a deployment is for ------------------------------------------------------------


@retry.retry_on_db_error
def server_resource_get(server_id):
    """The live resource row whose physical id is ``server_id`` (its metadata lists the
    server's deployments), or None."""
    with session.autocommit() as conn:
        return conn.execute(
            sa.select(T_RSRC)
            .where(
                T_RSRC.c.nova_instance == server_id,
                T_RSRC.c.replaced_by.is_(None),
                T_RSRC.c.action != "DELETE",
            )
            .order_by(T_RSRC.c.id.desc())
            .limit(1)
        ).first()
