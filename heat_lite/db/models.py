"""Heat's tables (docs/rpc-and-convergence.md §5), as SQLAlchemy 2 declarative models.

The models define the schema (alembic's initial revision mirrors them); the heat_lite.db
modules query them with Core statements on the tables (``T_STACK`` ...) for speed.
"""

import datetime
import json

import sqlalchemy as sa
from sqlalchemy import orm


def utcnow():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


class Json(sa.types.TypeDecorator):
    """JSON kept as TEXT (``None`` is stored as the string ``null``), as Heat does."""

    impl = sa.Text
    cache_ok = True

    def process_bind_param(self, value, dialect):
        return json.dumps(value)

    def process_result_value(self, value, dialect):
        if value is None:
            return None
        if value == "[]":
            return []  # most resources' requires/needed_by: no decoder call for them
        return json.loads(value)


class Base(orm.DeclarativeBase):
    pass


class RawTemplateFiles(Base):
    __tablename__ = "raw_template_files"
    id = sa.Column(sa.Integer, primary_key=True)
    files = sa.Column(Json)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class RawTemplate(Base):
    __tablename__ = "raw_template"
    id = sa.Column(sa.Integer, primary_key=True)
    template = sa.Column(Json)
    files = sa.Column(Json)
    files_id = sa.Column(sa.Integer, sa.ForeignKey("raw_template_files.id"))
    environment = sa.Column(Json)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class UserCreds(Base):
    __tablename__ = "user_creds"
    id = sa.Column(sa.Integer, primary_key=True)
    username = sa.Column(sa.String(255))
    password = sa.Column(sa.String(255))
    region_name = sa.Column(sa.String(255))
    decrypt_method = sa.Column(sa.String(64))
    tenant = sa.Column(sa.String(1024))
    auth_url = sa.Column(sa.Text)
    tenant_id = sa.Column(sa.String(256))
    trust_id = sa.Column(sa.String(255))
    trustor_user_id = sa.Column(sa.String(64))
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class Stack(Base):
    __tablename__ = "stack"
    __table_args__ = (
        sa.Index("ix_stack_name", "name"),
        sa.Index("ix_stack_tenant", "tenant", mysql_length=255),
        sa.Index("ix_stack_owner_id", "owner_id"),
        # a live stack's name is unique in its project: parallel creates cannot both win
        sa.Index(
            "uq_stack_tenant_name_live",
            "tenant",
            "name",
            unique=True,
            postgresql_where=sa.text("deleted_at IS NULL"),
            sqlite_where=sa.text("deleted_at IS NULL"),
        ),
    )
    id = sa.Column(sa.String(36), primary_key=True)
    name = sa.Column(sa.String(255))
    raw_template_id = sa.Column(sa.Integer, sa.ForeignKey("raw_template.id"), nullable=False)
    prev_raw_template_id = sa.Column(sa.Integer, sa.ForeignKey("raw_template.id"))
    username = sa.Column(sa.String(256))
    tenant = sa.Column(sa.String(256))
    user_creds_id = sa.Column(sa.Integer, sa.ForeignKey("user_creds.id"))
    owner_id = sa.Column(sa.String(36))
    parent_resource_name = sa.Column(sa.String(255))
    timeout = sa.Column(sa.Integer)
    disable_rollback = sa.Column(sa.Boolean, nullable=False)
    stack_user_project_id = sa.Column(sa.String(64))
    backup = sa.Column(sa.Boolean, default=False)
    nested_depth = sa.Column(sa.Integer, default=0)
    convergence = sa.Column(sa.Boolean, default=True)
    current_traversal = sa.Column(sa.String(36))
    current_deps = sa.Column(Json)
    action = sa.Column(sa.String(255))
    status = sa.Column(sa.String(255))
    status_reason = sa.Column(sa.Text)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)
    deleted_at = sa.Column(sa.DateTime)


