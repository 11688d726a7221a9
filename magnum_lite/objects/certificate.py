"""Certificate: a CSR and its signed PEM, or a cluster's CA (not stored; travels over RPC)."""

from magnum_lite.objects import base, fields


@base.MagnumObjectRegistry.register
class Certificate(base.MagnumObject):
    VERSION = "1.2"

    fields = {
        "project_id": fields.StringField(nullable=True),
        "user_id": fields.StringField(nullable=True),
        "cluster_uuid": fields.StringField(nullable=True),
        "csr": fields.StringField(nullable=True),
        "pem": fields.StringField(nullable=True),
        "ca_cert_type": fields.StringField(nullable=True),
    }

    @classmethod
    def from_object_cluster(cls, cluster):
        return cls(
            project_id=cluster.project_id, user_id=cluster.user_id, cluster_uuid=cluster.uuid
        )

    @classmethod
    def from_db_cluster(cls, cluster):
        return cls.from_object_cluster(cluster)
