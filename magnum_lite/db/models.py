"""Magnum's tables, with Magnum's table and column names (alembic/magnum holds the DDL)."""

import datetime
import json

import sqlalchemy as sa
from sqlalchemy import orm


def utcnow():
    return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)


class JSONEncoded(sa.types.TypeDecorator):
    """A JSON document in a Text column (Magnum's JSONEncodedDict / JSONEncodedList)."""

    impl = sa.Text
    cache_ok = True
    empty = None

    def process_bind_param(self, value, dialect):
        return json.dumps(self.empty if value is None else value)

    def process_result_value(self, value, dialect):
        return self.empty if value is None else json.loads(value)


class JSONEncodedDict(JSONEncoded):
    cache_ok = True
    empty = {}


class JSONEncodedList(JSONEncoded):
    cache_ok = True
    empty = []


class Base(orm.DeclarativeBase):
    pass


def _timestamps():
    return (
        sa.Column("created_at", sa.DateTime, default=utcnow),
        sa.Column("updated_at", sa.DateTime, onupdate=utcnow),
    )


class ClusterTemplate(Base):
    __tablename__ = "cluster_template"
    __table_args__ = (sa.UniqueConstraint("uuid", name="uniq_cluster_template0uuid"),)
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    project_id = sa.Column(sa.String(255))
    user_id = sa.Column(sa.String(255))
    name = sa.Column(sa.String(255))
    image_id = sa.Column(sa.String(255))
    flavor_id = sa.Column(sa.String(255))
    master_flavor_id = sa.Column(sa.String(255))
    keypair_id = sa.Column(sa.String(255))
    external_network_id = sa.Column(sa.String(255))
    fixed_network = sa.Column(sa.String(255))
    fixed_subnet = sa.Column(sa.String(255))
    network_driver = sa.Column(sa.String(255))
    volume_driver = sa.Column(sa.String(255))
    dns_nameserver = sa.Column(sa.String(255))
    apiserver_port = sa.Column(sa.Integer)
    docker_volume_size = sa.Column(sa.Integer)
    docker_storage_driver = sa.Column(sa.String(512))
    cluster_distro = sa.Column(sa.String(255))
    coe = sa.Column(sa.String(255))
    http_proxy = sa.Column(sa.String(255))
    https_proxy = sa.Column(sa.String(255))
    no_proxy = sa.Column(sa.String(255))
    registry_enabled = sa.Column(sa.Boolean, default=False)
    labels = sa.Column(JSONEncodedDict)
    tls_disabled = sa.Column(sa.Boolean, default=False)
    public = sa.Column(sa.Boolean, default=False)
    server_type = sa.Column(sa.String(255))
    insecure_registry = sa.Column(sa.String(255))
    master_lb_enabled = sa.Column(sa.Boolean, default=False)
    floating_ip_enabled = sa.Column(sa.Boolean, default=True)
    hidden = sa.Column(sa.Boolean, default=False)
    tags = sa.Column(sa.String(255))
    driver = sa.Column(sa.String(255))
    created_at, updated_at = _timestamps()


class Cluster(Base):
    __tablename__ = "cluster"
    __table_args__ = (sa.UniqueConstraint("uuid", name="uniq_bay0uuid"),)
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    project_id = sa.Column(sa.String(255))
    user_id = sa.Column(sa.String(255))
    name = sa.Column(sa.String(255))
    cluster_template_id = sa.Column(
        sa.String(255), sa.ForeignKey("cluster_template.uuid"), nullable=True
    )
    keypair = sa.Column(sa.String(255))
    docker_volume_size = sa.Column(sa.Integer)
    labels = sa.Column(JSONEncodedDict)
    master_flavor_id = sa.Column(sa.String(255))
    flavor_id = sa.Column(sa.String(255))
    stack_id = sa.Column(sa.String(255))
    api_address = sa.Column(sa.String(255))
    status = sa.Column(sa.String(20))
    status_reason = sa.Column(sa.Text)
    health_status = sa.Column(sa.String(20))
    health_status_reason = sa.Column(JSONEncodedDict)
    create_timeout = sa.Column(sa.Integer)
    discovery_url = sa.Column(sa.String(255))
    coe_version = sa.Column(sa.String(255))
    container_version = sa.Column(sa.String(255))
    ca_cert_ref = sa.Column(sa.String(512))
    magnum_cert_ref = sa.Column(sa.String(512))
    etcd_ca_cert_ref = sa.Column(sa.String(512))
    front_proxy_ca_cert_ref = sa.Column(sa.String(512))
    trustee_username = sa.Column(sa.String(255))
    trustee_user_id = sa.Column(sa.String(255))
    trustee_password = sa.Column(sa.String(255))
    trust_id = sa.Column(sa.String(255))
    fixed_network = sa.Column(sa.String(255))
    fixed_subnet = sa.Column(sa.String(255))
    floating_ip_enabled = sa.Column(sa.Boolean, default=True)
    master_lb_enabled = sa.Column(sa.Boolean, default=False)
    created_at, updated_at = _timestamps()


