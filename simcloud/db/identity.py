"""Identity rows: projects, users, roles, role assignments, trusts and tokens.

Rows come back as SQLAlchemy ``Row`` objects (attribute access) or None.

    identity.project_create('p1', 'demo')
    identity.assignment_add(user_id, 'p1', role_id)
    identity.roles_of(user_id, 'p1')          # [Row(id=..., name='member'), ...]
"""

import sqlalchemy as sa
from sqlalchemy import exc as sa_exc

from simcloud.db import api as db_api
from simcloud.db import models, retry

T_PROJECT = models.Project.__table__
T_USER = models.User.__table__
T_ROLE = models.Role.__table__
T_ASSIGN = models.RoleAssignment.__table__
T_DOMAIN_ASSIGN = models.DomainRoleAssignment.__table__
T_TRUST = models.Trust.__table__
T_TOKEN = models.Token.__table__
TABLES = {"project": T_PROJECT, "user": T_USER, "role": T_ROLE}


@retry.retry_on_db_error
def insert(kind, values):
    """Insert a project, user or role; False when the id or name is taken."""
    try:
        with db_api.transaction() as conn:
            conn.execute(TABLES[kind].insert().values(**values))
    except sa_exc.IntegrityError:
        return False
    return True


@retry.retry_on_db_error
def get(kind, obj_id):
    table = TABLES[kind]
    return db_api.one(sa.select(table).where(table.c.id == obj_id))


@retry.retry_on_db_error
def get_all(kind, **filters):
    table = TABLES[kind]
    stmt = sa.select(table).order_by(table.c.name)
    for key, value in filters.items():
        stmt = stmt.where(table.c[key] == value)
    return db_api.all_rows(stmt)


@retry.retry_on_db_error
def update(kind, obj_id, values):
    table = TABLES[kind]
    try:
        return db_api.write(table.update().where(table.c.id == obj_id).values(**values)) > 0
    except sa_exc.IntegrityError:
        return False


@retry.retry_on_db_error
def delete(kind, obj_id):
    table = TABLES[kind]
    with db_api.transaction() as conn:
        column = {"project": "project_id", "user": "user_id", "role": "role_id"}[kind]
        conn.execute(T_ASSIGN.delete().where(T_ASSIGN.c[column] == obj_id))
        if kind == "user":  # as Keystone: a user's trusts go with it, either side
            conn.execute(
                T_TRUST.delete().where(
                    sa.or_(T_TRUST.c.trustor_user_id == obj_id, T_TRUST.c.trustee_user_id == obj_id)
                )
            )
        return conn.execute(table.delete().where(table.c.id == obj_id)).rowcount > 0


# role assignments --------------------------------------------------------------------


@retry.retry_on_db_error
def assignment_add(user_id, project_id, role_id):
    try:
        with db_api.transaction() as conn:
            conn.execute(
                T_ASSIGN.insert().values(user_id=user_id, project_id=project_id, role_id=role_id)
            )
    except sa_exc.IntegrityError:
        pass


@retry.retry_on_db_error
def assignment_remove(user_id, project_id, role_id):
    stmt = T_ASSIGN.delete().where(
        T_ASSIGN.c.user_id == user_id,
        T_ASSIGN.c.project_id == project_id,
        T_ASSIGN.c.role_id == role_id,
    )
    return db_api.write(stmt) > 0


@retry.retry_on_db_error
def assignments(user_id=None, project_id=None, role_id=None):
    stmt = sa.select(T_ASSIGN)
    for key, value in (("user_id", user_id), ("project_id", project_id), ("role_id", role_id)):
        if value is not None:
            stmt = stmt.where(T_ASSIGN.c[key] == value)
    return db_api.all_rows(stmt)


@retry.retry_on_db_error
def roles_of(user_id, project_id):
    stmt = (
        sa.select(T_ROLE)
        .join(T_ASSIGN, T_ASSIGN.c.role_id == T_ROLE.c.id)
        .where(T_ASSIGN.c.user_id == user_id, T_ASSIGN.c.project_id == project_id)
        .order_by(T_ROLE.c.name)
    )
    return db_api.all_rows(stmt)


@retry.retry_on_db_error
def domain_assignment_add(user_id, domain_id, role_id):
    try:
        with db_api.transaction() as conn:
            conn.execute(
                T_DOMAIN_ASSIGN.insert().values(
                    user_id=user_id, domain_id=domain_id, role_id=role_id
                )
            )
    except sa_exc.IntegrityError:
        pass


@retry.retry_on_db_error
def domain_assignment_remove(user_id, domain_id, role_id):
    t = T_DOMAIN_ASSIGN
    stmt = t.delete().where(
        t.c.user_id == user_id, t.c.domain_id == domain_id, t.c.role_id == role_id
    )
    return db_api.write(stmt) > 0


@retry.retry_on_db_error
def domain_roles_of(user_id, domain_id):
    t = T_DOMAIN_ASSIGN
    stmt = (
        sa.select(T_ROLE)
        .join(t, t.c.role_id == T_ROLE.c.id)
        .where(t.c.user_id == user_id, t.c.domain_id == domain_id)
        .order_by(T_ROLE.c.name)
    )
    return db_api.all_rows(stmt)


@retry.retry_on_db_error
def roles_by_ids(role_ids):
    """The roles with these ids, in one query."""
    if not role_ids:
        return []
    return db_api.all_rows(
        sa.select(T_ROLE).where(T_ROLE.c.id.in_(list(role_ids))).order_by(T_ROLE.c.name)
    )


# trusts ------------------------------------------------------------------------------


@retry.retry_on_db_error
def trust_create(values):
    with db_api.transaction() as conn:
        conn.execute(T_TRUST.insert().values(**values))


@retry.retry_on_db_error
def trust_get(trust_id):
    return db_api.one(sa.select(T_TRUST).where(T_TRUST.c.id == trust_id))


@retry.retry_on_db_error
def trust_get_all(**filters):
    stmt = sa.select(T_TRUST).order_by(T_TRUST.c.created_at)
    for key, value in filters.items():
        stmt = stmt.where(T_TRUST.c[key] == value)
    return db_api.all_rows(stmt)


@retry.retry_on_db_error
def trust_delete(trust_id):
    """Delete a trust and revoke the tokens it scoped."""
    with db_api.transaction() as conn:
        conn.execute(T_TOKEN.update().where(T_TOKEN.c.trust_id == trust_id).values(revoked=True))
        return conn.execute(T_TRUST.delete().where(T_TRUST.c.id == trust_id)).rowcount > 0


# tokens ------------------------------------------------------------------------------


@retry.retry_on_db_error
def token_create(values):
    with db_api.transaction() as conn:
        conn.execute(T_TOKEN.insert().values(**values))


@retry.retry_on_db_error
def token_get(token_hash):
    return db_api.one(sa.select(T_TOKEN).where(T_TOKEN.c.id == token_hash))


@retry.retry_on_db_error
def token_revoke(token_hash):
    return db_api.write(T_TOKEN.update().where(T_TOKEN.c.id == token_hash).values(revoked=True))


@retry.retry_on_db_error
def token_revoke_user(user_id):
    return db_api.write(T_TOKEN.update().where(T_TOKEN.c.user_id == user_id).values(revoked=True))


@retry.retry_on_db_error
def token_purge_expired(before):
    return db_api.write(T_TOKEN.delete().where(T_TOKEN.c.expires_at < before))
