"""A worker's caches of traversal graphs: one tuple per node however many edges name it,
and finished traversals' big graphs evicted by weight (never the two most recent)."""

from heat_lite.engine import graph_cache
from heat_lite.engine import stack as parser


def _layers(layers, width):
    edges = []
    for layer in range(layers):
        for i in range(width):
            node = [layer * width + i + 1, True]
            if not layer:
                edges.append([node, None])
            for j in range(width if layer else 0):
                edges.append([node, [(layer - 1) * width + j + 1, True]])
    return {"edges": edges, "traversal": "t"}


def test_each_node_is_one_tuple():
    deps = parser.deps_from_json(_layers(3, 4))
    nodes = {id(node) for node in deps.nodes()}
    for node in deps.nodes():
        for other in list(deps.requires(node)) + list(deps.required_by(node)):
            assert id(other) in nodes
    assert len(deps) == 12 and deps.requires((5, True)) == {
        (1, True),
        (2, True),
        (3, True),
        (4, True),
    }


def test_big_graphs_are_evicted_by_weight_but_never_the_two_most_recent():
    cache = graph_cache._Cache(64, weight=len, max_weight=10)
    built = []

    def get(key, size):
        return cache.get(key, lambda: built.append(key) or "x" * size)

    get("small", 2)
    get("big1", 8)
    get("big2", 8)  # 18 > 10: the least recently used goes, the two most recent stay
    get("big2", 8)
    get("big1", 8)
    assert built == ["small", "big1", "big2"]
    get("big3", 8)  # big2 is now the least recently used of three
    get("big1", 8)
    get("big2", 8)
    assert built == ["small", "big1", "big2", "big3", "big2"]
