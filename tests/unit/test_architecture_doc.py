"""docs/architecture.md's map names code that exists.

Every ``module:function`` of the file (``heat_lite.engine.stack:Stack.converge_stack``)
is imported and looked up, so a rename or a move that forgets the map fails here.
"""

import importlib
import pathlib
import re

import pytest

pytestmark = pytest.mark.unit

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "architecture.md"
REFERENCE = re.compile(r"\b((?:heat_lite|magnum_lite|simcloud)(?:\.\w+)*):(\w+(?:\.\w+)*)")


def references(text):
    """The (module, dotted name) pairs ``text`` writes as ``module:name``, in order."""
    return [(m.group(1), m.group(2)) for m in REFERENCE.finditer(text)]


def missing(module_name, name):
    """Why ``module_name:name`` names nothing ('' when it names something)."""
    try:
        found = importlib.import_module(module_name)
    except ImportError as exc:
        return "no module %s (%s)" % (module_name, exc)
    for part in name.split("."):
        if not hasattr(found, part):
            return "%s:%s has no %s" % (module_name, name, part)
        found = getattr(found, part)
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
