"""Small helpers: uuids and Magnum's generated names (``sigma-20-cluster``)."""

import random
import uuid

from oslo_utils import uuidutils

GREEK_LETTERS = (
    "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa",
    "lambda", "mu", "nu", "xi", "omicron", "pi", "rho", "sigma", "tau", "upsilon", "phi",
    "chi", "psi", "omega",
)  # fmt: skip


def generate_uuid():
    return str(uuid.uuid4())


def is_uuid_like(value):
    return uuidutils.is_uuid_like(value)


def generate_name(kind):
    """``<greek letter>-<1..24>-<kind>``, e.g. ``sigma-20-cluster``."""
    return "%s-%d-%s" % (random.choice(GREEK_LETTERS), random.randint(1, 24), kind)
