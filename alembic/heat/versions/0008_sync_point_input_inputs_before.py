"""Each sync point input keeps the count its sync point had before the statement that
added it (``inputs_before``).

A report's count is that number plus its rank, by sender, among the inputs the same
statement added there. A report whose commit reached the server but whose answer was lost
with the connection is retried; the retry finds its rows (they carry its time) and so the
counts it made, the same that the lost answer held: the one report that completed a sync
point still knows it did. Rows of earlier traversals keep NULL.

Revision ID: 0008
Revises: 0007
"""

from typing import Sequence, Union

import sqlalchemy as sa

from alembic import op

revision: str = "0008"
down_revision: Union[str, Sequence[str], None] = "0007"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.add_column("sync_point_input", sa.Column("inputs_before", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("sync_point_input") as batch:
        batch.drop_column("inputs_before")
