"""Passwords, stored as bcrypt hashes (Keystone's default algorithm), never logged.

hashed = passwords.hash_password('secret')
passwords.check_password('secret', hashed)     # True
"""

import bcrypt

from simcloud.conf import CONF

# bcrypt only reads the first 72 bytes; Keystone truncates likewise
_MAX_BYTES = 72


def hash_password(password):
    rounds = CONF.identity.password_hash_rounds
    return bcrypt.hashpw(password.encode()[:_MAX_BYTES], bcrypt.gensalt(rounds)).decode()


def check_password(password, hashed):
    if not password or not hashed:
        return False
    try:
        return bcrypt.checkpw(password.encode()[:_MAX_BYTES], hashed.encode())
    except ValueError:
        return False