class NodeGroup(Base):
    __tablename__ = "nodegroup"
    __table_args__ = (
        sa.UniqueConstraint("uuid", name="uniq_nodegroup0uuid"),
        sa.UniqueConstraint("cluster_id", "name", name="uniq_nodegroup0cluster_id0name"),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36), nullable=False)
    name = sa.Column(sa.String(255), nullable=False)
    cluster_id = sa.Column(
        sa.String(255), sa.ForeignKey("cluster.uuid", ondelete="CASCADE"), nullable=False
    )
    project_id = sa.Column(sa.String(255), nullable=False)
    docker_volume_size = sa.Column(sa.Integer)
    labels = sa.Column(JSONEncodedDict)
    flavor_id = sa.Column(sa.String(255))
    image_id = sa.Column(sa.String(255))
    node_addresses = sa.Column(JSONEncodedList)
    node_count = sa.Column(sa.Integer)
    role = sa.Column(sa.String(255))
    max_node_count = sa.Column(sa.Integer)
    min_node_count = sa.Column(sa.Integer, default=0)
    is_default = sa.Column(sa.Boolean, default=False)
    stack_id = sa.Column(sa.String(255))
    status = sa.Column(sa.String(20))
    status_reason = sa.Column(sa.Text)
    version = sa.Column(sa.String(20))
    node_labels = sa.Column(JSONEncodedDict)
    node_taints = sa.Column(JSONEncodedList)
    created_at, updated_at = _timestamps()


class X509KeyPair(Base):
    __tablename__ = "x509keypair"
    __table_args__ = (sa.UniqueConstraint("uuid", name="uniq_x509keypair0uuid"),)
    id = sa.Column(sa.Integer, primary_key=True)
    uuid = sa.Column(sa.String(36))
    certificate = sa.Column(sa.Text)
    private_key = sa.Column(sa.Text)
    private_key_passphrase = sa.Column(sa.Text)
    intermediates = sa.Column(sa.Text)
    project_id = sa.Column(sa.String(255))
    user_id = sa.Column(sa.String(255))
    created_at, updated_at = _timestamps()


class Quota(Base):
    __tablename__ = "quotas"
    __table_args__ = (
        sa.UniqueConstraint("project_id", "resource", name="uniq_quotas0project_id0resource"),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    project_id = sa.Column(sa.String(255))
    resource = sa.Column(sa.String(255))
    hard_limit = sa.Column(sa.Integer)
    created_at, updated_at = _timestamps()


class MagnumService(Base):
    __tablename__ = "magnum_service"
    __table_args__ = (
        sa.UniqueConstraint("host", "binary", name="uniq_magnum_service0host0binary"),
    )
    id = sa.Column(sa.Integer, primary_key=True)
    host = sa.Column(sa.String(255))
    binary = sa.Column(sa.String(255))
    disabled = sa.Column(sa.Boolean, default=False)
    disabled_reason = sa.Column(sa.String(255))
    last_seen_up = sa.Column(sa.DateTime)
    forced_down = sa.Column(sa.Boolean, default=False)
    report_count = sa.Column(sa.Integer, nullable=False, default=0)
    created_at, updated_at = _timestamps()
