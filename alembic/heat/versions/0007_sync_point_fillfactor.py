"""sync_point pages keep room for the row versions its counter writes (PostgreSQL).

Every input a sync point receives rewrites its row (``atomic_key`` counts the inputs), so
a layer of 100 resources into 100 writes each of the 100 rows 100 times within a second.
With full pages, three updates in four found no room on the row's own page: each new
version went to another page with a new index entry, the table grew to 1,589 pages for
1,001 rows and every later lock or update of the row walked the dead versions. With
pages filled to 20 %, the versions stay on the row's page (heap-only tuples, pruned as
the page is next read) and the index keeps one entry per row. SQLite has no such setting.

Revision ID: 0007
Revises: 0006
"""

from typing import Sequence, Union

from alembic import op

revision: str = "0007"
down_revision: Union[str, Sequence[str], None] = "0006"
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE sync_point SET (fillfactor = 20)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("ALTER TABLE sync_point RESET (fillfactor)")
