"""OS::Nova::KeyPair: an SSH key pair; its reference (and physical id) is its name."""

from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.clients import client_exception
from heat_lite.engine.resources.openstack import client_resource

P = properties.Schema
A = attributes.Schema


class KeyPair(client_resource.ClientResource):
    default_client_name, entity = "nova", "keypair"

    properties_schema = {
        "name": P(
            P.STRING,
            "The name of the key pair.",
            required=True,
            constraints=[constraints.Length(min=1, max=255)],
        ),
        "save_private_key": P(
            P.BOOLEAN,
            "True if the system should remember a generated private key; False otherwise.",
            default=False,
        ),
        "public_key": P(
            P.STRING,
            "The optional public key. This allows users to supply the public key from a "
            "pre-existing key pair. If not supplied, a new key pair will be generated.",
        ),
        "type": P(
            P.STRING,
            "Keypair type. Supported since Nova api version 2.2.",
            constraints=[constraints.AllowedValues(["ssh", "x509"])],
        ),
        "user": P(P.STRING, "ID or name of user to whom to add key-pair."),
    }
    attributes_schema = {
        "private_key": A("The private key if it has been saved.", type=A.STRING),
        "public_key": A("The public key.", type=A.STRING),
    }

    def handle_create(self):
        public_key = self.properties["public_key"]
        key = self.client_plugin().create_keypair(self.properties["name"], public_key)
        if not public_key and self.properties["save_private_key"]:
            private = "-----BEGIN RSA PRIVATE KEY-----\nsim-%s\n-----END RSA PRIVATE KEY-----\n"
            self.data_set("private_key", private % key["id"], redact=True)
        self.resource_id_set(key["name"])

    def _show_resource(self):
        key = self.client_plugin().get_keypair(self.resource_id)
        return key

    def _resolve_attribute(self, name, key):
        if name == "private_key":
            return self.data().get("private_key", "")
        return key.get(name)

    def _key_id(self, name):
        try:
            return self.client_plugin().get_keypair(name)["id"]
        except Exception:
            return None

    def _delete_resource(self, resource_id):
        key_id = self._key_id(resource_id)
        if key_id is None:
            raise client_exception.NotFound("Keypair %s not found." % resource_id)
        self.client_plugin().delete("keypair", key_id)

    def check_delete_complete(self, resource_id):
        return resource_id is None or self._key_id(resource_id) is None


def resource_mapping():
    return {"OS::Nova::KeyPair": KeyPair}
