"""Initial heat schema: the tables of spec/rpc-and-convergence.md §5 (JSON kept as TEXT).

Revision ID: 0001
Revises: 
Create Date: 2026-11-25 23:48:54.158827

"""
from typing import Sequence, Union

from alembic import op
import sqlalchemy as sa


# revision identifiers, used by Alembic.
revision: str = '0001'
down_revision: Union[str, Sequence[str], None] = None
branch_labels: Union[str, Sequence[str], None] = None
depends_on: Union[str, Sequence[str], None] = None


def upgrade() -> None:
    """Upgrade schema."""

    op.create_table('raw_template_files',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('files', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('resource_properties_data',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('data', sa.Text(), nullable=True),
    sa.Column('encrypted', sa.Boolean(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('service',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('engine_id', sa.String(length=36), nullable=False),
    sa.Column('host', sa.String(length=255), nullable=False),
    sa.Column('hostname', sa.String(length=255), nullable=False),
    sa.Column('binary', sa.String(length=255), nullable=False),
    sa.Column('topic', sa.String(length=255), nullable=False),
    sa.Column('report_interval', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('deleted_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('user_creds',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('username', sa.String(length=255), nullable=True),
    sa.Column('password', sa.String(length=255), nullable=True),
    sa.Column('region_name', sa.String(length=255), nullable=True),
    sa.Column('decrypt_method', sa.String(length=64), nullable=True),
    sa.Column('tenant', sa.String(length=1024), nullable=True),
    sa.Column('auth_url', sa.Text(), nullable=True),
    sa.Column('tenant_id', sa.String(length=256), nullable=True),
    sa.Column('trust_id', sa.String(length=255), nullable=True),
    sa.Column('trustor_user_id', sa.String(length=64), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('raw_template',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('template', sa.Text(), nullable=True),
    sa.Column('files', sa.Text(), nullable=True),
    sa.Column('files_id', sa.Integer(), nullable=True),
    sa.Column('environment', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['files_id'], ['raw_template_files.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('stack',
    sa.Column('id', sa.String(length=36), nullable=False),
    sa.Column('name', sa.String(length=255), nullable=True),
    sa.Column('raw_template_id', sa.Integer(), nullable=False),
    sa.Column('prev_raw_template_id', sa.Integer(), nullable=True),
    sa.Column('username', sa.String(length=256), nullable=True),
    sa.Column('tenant', sa.String(length=256), nullable=True),
    sa.Column('user_creds_id', sa.Integer(), nullable=True),
    sa.Column('owner_id', sa.String(length=36), nullable=True),
    sa.Column('parent_resource_name', sa.String(length=255), nullable=True),
    sa.Column('timeout', sa.Integer(), nullable=True),
    sa.Column('disable_rollback', sa.Boolean(), nullable=False),
    sa.Column('stack_user_project_id', sa.String(length=64), nullable=True),
    sa.Column('backup', sa.Boolean(), nullable=True),
    sa.Column('nested_depth', sa.Integer(), nullable=True),
    sa.Column('convergence', sa.Boolean(), nullable=True),
    sa.Column('current_traversal', sa.String(length=36), nullable=True),
    sa.Column('current_deps', sa.Text(), nullable=True),
    sa.Column('action', sa.String(length=255), nullable=True),
    sa.Column('status', sa.String(length=255), nullable=True),
    sa.Column('status_reason', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.Column('deleted_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['prev_raw_template_id'], ['raw_template.id'], ),
    sa.ForeignKeyConstraint(['raw_template_id'], ['raw_template.id'], ),
    sa.ForeignKeyConstraint(['user_creds_id'], ['user_creds.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_index('ix_stack_name', 'stack', ['name'], unique=False)
    op.create_index('ix_stack_owner_id', 'stack', ['owner_id'], unique=False)
    op.create_index('ix_stack_tenant', 'stack', ['tenant'], unique=False, mysql_length=255)
    op.create_table('event',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uuid', sa.String(length=36), nullable=True),
    sa.Column('stack_id', sa.String(length=36), nullable=False),
    sa.Column('resource_action', sa.String(length=255), nullable=True),
    sa.Column('resource_status', sa.String(length=255), nullable=True),
    sa.Column('resource_name', sa.String(length=255), nullable=True),
    sa.Column('physical_resource_id', sa.String(length=255), nullable=True),
    sa.Column('resource_status_reason', sa.String(length=255), nullable=True),
    sa.Column('resource_type', sa.String(length=255), nullable=True),
    sa.Column('rsrc_prop_data_id', sa.Integer(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['rsrc_prop_data_id'], ['resource_properties_data.id'], ),
    sa.ForeignKeyConstraint(['stack_id'], ['stack.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('uuid')
    )
    op.create_index('ix_event_stack_id', 'event', ['stack_id'], unique=False)
    op.create_table('resource',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('uuid', sa.String(length=36), nullable=True),
    sa.Column('name', sa.String(length=255), nullable=True),
    sa.Column('nova_instance', sa.String(length=255), nullable=True),
    sa.Column('rsrc_metadata', sa.Text(), nullable=True),
    sa.Column('stack_id', sa.String(length=36), nullable=False),
    sa.Column('root_stack_id', sa.String(length=36), nullable=True),
    sa.Column('rsrc_prop_data_id', sa.Integer(), nullable=True),
    sa.Column('attr_data_id', sa.Integer(), nullable=True),
    sa.Column('properties_data', sa.Text(), nullable=True),
    sa.Column('properties_data_encrypted', sa.Boolean(), nullable=True),
    sa.Column('engine_id', sa.String(length=36), nullable=True),
    sa.Column('atomic_key', sa.Integer(), nullable=True),
    sa.Column('needed_by', sa.Text(), nullable=True),
    sa.Column('requires', sa.Text(), nullable=True),
    sa.Column('replaces', sa.Integer(), nullable=True),
    sa.Column('replaced_by', sa.Integer(), nullable=True),
    sa.Column('current_template_id', sa.Integer(), nullable=True),
    sa.Column('action', sa.String(length=255), nullable=True),
    sa.Column('status', sa.String(length=255), nullable=True),
    sa.Column('status_reason', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['attr_data_id'], ['resource_properties_data.id'], ),
    sa.ForeignKeyConstraint(['current_template_id'], ['raw_template.id'], ),
    sa.ForeignKeyConstraint(['rsrc_prop_data_id'], ['resource_properties_data.id'], ),
    sa.ForeignKeyConstraint(['stack_id'], ['stack.id'], ),
    sa.PrimaryKeyConstraint('id'),
    sa.UniqueConstraint('uuid')
    )
    op.create_index('ix_resource_root_stack_id', 'resource', ['root_stack_id'], unique=False)
    op.create_table('stack_lock',
    sa.Column('stack_id', sa.String(length=36), nullable=False),
    sa.Column('engine_id', sa.String(length=36), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['stack_id'], ['stack.id'], ),
    sa.PrimaryKeyConstraint('stack_id')
    )
    op.create_table('stack_tag',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('tag', sa.Unicode(length=80), nullable=True),
    sa.Column('stack_id', sa.String(length=36), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['stack_id'], ['stack.id'], ),
    sa.PrimaryKeyConstraint('id')
    )
    op.create_table('sync_point',
    sa.Column('entity_id', sa.String(length=36), nullable=False),
    sa.Column('traversal_id', sa.String(length=36), nullable=False),
    sa.Column('is_update', sa.Boolean(), nullable=False),
    sa.Column('atomic_key', sa.Integer(), nullable=False),
    sa.Column('stack_id', sa.String(length=36), nullable=False),
    sa.Column('input_data', sa.Text(), nullable=True),
    sa.Column('extra_data', sa.Text(), nullable=True),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['stack_id'], ['stack.id'], ),
    sa.PrimaryKeyConstraint('entity_id', 'traversal_id', 'is_update')
    )
    op.create_table('resource_data',
    sa.Column('id', sa.Integer(), nullable=False),
    sa.Column('key', sa.String(length=255), nullable=True),
    sa.Column('value', sa.Text(), nullable=True),
    sa.Column('redact', sa.Boolean(), nullable=True),
    sa.Column('decrypt_method', sa.String(length=64), nullable=True),
    sa.Column('resource_id', sa.Integer(), nullable=False),
    sa.Column('created_at', sa.DateTime(), nullable=True),
    sa.Column('updated_at', sa.DateTime(), nullable=True),
    sa.ForeignKeyConstraint(['resource_id'], ['resource.id'], ondelete='CASCADE'),
    sa.PrimaryKeyConstraint('id')
    )



def downgrade() -> None:
    """Downgrade schema."""

    op.drop_table('resource_data')
    op.drop_table('sync_point')
    op.drop_table('stack_tag')
    op.drop_table('stack_lock')
    op.drop_index('ix_resource_root_stack_id', table_name='resource')
    op.drop_table('resource')
    op.drop_index('ix_event_stack_id', table_name='event')
    op.drop_table('event')
    op.drop_index('ix_stack_tenant', table_name='stack', mysql_length=255)
    op.drop_index('ix_stack_owner_id', table_name='stack')
    op.drop_index('ix_stack_name', table_name='stack')
    op.drop_table('stack')
    op.drop_table('raw_template')
    op.drop_table('user_creds')
    op.drop_table('service')
    op.drop_table('resource_properties_data')
    op.drop_table('raw_template_files')

