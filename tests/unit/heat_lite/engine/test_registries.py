"""The engine's loaders by name name every module of what they load, and only those.

Four modules import plugins by name (importlib), which lint-imports cannot see: the
resource registry (resources.PLUGIN_MODULES), the template formats
(template.PLUGIN_MODULES), the built-in constraints (constraints.CONSTRAINT_MODULES) and
the client plugins (clients' service table). pyproject.toml's engine layers contract places
what each loads in a higher layer than the loader; these tests hold that each list is the
package's modules of that kind, found in the source (nothing imported to find them), so a
plugin cannot be added without its loader knowing it, nor a loader name a module that
does not provide what it loads.
"""

import ast
import importlib
import pathlib

import pytest

from heat_lite.engine import clients, constraints, resources, template

pytestmark = pytest.mark.unit

ENGINE = pathlib.Path(template.__file__).resolve().parent


def _module_name(path):
    parts = path.relative_to(ENGINE.parents[1]).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules_where(root, found):
    """The dotted names of the modules under ``root`` whose syntax tree ``found`` accepts."""
    return {
        _module_name(path)
        for path in sorted(root.rglob("*.py"))
        if found(ast.parse(path.read_text(), filename=str(path)))
    }


def _defines(name):
    def found(tree):
        return any(isinstance(n, ast.FunctionDef) and n.name == name for n in tree.body)

    return found


def _calls_template_register(tree):
    return any(
        isinstance(n, ast.Call) and ast.unparse(n.func) == "template.register"
        for n in ast.walk(tree)
    )


def _defines_client_plugin(tree):
    return any(
        isinstance(n, ast.ClassDef) and n.name.endswith("ClientPlugin") and n.name != "ClientPlugin"
        for n in tree.body
    )


def test_the_resource_registry_names_every_plugin_module():
    plugins = _modules_where(ENGINE / "resources", _defines("resource_mapping"))
    assert set(resources.PLUGIN_MODULES) == plugins
    assert len(resources.PLUGIN_MODULES) == len(plugins)  # none twice


def test_the_provider_template_module_is_where_template_class_is():
    found = _modules_where(ENGINE / "resources", _defines("template_class"))
    assert found == {"heat_lite.engine.resources", resources.TEMPLATE_RESOURCE_MODULE}


def test_every_template_format_module_is_loaded():
    formats = _modules_where(ENGINE, _calls_template_register)
    assert set(template.PLUGIN_MODULES) == formats


def test_every_constraint_mapping_is_loaded():
    assert set(constraints.CONSTRAINT_MODULES) == _modules_where(
        ENGINE, _defines("constraint_mapping")
    )


def test_every_client_plugin_is_named_once():
    paths = clients._PLUGINS.values()
    modules = {path.partition(":")[0] for path in paths}
    assert modules == _modules_where(ENGINE / "clients", _defines_client_plugin)
    assert len(modules) == len(paths)
    for path in paths:
        module_name, _, class_name = path.partition(":")
        assert hasattr(importlib.import_module(module_name), class_name), path


def test_what_the_resource_registry_loads_maps_every_type_to_a_plugin_class():
    from heat_lite.engine import resource

    for type_name, cls in resources.registry().items():
        assert issubclass(cls, resource.Resource), type_name
