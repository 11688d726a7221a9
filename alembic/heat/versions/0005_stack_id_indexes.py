"""Index resource.stack_id and sync_point.stack_id.

A stack's resources (resource list and show, stack show's outputs, delete) and its sync
points (cleared at the end of each traversal) are found by stack_id; without an index
each such query scans the rows of every stack in the database (bench/many_stacks.py,
bench/scale.py).

Revision ID: 0005
Revises: 0004
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0005"
down_revision: Union[str, Sequence[str], None] = "0004"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.create_index("ix_resource_stack_id", "resource", ["stack_id"], unique=False)
    op.create_index("ix_sync_point_stack_id", "sync_point", ["stack_id"], unique=False)


def downgrade() -> None:
    op.drop_index("ix_sync_point_stack_id", table_name="sync_point")
    op.drop_index("ix_resource_stack_id", table_name="resource")
