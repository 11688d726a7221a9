"""Failure and latency injection: ``[simulation]`` options, overridden at run time.

The admin endpoint (``/simcloud/v1/injection``) stores overrides in ``sim_setting``;
every process reads them (cached for a second):

    injection.current()['build_time']             # config, or the override
    injection.update({'fail_objects': ['nova.server:*-master-0']})
    injection.should_fail('nova.server', 'k8s-master-0')    # True
    injection.reset()                              # back to the config file
"""

import fnmatch
import threading
import time

from simcloud.common import exception
from simcloud.conf import CONF
from simcloud.db import objects as db

NAMES = ("build_time", "fail_objects", "fail_marker", "api_latency")
_CACHE = {"at": 0.0, "values": None, "generation": 0}
_LOCK = threading.Lock()
_TTL = 1.0


def _validate(name, value):
    if name == "build_time" and (not isinstance(value, (int, float)) or value < 0):
        raise exception.BadRequest("build_time must be a number of seconds >= 0.")
    if name == "fail_objects" and not (
        isinstance(value, list) and all(isinstance(v, str) for v in value)
    ):
        raise exception.BadRequest("fail_objects must be a list of '<kind>:<name glob>'.")
    if name == "fail_marker" and not isinstance(value, str):
        raise exception.BadRequest("fail_marker must be a string.")
    if name == "api_latency" and not (
        isinstance(value, dict)
        and all(isinstance(v, (int, float)) and v >= 0 for v in value.values())
    ):
        raise exception.BadRequest("api_latency must map service names to seconds >= 0.")


def defaults():
    sim = CONF.simulation
    return {
        "build_time": sim.build_time,
        "fail_objects": list(sim.fail_objects),
        "fail_marker": sim.fail_marker,
        "api_latency": {k: float(v) for k, v in sim.api_latency.items()},
    }


def current():
    now = time.monotonic()
    with _LOCK:
        if _CACHE["values"] is not None and now - _CACHE["at"] <= _TTL:
            return _CACHE["values"]
        generation = _CACHE["generation"]
    values = defaults()
    values.update({k: v for k, v in db.settings_get().items() if k in NAMES})
    with _LOCK:
        # what a request read before the settings changed (forget) is not kept: it would
        # hide the change for a whole _TTL from the requests that follow it
        if _CACHE["generation"] == generation:
            _CACHE.update(at=now, values=values)
    return values


def forget():
    """The settings changed (here, or in this process's configuration): read them again."""
    with _LOCK:
        _CACHE["generation"] += 1
        _CACHE["values"] = None


def update(values):
    """Override some settings (a None value goes back to the config's)."""
    unknown = set(values) - set(NAMES)
    if unknown:
        raise exception.BadRequest("Unknown settings: %s." % ", ".join(sorted(unknown)))
    for name, value in values.items():
        if value is not None:
            _validate(name, value)
    db.settings_set(values)
    forget()
    return current()


def reset():
    db.settings_clear()
    forget()
    return current()


def should_fail(kind, name):
    """Whether an object of ``kind`` named ``name`` is made to fail."""
    settings = current()
    name = name or ""
    marker = settings["fail_marker"]
    if marker and marker in name:
        return True
    for entry in settings["fail_objects"]:
        entry_kind, _, pattern = entry.partition(":")
        if entry_kind == kind and fnmatch.fnmatchcase(name, pattern or "*"):
            return True
    return False


def latency(service):
    return float(current()["api_latency"].get(service, 0.0))
