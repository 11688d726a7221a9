"""The graph cache: a worker's copy of each traversal's graph and of each template's facts.

Every node of a traversal propagates over the same graph (``stack.current_deps``) and the
same template: a worker builds each once and keeps the recent ones, so a 1,000-node
traversal does not parse its graph 1,000 times.

    graph = graph_for(stack)     # raises GraphNotReady before the traversal's graph is stored
    graph.deps.required_by(key); key in graph.roots
    facts_for(stack).dep_attrs[name]; name in facts_for(stack).output_resources
"""

import collections
import threading

from heat_lite.common import keyed_lock
from heat_lite.db import api as db_api
from heat_lite.engine import stack as parser


class Graph:
    """A traversal's graph (from ``stack.current_deps``), with its roots and dep attrs."""

    def __init__(self, current_deps):
        self.deps = parser.deps_from_json(current_deps)
        self.roots = self.deps.roots()


class TemplateFacts:
    """What propagation needs to know of a template: attributes used, outputs' resources."""

    def __init__(self, stack):
        self.dep_attrs = collections.defaultdict(set)
        self.output_resources = set()
        definitions = stack.definitions
        outputs = stack.t.outputs(stack)
        for defn in list(definitions.values()) + list(outputs.values()):
            for name in defn.required_resource_names():
                for path in defn.dep_attrs(name):
                    self.dep_attrs[name].add(path[0] if isinstance(path, tuple) else path)
        for output in outputs.values():
            self.output_resources.update(output.required_resource_names())


class _Cache:
    """A small LRU cache, safe across (green) threads. A missing value is built once:
    the threads that want it meanwhile wait for that build (a 1,000-node traversal's
    first messages all arrive at once, and its graph can take a second to load).

    ``weight(value)`` and ``max_weight``: past that total the least recently used values
    go too, but never the two most recent (a traversal and the one superseding it are
    not rebuilt in turn)."""

    def __init__(self, size, weight=None, max_weight=None):
        self._data = collections.OrderedDict()
        self._size = size
        self._weight, self._max_weight = weight, max_weight
        self._weights = {}
        self._lock = threading.Lock()
        self._building = keyed_lock.KeyedLocks()

    def _too_big(self):
        if len(self._data) > self._size:
            return True
        if self._weight is None or len(self._data) <= 2:
            return False
        return sum(self._weights.values()) > self._max_weight

    def get(self, key, build):
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                return self._data[key]
        with self._building.held(key):
            with self._lock:
                if key in self._data:
                    return self._data[key]
            value = build()
            with self._lock:
                self._data[key] = value
                if self._weight is not None:
                    self._weights[key] = self._weight(value)
                while self._too_big():
                    old, _ = self._data.popitem(last=False)
                    self._weights.pop(old, None)
            return value


# graphs weigh their nodes: finished traversals' big graphs (a 10,000-resource layered
# graph is ~30 MB) do not stay in a worker's memory for the next 64 traversals
_graphs = _Cache(64, weight=lambda graph: len(graph.deps), max_weight=30000)
_facts = _Cache(256)


class GraphNotReady(Exception):
    """The stack's stored graph is not (yet) the one of its current traversal."""


def graph_for(stack):
    """The graph of the stack's current traversal (GraphNotReady until it is stored)."""

    def build():
        current_deps = stack.current_deps or db_api.stack_deps_get(stack.id) or {}
        if current_deps.get("traversal") != stack.current_traversal:
            raise GraphNotReady(stack.current_traversal)
        return Graph(current_deps)

    return _graphs.get(stack.current_traversal, build)


def facts_for(stack):
    """The TemplateFacts of the stack's template (per database, as ids are)."""
    return _facts.get((db_api.generation(), stack.t.id), lambda: TemplateFacts(stack))
