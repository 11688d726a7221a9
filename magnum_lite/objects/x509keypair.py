"""X509KeyPair: a certificate with its (encrypted) private key, kept in magnum's database."""

from magnum_lite.common import utils
from magnum_lite.db import api as dbapi
from magnum_lite.objects import base, fields


@base.MagnumObjectRegistry.register
class X509KeyPair(base.MagnumPersistentObject, base.MagnumObject):
    VERSION = "1.2"

    fields = {
        "id": fields.IntegerField(),
        "uuid": fields.UUIDField(nullable=True),
        "certificate": fields.StringField(nullable=True),
        "private_key": fields.StringField(nullable=True),
        "private_key_passphrase": fields.StringField(nullable=True),
        "intermediates": fields.StringField(nullable=True),
        "project_id": fields.StringField(nullable=True),
        "user_id": fields.StringField(nullable=True),
        **base.MagnumPersistentObject.fields,
    }

    @classmethod
    def get(cls, context, x509keypair_id):
        if isinstance(x509keypair_id, int) or str(x509keypair_id).isdigit():
            return cls.get_by_id(context, int(x509keypair_id))
        return cls.get_by_uuid(context, x509keypair_id)

    @classmethod
    def get_by_id(cls, context, x509keypair_id):
        row = dbapi.x509keypair_get_by_id(context, x509keypair_id)
        return cls._from_db_object(cls(context), row)

    @classmethod
    def get_by_uuid(cls, context, uuid):
        return cls._from_db_object(cls(context), dbapi.x509keypair_get_by_uuid(context, uuid))

    def db_values(self):
        """The row this new key pair stores (its uuid made here when not given)."""
        if not self.obj_attr_is_set("uuid") or self.uuid is None:
            self.uuid = utils.generate_uuid()
        return self._db_changes()

    def create(self, context=None):
        self._from_db_object(self, dbapi.x509keypair_create(self.db_values()))

    def destroy(self, context=None):
        dbapi.x509keypair_destroy(self.uuid)
        self.obj_reset_changes()

    def save(self, context=None):
        updates = self._db_changes()
        if updates:
            self._from_db_object(self, dbapi.x509keypair_update(self.id, updates))
