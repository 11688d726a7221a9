"""Sync point inputs as rows: one per graph edge.

Every predecessor's report used to rewrite the sync point's ``input_data`` JSON, which
grows with the fan-in: a layer of 100 resources into 100 was 10,000 read-modify-writes
of rows up to 100 inputs long. Now each report inserts one ``sync_point_input`` row per
successor and counts it in ``sync_point.atomic_key``; ``input_data`` goes. Sync points
are per traversal, so none outlives an upgrade that is done with the services stopped;
downgrading gives back the empty column.

Revision ID: 0006
Revises: 0005
"""

from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0006"
down_revision: Union[str, Sequence[str], None] = "0005"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_table(
        "sync_point_input",
        sa.Column("traversal_id", sa.String(length=36), nullable=False),
        sa.Column("entity_id", sa.String(length=36), nullable=False),
        sa.Column("is_update", sa.Boolean(), nullable=False),
        sa.Column("sender", sa.String(length=64), nullable=False),
        sa.Column("data", sa.Text(), nullable=True),
        sa.Column("extra_data", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(
            ["entity_id", "traversal_id", "is_update"],
            ["sync_point.entity_id", "sync_point.traversal_id", "sync_point.is_update"],
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("traversal_id", "entity_id", "is_update", "sender"),
    )
    op.drop_column("sync_point", "input_data")


def downgrade() -> None:
    op.add_column("sync_point", sa.Column("input_data", sa.Text(), nullable=True))
    op.drop_table("sync_point_input")
