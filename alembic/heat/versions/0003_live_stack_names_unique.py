"""a live stack's name is unique in its project

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-26 09:40:00

A partial unique index on stack (tenant, name) WHERE deleted_at IS NULL, on PostgreSQL
and SQLite alike. Live stacks that already share a name (left by the old check-then-insert
race) keep their rows: every one but the oldest gets its id's first 8 characters appended
to its name, so the index can be built and nothing is lost.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0003'
down_revision: Union[str, Sequence[str], None] = '0002'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None

LIVE = sa.text("deleted_at IS NULL")


def _rename_duplicates():
    conn = op.get_bind()
    rows = conn.execute(sa.text(
        "SELECT id, tenant, name FROM stack WHERE deleted_at IS NULL "
        "ORDER BY created_at, id"
    )).all()
    seen = set()
    for stack_id, tenant, name in rows:
        if (tenant, name) not in seen:
            seen.add((tenant, name))
            continue
        new_name = "%s-%s" % (name, stack_id[:8])
        conn.execute(sa.text("UPDATE stack SET name = :name WHERE id = :id"),
                     {"name": new_name, "id": stack_id})
        seen.add((tenant, new_name))


def upgrade() -> None:
    _rename_duplicates()
    op.create_index('uq_stack_tenant_name_live', 'stack', ['tenant', 'name'], unique=True,
                    postgresql_where=LIVE, sqlite_where=LIVE)


def downgrade() -> None:
    op.drop_index('uq_stack_tenant_name_live', table_name='stack')
