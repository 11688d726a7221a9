"""Short, lowercase base32 ids derived from UUIDs, as Heat uses in physical names.

get_id('5f45c2a0-...') -> 'aqtnzpukezbh'  (12 characters)
"""

import base64
import uuid


def get_id(source_uuid):
    """The first 12 characters of the base32 encoding of the UUID's 60 low-order bits."""
    if isinstance(source_uuid, str):
        source_uuid = uuid.UUID(source_uuid)
    if source_uuid.version != 4:
        raise ValueError("Invalid UUID version (%d)" % source_uuid.version)
    # The time_low field is random in a v4 UUID; take 60 bits starting there.
    random_bytes = (source_uuid.int & ((1 << 60) - 1)).to_bytes(8, "big")
    encoded = base64.b32encode(random_bytes).decode("ascii").lower()
    return encoded[-12:]


def generate_id():
    return get_id(uuid.uuid4())
