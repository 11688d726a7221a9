"""Short, lowercase base32 ids derived from UUIDs, as Heat uses in physical names.

get_id('5f45c2a0-...') -> 'aqtnzpukezbh'  (12 characters)
"""

import base64
import uuid


def get_id(source_uuid):
    """12 lowercase base32 characters from the 60 random bits of a v4 UUID's time field."""
    if isinstance(source_uuid, str):
        source_uuid = uuid.UUID(source_uuid)
    if source_uuid.version != 4:
        raise ValueError("Invalid UUID version (%d)" % source_uuid.version)
    # 60 bits, left-aligned in 8 bytes: the first 12 base32 characters are exactly them
    random_bytes = (source_uuid.time << 4).to_bytes(8, "big")
    return base64.b32encode(random_bytes)[:12].decode("ascii").lower()


def generate_id():
    return get_id(uuid.uuid4())
