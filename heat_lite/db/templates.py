"""A stack's raw template (and the files it refers to) in heat's database.

template_id = raw_template_create(template, environment, files)
row = raw_template_get(template_id)        # row.template, row.environment, row.files_data
raw_template_delete(template_id)
"""

import sqlalchemy as sa

from heat_lite.common import exception
from heat_lite.db import prepared, session
from heat_lite.db.models import T_FILES, T_RAW, utcnow
from heat_lite.db.retry import retry_on_db_error


@retry_on_db_error
@session.postgresql_fast_path
def raw_template_create(template, environment, files=None):
    """Insert a template (and its files' row); its id. PostgreSQL: one statement
    (postgresql.raw_template_create)."""
    with session.transaction() as conn:
        return insert_raw_template(conn, template, environment, files, utcnow())


def insert_raw_template(conn, template, environment, files, now):
    """raw_template_create's rows inserted on ``conn`` (inside its transaction); the id."""
    files_id = None
    if files:
        files_id = session.inserted_id(conn, T_FILES, {"files": files, "created_at": now})
    row = {"template": template, "environment": environment, "files_id": files_id}
    return session.inserted_id(conn, T_RAW, dict(row, created_at=now))


_RAW_GET = prepared.Prepared(
    sa.select(T_RAW, T_FILES.c.files.label("files_data"))
    .select_from(T_RAW.outerjoin(T_FILES, T_RAW.c.files_id == T_FILES.c.id))
    .where(T_RAW.c.id == sa.bindparam("template_id")),
    named=True,
)


@retry_on_db_error
def raw_template_get(template_id):
    row = session.first_prepared(_RAW_GET, {"template_id": template_id})
    if row is None:
        raise exception.EntityNotFound(entity="Template", name=template_id)
    return row


@retry_on_db_error
def raw_template_delete(template_id):
    with session.transaction() as conn:
        row = conn.execute(sa.select(T_RAW.c.files_id).where(T_RAW.c.id == template_id)).first()
        conn.execute(T_RAW.delete().where(T_RAW.c.id == template_id))
        if row is not None and row.files_id is not None:
            conn.execute(T_FILES.delete().where(T_FILES.c.id == row.files_id))
