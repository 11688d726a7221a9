"""template_versions() and template_functions() against what Heat 27 answers.

heat27_template_versions.json was recorded from a running Heat 27:
GET /v1/<tenant>/template_versions and .../template_versions/<v>/functions with and
without ``with_condition_func=true``.
"""

import json
import pathlib

import pytest

from heat_lite.common import exception
from heat_lite.engine import template

pytestmark = pytest.mark.unit

RECORDED = json.loads((pathlib.Path(__file__).parent / "heat27_template_versions.json").read_text())


def _expand(items):
    """Recorded items are a name (usual description) or [name, description]."""
    result = []
    for item in items:
        name, desc = item if isinstance(item, list) else (item, RECORDED["descriptions"][item])
        result.append({"functions": name, "description": desc})
    return result


def _all_names():
    for entry in RECORDED["template_versions"]:
        for name in [entry["version"]] + entry["aliases"]:
            yield name, entry["version"]


def test_template_versions():
    assert template.template_versions() == RECORDED["template_versions"]


@pytest.mark.parametrize("version,canonical", list(_all_names()))
@pytest.mark.parametrize("with_condition", [False, True])
def test_template_functions(version, canonical, with_condition):
    kind = "with_condition" if with_condition else "plain"
    expected = _expand(RECORDED["template_functions"][canonical][kind])
    assert template.template_functions(version, with_condition=with_condition) == expected


def test_template_functions_do_not_change_the_tables():
    version = "heat_template_version.2016-10-14"
    template.template_functions(version, with_condition=True)
    names = [f["functions"] for f in template.template_functions(version)]
    assert "equals" not in names


@pytest.mark.parametrize("version", ["heat_template_version.2099-01-01", "nope", "newton"])
def test_unknown_version(version):
    with pytest.raises(exception.NotFound) as err:
        template.template_functions(version)
    assert str(err.value) == "Template with version %s not found" % version
