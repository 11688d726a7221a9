"""The pieces heat_lite, magnum_lite and simcloud each hold a copy of are the same copy.

The three are separate programs and import nothing of each other (pyproject.toml's
independence contract), so the database plumbing they share is copied: the retry of
transient errors (db/retry.py, all of it but its docstring, whose example names a
function of its own package) and the engine's connections and transactions (the
functions of heat_lite/db/session.py that magnum_lite/db/api.py and simcloud/db/api.py
have too). This test compares the copies, the package names alone normalised, and fails
with the diff of any that drifted: change one, change them all.

Not compared, because they differ by design: configure() (heat's pool size, its
PostgreSQL fast paths and generation; magnum's and simcloud's pre-ping), heat's
dispose() (it chooses the fast paths again), and the request contexts: heat's carries
Heat's wire keys and a trust-scoped token's body, magnum's Magnum's all_tenants and
trust_id (both oslo.context's RequestContext, as in OpenStack), simcloud's is the
identity service's view of a token, not oslo.context's.
"""

import ast
import difflib
import pathlib

import pytest

pytestmark = pytest.mark.unit

ROOT = pathlib.Path(__file__).resolve().parents[2]
PACKAGES = ("heat_lite", "magnum_lite", "simcloud")
SESSION = {
    "heat_lite": "heat_lite/db/session.py",
    "magnum_lite": "magnum_lite/db/api.py",
    "simcloud": "simcloud/db/api.py",
}
# function -> the packages whose SESSION module holds a copy of it
SHARED_FUNCTIONS = {
    "get_engine": PACKAGES,
    "create_schema": PACKAGES,
    "transaction": PACKAGES,
    "_rollback": PACKAGES,
    "autocommit": ("heat_lite", "simcloud"),
    "write": ("heat_lite", "simcloud"),
    "_sqlite_foreign_keys": ("heat_lite", "magnum_lite"),
    "dispose": ("magnum_lite", "simcloud"),
}


def _normalised(text, package):
    return text.replace(package, "<package>")


def module_body(package, path):
    """The module's source after its docstring, its package's name normalised."""
    text = (ROOT / package / path).read_text()
    docstring = ast.parse(text).body[0]
    assert isinstance(docstring, ast.Expr) and isinstance(docstring.value, ast.Constant)
    lines = text.splitlines(keepends=True)
    return _normalised("".join(lines[docstring.end_lineno :]), package)


def function_source(package, name):
    """The source of function ``name`` (decorators included) in the package's SESSION
    module, its package's name normalised."""
    path = ROOT / SESSION[package]
    text = path.read_text()
    for node in ast.parse(text).body:
        if isinstance(node, ast.FunctionDef) and node.name == name:
            lines = text.splitlines(keepends=True)
            first = min([node.lineno] + [d.lineno for d in node.decorator_list])
            return _normalised("".join(lines[first - 1 : node.end_lineno]), package)
    raise AssertionError("%s has no function %s" % (SESSION[package], name))


def drift(copies):
    """The unified diffs of every copy against the first one ('' when all are the same)."""
    (first, reference), *others = copies.items()
    diffs = []
    for name, text in others:
        diffs.extend(
            difflib.unified_diff(
                reference.splitlines(keepends=True),
                text.splitlines(keepends=True),
                fromfile=first,
                tofile=name,
            )
        )
    return "".join(diffs)


def test_the_db_retry_modules_are_one_copy():
    copies = {"%s/db/retry.py" % p: module_body(p, "db/retry.py") for p in PACKAGES}
    diff = drift(copies)
    assert not diff, "db/retry.py differs between the packages:\n" + diff


@pytest.mark.parametrize("name", sorted(SHARED_FUNCTIONS))
def test_the_db_session_functions_are_one_copy(name):
    copies = {
        "%s:%s" % (SESSION[p], name): function_source(p, name) for p in SHARED_FUNCTIONS[name]
    }
    diff = drift(copies)
    assert not diff, "%s differs between the packages:\n%s" % (name, diff)


def test_a_drifted_copy_is_shown_as_a_diff():
    diff = drift({"a": "x = 1\ny = 2\n", "b": "x = 1\ny = 3\n"})
    assert "-y = 2\n+y = 3\n" in diff
    assert not drift({"a": "same\n", "b": "same\n", "c": "same\n"})
