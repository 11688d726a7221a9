import pytest
import yaml

from heat_lite.common import exception, template_format
from heat_lite.conf import CONF

pytestmark = pytest.mark.unit


def test_parse_json():
    tmpl = template_format.parse('{"heat_template_version": "2018-08-31", "resources": {}}')
    assert tmpl == {"heat_template_version": "2018-08-31", "resources": {}}


def test_parse_yaml_keeps_dates_and_strings_as_str():
    tmpl = template_format.parse("heat_template_version: 2018-08-31\ndescription: hi\n")
    assert tmpl["heat_template_version"] == "2018-08-31"
    assert isinstance(tmpl["heat_template_version"], str)


def test_parse_dict_returns_a_copy():
    data = {"heat_template_version": "2015-04-30"}
    tmpl = template_format.parse(data)
    assert tmpl == data and tmpl is not data


def test_parse_without_version_key():
    with pytest.raises(ValueError, match="^Template format version not found.$"):
        template_format.parse("resources: {}\n")
    with pytest.raises(ValueError, match="^Template format version not found.$"):
        template_format.parse("")


def test_simple_parse_empty_document_is_empty_dict():
    assert template_format.simple_parse("") == {}
    assert template_format.simple_parse("# only a comment\n") == {}


def test_top_level_must_be_a_mapping():
    with pytest.raises(ValueError) as err:
        template_format.parse("- a\n- b\n")
    assert str(err.value) == "The template is not a JSON object or YAML mapping."


def test_yaml_error_message_like_heat():
    text = "heat_template_version: 2018-08-31\nresources: {a: [}\n"
    with pytest.raises(ValueError) as err:
        template_format.parse(text)
    assert str(err.value) == (
        "Error parsing template [root stack] while parsing a flow node\n"
        "expected the node content, but found '}'\n"
        '  in "<unicode string>", line 2, column 17:\n'
        "    resources: {a: [}\n"
        "                    ^"
    )


def test_yaml_error_names_the_template_url():
    with pytest.raises(ValueError, match="^Error parsing template http://x/t.yaml while scanning"):
        template_format.simple_parse("a: 1\n\tb: 2\n", tmpl_url="http://x/t.yaml")


def test_billion_laughs_is_refused_before_it_is_built(monkeypatch):
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, cur in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append("%s: &%s [%s]" % (cur, cur, ", ".join(["*" + prev] * 9)))
    text = "heat_template_version: 2018-08-31\n" + "\n".join(lines) + "\n"
    built, walked = [], []
    monkeypatch.setattr(
        template_format.yaml_loader, "construct_document", lambda self, node: built.append(node)
    )
    children = template_format._children
    monkeypatch.setattr(template_format, "_children", lambda n: walked.append(n) or children(n))
    with pytest.raises(ValueError, match="aliases expand the document beyond 1000000 nodes"):
        template_format.parse(text)
    assert built == []  # refused from the node graph, never constructed
    # the size is computed over the ~100 nodes written, not the 9**9 the aliases stand for
    assert 0 < len(walked) < 1000


def test_recursive_alias_is_refused():
    with pytest.raises(ValueError, match="recursive YAML aliases"):
        template_format.parse("heat_template_version: 2018-08-31\na: &a [*a]\n")


def test_modest_aliases_are_fine():
    text = (
        "heat_template_version: 2018-08-31\n"
        "x: &props {flavor: m1.small, image: fedora}\n"
        "resources:\n"
        "  a: {type: T, properties: *props}\n"
        "  b: {type: T, properties: *props}\n"
    )
    tmpl = template_format.parse(text)
    assert tmpl["resources"]["b"]["properties"] == {"flavor": "m1.small", "image": "fedora"}


def test_c_loader_used_when_available():
    assert issubclass(template_format.yaml_loader, getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def test_check_size_message():
    CONF.set_override("max_template_size", 10)
    try:
        template_format.check_size("x" * 10)
        with pytest.raises(exception.RequestLimitExceeded) as err:
            template_format.check_size("x" * 11)
        with pytest.raises(exception.RequestLimitExceeded):
            template_format.parse({"heat_template_version": "2018-08-31"})
    finally:
        CONF.clear_override("max_template_size")
    assert str(err.value) == (
        "Request limit exceeded: Template size (11 bytes) exceeds maximum allowed size (10 bytes)."
    )


def test_check_size_default_limit():
    template_format.check_size("x" * 524288)
    with pytest.raises(exception.RequestLimitExceeded, match=r"\(524289 bytes\).*\(524288 bytes\)"):
        template_format.check_size("x" * 524289)
