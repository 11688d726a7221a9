"""the simulated cloud leaves heat's database

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-26 10:50:00

heat-lite's client plugins now call the cloud's REST APIs (simcloud-api or a real
cloud), which keeps its objects in its own database: the sim_object table goes.
Downgrading makes the empty table again.
"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0004'
down_revision: Union[str, Sequence[str], None] = '0003'
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    op.drop_index('ix_sim_object_name', table_name='sim_object')
    op.drop_index('ix_sim_object_kind_project', table_name='sim_object')
    op.drop_table('sim_object')


def downgrade() -> None:
    op.create_table(
        'sim_object',
        sa.Column('id', sa.String(length=36), nullable=False),
        sa.Column('kind', sa.String(length=64), nullable=False),
        sa.Column('project_id', sa.String(length=64), nullable=True),
        sa.Column('name', sa.String(length=255), nullable=True),
        sa.Column('status', sa.String(length=64), nullable=True),
        sa.Column('properties', sa.Text(), nullable=True),
        sa.Column('ready_at', sa.DateTime(), nullable=True),
        sa.Column('created_at', sa.DateTime(), nullable=True),
        sa.Column('updated_at', sa.DateTime(), nullable=True),
        sa.PrimaryKeyConstraint('id'),
    )
    op.create_index('ix_sim_object_kind_project', 'sim_object', ['kind', 'project_id'])
    op.create_index('ix_sim_object_name', 'sim_object', ['kind', 'name'])
