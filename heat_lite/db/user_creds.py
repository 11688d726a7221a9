"""The credentials a stack tree acts with (``stack.user_creds_id``), in heat's database.

creds_id = user_creds_create(context)      # the request's user and project
user_creds_delete(creds_id)
"""

from heat_lite.db import session
from heat_lite.db.models import T_CREDS, T_STACK, utcnow
from heat_lite.db.retry import retry_on_db_error


@retry_on_db_error
def user_creds_create(context):
    with session.transaction() as conn:
        return session.inserted_id(conn, T_CREDS, creds_values(context))


def creds_values(context):
    """The row of ``context``'s credentials."""
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
    with session.transaction() as conn:
        conn.execute(
            T_STACK.update()
            .where(T_STACK.c.user_creds_id == creds_id, T_STACK.c.deleted_at.is_not(None))
            .values(user_creds_id=None)
        )
        conn.execute(T_CREDS.delete().where(T_CREDS.c.id == creds_id))
