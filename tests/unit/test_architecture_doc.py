"""docs/architecture.md's map names code that exists.

Every ``module:function`` of the file (``heat_lite.engine.stack:Stack.converge_stack``)
is looked up in its module's source, so a rename or a move that forgets the map fails here.
"""

import ast
import pathlib
import re

import pytest

pytestmark = pytest.mark.unit

ROOT = pathlib.Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
REFERENCE = re.compile(r"\b((?:heat_lite|magnum_lite|simcloud)(?:\.\w+)*):(\w+(?:\.\w+)*)")


def references(text):
    """The (module, dotted name) pairs ``text`` writes as ``module:name``, in order."""
    return [(m.group(1), m.group(2)) for m in REFERENCE.finditer(text)]


def _defined(body):
    """{name: node} of what a module's or class's body defines (imported names too)."""
    names = {}
    for node in body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = node
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                names[(alias.asname or alias.name).split(".")[0]] = alias
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            names.update((t.id, node) for t in targets if isinstance(t, ast.Name))
    return names


def missing(module_name, name):
    """Why ``module_name:name`` names nothing ('' when it names something). The module's
    source is read, not imported: a console script's module monkey-patches the process
    with eventlet when imported."""
    path = ROOT.joinpath(*module_name.split("."))
    path = path / "__init__.py" if path.is_dir() else path.with_suffix(".py")
    if not path.is_file():
        return "no module %s" % module_name
    body = ast.parse(path.read_text()).body
    for part in name.split("."):
        found = _defined(body).get(part)
        if found is None:
            return "%s:%s has no %s" % (module_name, name, part)
        if not isinstance(found, ast.ClassDef):
            break  # a function, a value or an imported name: what it holds is not read
        body = found.body
    return ""


def test_every_reference_of_the_map_exists():
    refs = references(DOC.read_text())
    # the flow alone names some 80 steps: a map that lost its references fails too
    assert len(refs) > 60, refs
    problems = [why for why in (missing(module, name) for module, name in refs) if why]
    assert not problems, "docs/architecture.md names what does not exist:\n" + "\n".join(problems)


def test_a_reference_that_names_nothing_is_reported():
    assert references("see `heat_lite.engine.stack:Stack.converge_stack`.") == [
        ("heat_lite.engine.stack", "Stack.converge_stack")
    ]
    assert missing("heat_lite.engine.stack", "Stack.converge_stack") == ""
    assert "has no nope" in missing("heat_lite.engine.stack", "Stack.nope")
    assert "no module" in missing("heat_lite.engine.nope", "f")
