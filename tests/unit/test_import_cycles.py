"""No import cycle in heat_lite, magnum_lite or simcloud.

import-linter holds the layering (pyproject.toml [tool.importlinter]); this test holds what its
contracts cannot: that no two modules reach each other through any chain of imports, including
the imports made inside functions to dodge a cycle at load time. Every module is parsed with
``ast`` (nothing is imported), so a cycle is named even where Python would tolerate it.
"""

import ast
import pathlib

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("heat_lite", "magnum_lite", "simcloud")


def module_files(root, packages):
    """{dotted module name: path} for every .py file under the packages."""
    modules = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            if parts[-1] == "__init__":
                parts = parts[:-1]
            modules[".".join(parts)] = path
    return modules


def _resolve_from(module, is_package, node):
    """The absolute base of ``from <base> import ...``, relative levels resolved."""
    if not node.level:
        return node.module
    package = module.split(".")
    if not is_package:
        package = package[:-1]
    package = package[: len(package) - (node.level - 1)]
    return ".".join(package + ([node.module] if node.module else []))


def _known(name, modules):
    """The deepest module of ours that ``name`` names (``a.b.func`` -> ``a.b``), or None."""
    parts = name.split(".")
    while parts:
        candidate = ".".join(parts)
        if candidate in modules:
            return candidate
        parts.pop()
    return None


def imports_of(module, path, modules):
    """The modules of ours that ``module`` imports anywhere in its body, functions included."""
    tree = ast.parse(path.read_text(), filename=str(path))
    is_package = path.name == "__init__.py"
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            # "from a import b": the module a.b when b is one, else a (b is a name in it)
            base = _resolve_from(module, is_package, node)
            names = [
                base + "." + alias.name if base + "." + alias.name in modules else base
                for alias in node.names
            ]
        else:
            continue
        for name in names:
            target = _known(name, modules)
            if target and target != module:
                found.add(target)
    return found


def import_graph(root=ROOT, packages=PACKAGES):
    modules = module_files(root, packages)
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def strongly_connected(graph):
    """Tarjan's algorithm, iterative: the components with more than one module."""
    index, low, on_stack, stack, components = {}, {}, set(), [], []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = set()
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.add(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(component)
    return components


def a_cycle(graph, component):
    """One concrete loop through the component, as a list that starts and ends on one module:
    the shortest path back to the component's first module from one of its imports."""
    start = min(component)
    previous = {start: None}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for child in sorted(graph[node] & component):
                if child == start:
                    path = [start]
                    while node is not None:
                        path.append(node)
                        node = previous[node]
                    return path[::-1]
                if child not in previous:
                    previous[child] = node
                    following.append(child)
        frontier = following
    raise AssertionError("%s is not a cycle" % sorted(component))


def describe(graph, components):
    lines = []
    for component in sorted(components, key=min):
        lines.append(
            "%d modules import each other: %s\n  e.g. %s"
            % (len(component), ", ".join(sorted(component)), " -> ".join(a_cycle(graph, component)))
        )
    return "\n".join(lines)


def test_no_import_cycle():
    graph = import_graph()
    components = strongly_connected(graph)
    assert not components, "import cycles:\n" + describe(graph, components)


@pytest.fixture
def tree(tmp_path):
    """A package ``pkg`` written from {relative path: source}."""

    def write(files):
        for name, source in files.items():
            path = tmp_path / "pkg" / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(source)
        return import_graph(tmp_path, ("pkg",))

    return write


def test_a_function_level_import_closes_a_cycle(tree):
    graph = tree(
        {
            "__init__.py": "",
            "a.py": "from pkg import b\n",
            "b.py": "def f():\n    from . import c\n",
            "c.py": "import pkg.a.thing\n",
        }
    )
    assert graph["pkg.b"] == {"pkg.c"}
    assert graph["pkg.c"] == {"pkg.a"}
    (component,) = strongly_connected(graph)
    assert component == {"pkg.a", "pkg.b", "pkg.c"}
    assert a_cycle(graph, component) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]


def test_a_layered_tree_has_no_cycle(tree):
    graph = tree(
        {
            "__init__.py": "",
            "sub/__init__.py": "from .low import X\n",
            "sub/low.py": "X = 1\n",
            "top.py": "from pkg.sub import low, X\nfrom .sub.low import X as Y\n",
        }
    )
    assert graph["pkg.top"] == {"pkg.sub", "pkg.sub.low"}
    assert graph["pkg.sub"] == {"pkg.sub.low"}
    assert strongly_connected(graph) == []
