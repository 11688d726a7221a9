"""Stored templates: raw_template rows <-> Template objects, with a per-process cache.

raw_template rows never change once written, so a worker parses each one once, and
keeps one copy of each file's contents however many templates carry it.

    tmpl = templates.load(raw_template_id)      # cached Template, tmpl.id set
    templates.store(tmpl)                         # inserts the row, sets tmpl.id
    db_api.stack_create(..., template=templates.row(tmpl))   # ... with a new stack
"""

import collections
import sys
import threading

from sqlalchemy import exc as sa_exc

from heat_lite.db import api as db_api
from heat_lite.engine import template

_CACHE_SIZE = 256
_cache = collections.OrderedDict()
_lock = threading.Lock()


def load(template_id):
    key = (db_api.generation(), template_id)
    with _lock:
        tmpl = _cache.get(key)
        if tmpl is not None:
            _cache.move_to_end(key)
            return tmpl
    row = db_api.raw_template_get(template_id)
    tmpl = template.Template(row.template, files=_shared(row.files_data), env=row.environment or {})
    tmpl.id = template_id
    with _lock:
        _cache[key] = tmpl
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return tmpl


def _shared(files):
    """``files`` whose contents are the process's one copy of each (sys.intern): every
    nested stack of a tree stores the tree's files again (Magnum's k8s tree: 56 files in
    each of its stacks' rows), and every cluster of a driver the same ones, so the cache
    held a copy of each per stack."""
    return {
        name: sys.intern(body) if type(body) is str else body
        for name, body in (files or {}).items()
    }


def store(tmpl):
    tmpl.id = db_api.raw_template_create(*row(tmpl))
    return tmpl.id


def row(tmpl):
    """The ``(template, environment, files)`` of ``tmpl``'s raw_template row."""
    return tmpl.t, tmpl.env or {}, tmpl.files or None


def delete(template_id):
    """Forget a template no longer used; kept if a leftover row still refers to it."""
    with _lock:
        _cache.pop((db_api.generation(), template_id), None)
    try:
        db_api.raw_template_delete(template_id)
    except sa_exc.IntegrityError:
        pass


def empty_like(tmpl):
    """An empty template of the same version, with the same environment (delete/rollback)."""
    empty = template.Template.create_empty_template(version=tmpl.version)
    empty.env = tmpl.env
    return empty
