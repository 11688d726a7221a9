"""Heat's oslo.cache region: what the engine may remember of other services' answers.

As in Heat (heat/common/cache.py), one dogpile.cache region per process, configured by
oslo.cache's ``[cache]`` group (off unless ``enabled = true``; ``backend =
dogpile.cache.memory`` keeps it in the process), and a group per use with ``caching``
(default true) and ``expiration_time``:

* ``[constraint_validation_cache]`` (60 s): custom constraints that ask a service
  (``glance.image``, ``nova.flavor``, ``neutron.network``...) remember a value that
  validated, per project; a value that failed is asked again next time.
* ``[resource_finder_cache]`` (3600 s): the id a name or id stands for, per project:
  Neutron objects, Nova flavors, Glance images (Heat's MEMOIZE_FINDER on its plugins'
  ``_find_resource_id``, ``_find_flavor_id``, ``_find_image_id``); a name not found is
  asked again next time.

    cache.memoize(cache.CONSTRAINT_VALIDATION, key, lookup)   # lookup() once per key and TTL
"""

import threading

from oslo_cache import core

from heat_lite.conf import CONF

CONSTRAINT_VALIDATION = "constraint_validation_cache"
RESOURCE_FINDER = "resource_finder_cache"

_lock = threading.Lock()
_region = None


def get_cache_region():
    """The process's region, configured from ``[cache]`` at its first use."""
    global _region
    with _lock:
        if _region is None:
            _region = core.configure_cache_region(CONF, core.create_region())
    return _region


def enabled(group):
    """Whether ``[cache] enabled`` and the group's ``caching`` both hold."""
    return CONF.cache.enabled and getattr(CONF, group).caching


def memoize(group, key, create):
    """``create()``'s value, remembered under ``key`` for the group's expiration_time
    when caching is on for ``group``. An exception from ``create`` is not remembered."""
    if not enabled(group):
        return create()
    expiration = getattr(CONF, group).expiration_time
    return get_cache_region().get_or_create("%s:%s" % (group, key), create, expiration)
