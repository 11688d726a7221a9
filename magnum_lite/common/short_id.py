"""Short ids for stack names, as Magnum (and Heat) make them.

A short id is 12 lowercase base32 characters (60 random bits) taken from a uuid4:

    >>> generate_id()
    'ayz3hjqslmua'
"""

import base64
import uuid


def get_id(source_uuid):
    """The 12-character short id of a version 4 ``uuid.UUID`` (or its string form)."""
    if isinstance(source_uuid, str):
        source_uuid = uuid.UUID(source_uuid)
    if source_uuid.version != 4:
        raise ValueError("Invalid UUID version (%d)" % source_uuid.version)
    # uuid4's time field is 60 random bits: pad to 64 bits, base32 gives 12 data chars
    random_bytes = (source_uuid.time << 4).to_bytes(8, "big")
    return base64.b32encode(random_bytes)[:12].decode("ascii").lower()


def generate_id():
    """A new random short id."""
    return get_id(uuid.uuid4())