class StackTag(Base):
    __tablename__ = "stack_tag"
    id = sa.Column(sa.Integer, primary_key=True)
    tag = sa.Column(sa.Unicode(80))
    stack_id = sa.Column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class ResourcePropertiesData(Base):
    __tablename__ = "resource_properties_data"
    id = sa.Column(sa.Integer, primary_key=True)
    data = sa.Column(Json)
    encrypted = sa.Column(sa.Boolean, default=False)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class Resource(Base):
    __tablename__ = "resource"
    __table_args__ = (
        sa.Index("ix_resource_root_stack_id", "root_stack_id"),
        sa.Index("ix_resource_stack_id", "stack_id"),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), unique=True)
    name = sa.Column(sa.String(255))
    nova_instance = sa.Column(sa.String(255))
    rsrc_metadata = sa.Column(Json)
    stack_id = sa.Column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)
    root_stack_id = sa.Column(sa.String(36))
    rsrc_prop_data_id = sa.Column(sa.Integer, sa.ForeignKey("resource_properties_data.id"))
    attr_data_id = sa.Column(sa.Integer, sa.ForeignKey("resource_properties_data.id"))
    properties_data = sa.Column(Json)
    properties_data_encrypted = sa.Column(sa.Boolean, default=False)
    engine_id = sa.Column(sa.String(36))
    atomic_key = sa.Column(sa.Integer, default=0)
    needed_by = sa.Column(Json, default=[])
    requires = sa.Column(Json, default=[])
    replaces = sa.Column(sa.Integer)
    replaced_by = sa.Column(sa.Integer)
    current_template_id = sa.Column(sa.Integer, sa.ForeignKey("raw_template.id"))
    action = sa.Column(sa.String(255))
    status = sa.Column(sa.String(255))
    status_reason = sa.Column(sa.Text)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class ResourceData(Base):
    __tablename__ = "resource_data"
    id = sa.Column(sa.Integer, primary_key=True)
    key = sa.Column(sa.String(255))
    value = sa.Column(sa.Text)
    redact = sa.Column(sa.Boolean, default=False)
    decrypt_method = sa.Column(sa.String(64))
    resource_id = sa.Column(
        sa.Integer, sa.ForeignKey("resource.id", ondelete="CASCADE"), nullable=False
    )
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class Event(Base):
    __tablename__ = "event"
    __table_args__ = (sa.Index("ix_event_stack_id", "stack_id"),)
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), unique=True)
    stack_id = sa.Column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)
    resource_action = sa.Column(sa.String(255))
    resource_status = sa.Column(sa.String(255))
    resource_name = sa.Column(sa.String(255))
    physical_resource_id = sa.Column(sa.String(255))
    resource_status_reason = sa.Column(sa.String(255))
    resource_type = sa.Column(sa.String(255))
    rsrc_prop_data_id = sa.Column(sa.Integer, sa.ForeignKey("resource_properties_data.id"))
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class SyncPoint(Base):
    __tablename__ = "sync_point"
    # pages kept 80 % free for the row versions of atomic_key (migration 0007)
    __table_args__ = (
        sa.Index("ix_sync_point_stack_id", "stack_id"),
        {"postgresql_with": {"fillfactor": 20}},
    )
    entity_id = sa.Column(sa.String(36), primary_key=True)
    traversal_id = sa.Column(sa.String(36), primary_key=True)
    is_update = sa.Column(sa.Boolean, primary_key=True)
    atomic_key = sa.Column(sa.Integer, nullable=False)
    stack_id = sa.Column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)
    extra_data = sa.Column(Json)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class SyncPointInput(Base):
    """One predecessor's input at a sync point: a row per graph edge.

    heat-lite's own table (Heat keeps the inputs as one growing JSON in
    ``sync_point.input_data``): each sender adds its row, and the sync point's
    ``atomic_key`` counts the rows, so a report costs the same whatever the fan-in
    (docs/rpc-and-convergence.md §4.10). Deleting the sync point deletes its inputs.
    """

    __tablename__ = "sync_point_input"
    __table_args__ = (
        sa.ForeignKeyConstraint(
            ["entity_id", "traversal_id", "is_update"],
            ["sync_point.entity_id", "sync_point.traversal_id", "sync_point.is_update"],
            ondelete="CASCADE",
        ),
    )
    traversal_id = sa.Column(sa.String(36), primary_key=True)
    entity_id = sa.Column(sa.String(36), primary_key=True)
    is_update = sa.Column(sa.Boolean, primary_key=True)
    sender = sa.Column(sa.String(64), primary_key=True)
    data = sa.Column(Json)
    extra_data = sa.Column(Json)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    # the sync point's count before the statement that added this input: with the rank
    # of its sender among that statement's inputs here, the count this input made
    # (a retried report's answer, db.sync_points.reported_counts)
    inputs_before = sa.Column(sa.Integer)


