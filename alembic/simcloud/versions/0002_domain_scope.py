"""Domain-scoped tokens: domain role grants (domain_role_assignment) and token.domain_id.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-26 13:10:00

"""

from typing import Sequence, Union

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: Union[str, Sequence[str], None] = "0001"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "domain_role_assignment",
        sa.Column("user_id", sa.String(length=64), nullable=False),
        sa.Column("domain_id", sa.String(length=64), nullable=False),
        sa.Column("role_id", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["user_id"], ["user.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["role_id"], ["role.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("user_id", "domain_id", "role_id"),
    )
    op.add_column("token", sa.Column("domain_id", sa.String(length=64), nullable=True))


def downgrade() -> None:
    op.drop_column("token", "domain_id")
    op.drop_table("domain_role_assignment")
