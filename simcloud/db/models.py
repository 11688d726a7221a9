"""simcloud's tables, as SQLAlchemy 2 declarative models (alembic/simcloud mirrors them).

Identity (Keystone's subset): project, user, role, role_assignment, token, trust.
The cloud: sim_object, one row per server, port, volume, image, ...; ``kind`` names the
service and type (``nova.server``, ``neutron.port``), ``properties`` holds what the API
shows, ``ready_at`` is when a building object turns ready. ``sim_setting`` keeps the
failure and latency injection set at run time through the admin endpoint.
"""

import datetime
import json

import sqlalchemy as sa
from sqlalchemy import orm


def utcnow():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


class Json(sa.types.TypeDecorator):
    """JSON kept as TEXT."""

    impl = sa.Text
    cache_ok = True

    def process_bind_param(self, value, dialect):
        return json.dumps(value)

    def process_result_value(self, value, dialect):
        return None if value is None else json.loads(value)


class Base(orm.DeclarativeBase):
    pass


class Project(Base):
    __tablename__ = "project"
    id = sa.Column(sa.String(64), primary_key=True)
    name = sa.Column(sa.String(64), nullable=False)
    domain_id = sa.Column(sa.String(64), nullable=False, default="default")
    description = sa.Column(sa.Text)
    enabled = sa.Column(sa.Boolean, nullable=False, default=True)
    __table_args__ = (sa.UniqueConstraint("domain_id", "name", name="uq_project_name"),)


class User(Base):
    __tablename__ = "user"
    id = sa.Column(sa.String(64), primary_key=True)
    name = sa.Column(sa.String(255), nullable=False)
    domain_id = sa.Column(sa.String(64), nullable=False, default="default")
    password_hash = sa.Column(sa.String(128))
    default_project_id = sa.Column(sa.String(64))
    email = sa.Column(sa.String(255))
    description = sa.Column(sa.Text)
    enabled = sa.Column(sa.Boolean, nullable=False, default=True)
    __table_args__ = (sa.UniqueConstraint("domain_id", "name", name="uq_user_name"),)


class Role(Base):
    __tablename__ = "role"
    id = sa.Column(sa.String(64), primary_key=True)
    name = sa.Column(sa.String(255), nullable=False, unique=True)
    description = sa.Column(sa.Text)


class RoleAssignment(Base):
    __tablename__ = "role_assignment"
    user_id = sa.Column(
        sa.String(64), sa.ForeignKey("user.id", ondelete="CASCADE"), primary_key=True
    )
    project_id = sa.Column(
        sa.String(64), sa.ForeignKey("project.id", ondelete="CASCADE"), primary_key=True
    )
    role_id = sa.Column(
        sa.String(64), sa.ForeignKey("role.id", ondelete="CASCADE"), primary_key=True
    )


class DomainRoleAssignment(Base):
    """A role a user holds on a domain (Keystone's domain grants); simcloud has one
    domain, ``default``."""

    __tablename__ = "domain_role_assignment"
    user_id = sa.Column(
        sa.String(64), sa.ForeignKey("user.id", ondelete="CASCADE"), primary_key=True
    )
    domain_id = sa.Column(sa.String(64), primary_key=True)
    role_id = sa.Column(
        sa.String(64), sa.ForeignKey("role.id", ondelete="CASCADE"), primary_key=True
    )


class Trust(Base):
    __tablename__ = "trust"
    id = sa.Column(sa.String(64), primary_key=True)
    trustor_user_id = sa.Column(sa.String(64), nullable=False)
    trustee_user_id = sa.Column(sa.String(64), nullable=False)
    project_id = sa.Column(sa.String(64))
    impersonation = sa.Column(sa.Boolean, nullable=False, default=False)
    allow_redelegation = sa.Column(sa.Boolean, nullable=False, default=False)
    role_ids = sa.Column(Json)
    expires_at = sa.Column(sa.DateTime)
    created_at = sa.Column(sa.DateTime, default=utcnow)


class Token(Base):
    """An issued token; ``id`` is the SHA-256 of the token, never the token itself."""

    __tablename__ = "token"
    id = sa.Column(sa.String(64), primary_key=True)
    user_id = sa.Column(sa.String(64), nullable=False)
    project_id = sa.Column(sa.String(64))
    domain_id = sa.Column(sa.String(64))  # a domain-scoped token's domain
    trust_id = sa.Column(sa.String(64))
    role_ids = sa.Column(Json)
    methods = sa.Column(Json)
    audit_id = sa.Column(sa.String(32))
    issued_at = sa.Column(sa.DateTime, nullable=False)
    expires_at = sa.Column(sa.DateTime, nullable=False, index=True)
    revoked = sa.Column(sa.Boolean, nullable=False, default=False)


class SimObject(Base):
    __tablename__ = "sim_object"
    __table_args__ = (
        sa.Index("ix_sim_object_kind_project", "kind", "project_id"),
        sa.Index("ix_sim_object_name", "kind", "name"),
    )
    id = sa.Column(sa.String(64), primary_key=True)
    kind = sa.Column(sa.String(64), nullable=False)
    project_id = sa.Column(sa.String(64))
    name = sa.Column(sa.String(255))
    status = sa.Column(sa.String(64))
    properties = sa.Column(Json)
    ready_at = sa.Column(sa.DateTime)
    created_at = sa.Column(sa.DateTime, default=utcnow)
    updated_at = sa.Column(sa.DateTime)


class SimSetting(Base):
    __tablename__ = "sim_setting"
    name = sa.Column(sa.String(64), primary_key=True)
    value = sa.Column(Json)