class StackLock(Base):
    __tablename__ = "stack_lock"
    stack_id = sa.Column(sa.String(36), sa.ForeignKey("stack.id"), primary_key=True)
    engine_id = sa.Column(sa.String(36))
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class Service(Base):
    __tablename__ = "service"
    id = sa.Column(sa.String(36), primary_key=True)
    engine_id = sa.Column(sa.String(36), nullable=False)
    host = sa.Column(sa.String(255), nullable=False)
    hostname = sa.Column(sa.String(255), nullable=False)
    binary = sa.Column(sa.String(255), nullable=False)
    topic = sa.Column(sa.String(255), nullable=False)
    report_interval = sa.Column(sa.Integer, nullable=False)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)
    deleted_at = sa.Column(sa.DateTime)


class Snapshot(Base):
    __tablename__ = "snapshot"
    __table_args__ = (sa.Index("ix_snapshot_stack_id", "stack_id"),)
    id = sa.Column(sa.String(36), primary_key=True)
    stack_id = sa.Column(sa.String(36), sa.ForeignKey("stack.id"), nullable=False)
    name = sa.Column(sa.String(255))
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)
    status = sa.Column(sa.String(255))
    status_reason = sa.Column(sa.String(255))
    data = sa.Column(Json)
    tenant = sa.Column(sa.String(64))


class SoftwareConfig(Base):
    __tablename__ = "software_config"
    __table_args__ = (sa.Index("ix_software_config_tenant", "tenant"),)
    id = sa.Column(sa.String(36), primary_key=True)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)
    name = sa.Column(sa.String(255))
    group = sa.Column(sa.String(255))
    config = sa.Column(Json)
    tenant = sa.Column(sa.String(64), nullable=False)


class SoftwareDeployment(Base):
    __tablename__ = "software_deployment"
    __table_args__ = (
        sa.Index("ix_software_deployment_created_at", "created_at"),
        sa.Index("ix_software_deployment_tenant", "tenant"),
    )
    id = sa.Column(sa.String(36), primary_key=True)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)
    server_id = sa.Column(sa.String(36), nullable=False)
    config_id = sa.Column(sa.String(36), sa.ForeignKey("software_config.id"), nullable=False)
    input_values = sa.Column(Json)
    output_values = sa.Column(Json)
    action = sa.Column(sa.String(255))
    status = sa.Column(sa.String(255))
    status_reason = sa.Column(sa.Text)
    tenant = sa.Column(sa.String(64), nullable=False)
    stack_user_project_id = sa.Column(sa.String(64))


# the tables as the db modules query them (Core statements on ``Model.__table__``)
T_RAW = RawTemplate.__table__
T_FILES = RawTemplateFiles.__table__
T_CREDS = UserCreds.__table__
T_STACK = Stack.__table__
T_TAG = StackTag.__table__
T_STACK_LOCK = StackLock.__table__
T_RSRC = Resource.__table__
T_RDATA = ResourceData.__table__
T_PROPS = ResourcePropertiesData.__table__
T_EVENT = Event.__table__
T_SYNC = SyncPoint.__table__
T_INPUT = SyncPointInput.__table__
T_SERVICE = Service.__table__
