import time

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


def billion_laughs(levels=8):
    """566 bytes of YAML standing for 9**8 "lol"s (the issue's alias bomb)."""
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, cur in zip("abcdefghi"[:levels], "bcdefghij"[:levels], strict=True):
        lines.append("%s: &%s [%s]" % (cur, cur, ", ".join(["*" + prev] * 9)))
    return "heat_template_version: 2018-08-31\n" + "\n".join(lines) + "\n"


def test_billion_laughs_is_refused_quickly():
    start = time.monotonic()
    with pytest.raises(exception.RequestLimitExceeded) as err:
        template_format.parse(billion_laughs())
    print("alias bomb refused in %.3f s" % (time.monotonic() - start))
    assert str(err.value).startswith(
        "Request limit exceeded: Template size with its YAML aliases expanded ("
    )
    assert str(err.value).endswith("bytes or more) exceeds maximum allowed size (524288 bytes).")


def test_one_long_string_repeated_by_aliases_is_refused():
    text = "heat_template_version: 2018-08-31\na: &a %s\nb: [%s]\n" % (
        "x" * 10000,
        ", ".join(["*a"] * 100),
    )
    with pytest.raises(exception.RequestLimitExceeded, match=r"\(10100\d\d bytes or more\)"):
        template_format.parse(text)


def test_aliases_within_the_limit_are_fine():
    assert len(template_format.parse(billion_laughs(levels=4))["e"]) == 9


def test_recursive_alias_is_refused():
    with pytest.raises(ValueError) as err:
        template_format.parse("heat_template_version: 2018-08-31\na: &a [*a]\n")
    assert str(err.value) == (
        "Error parsing template [root stack]: recursive YAML aliases are not allowed"
    )


@pytest.mark.parametrize("fmt", ["json", "yaml flow", "yaml block"])
@pytest.mark.parametrize("depth", [101, 900, 5000])
def test_too_deep_is_a_value_error(fmt, depth):
    if fmt == "json":
        text = '{"heat_template_version": "2018-08-31", "a": %s1%s}' % ("[" * depth, "]" * depth)
    elif fmt == "yaml flow":
        text = "heat_template_version: 2018-08-31\na: %s1%s\n" % ("[" * depth, "]" * depth)
    else:
        depth = min(depth, 500)  # indentation makes the text grow as depth**2
        text = "heat_template_version: 2018-08-31\n" + "".join(
            "%sk:\n" % (" " * i) for i in range(depth)
        )
    with pytest.raises(ValueError) as err:
        template_format.parse(text)
    assert str(err.value) == (
        "Error parsing template [root stack]: data nested more than 100 levels deep"
    )


def test_depth_at_the_limit_is_fine():
    text = '{"heat_template_version": "2018-08-31", "a": %s1%s}' % ("[" * 99, "]" * 99)
    assert template_format.parse(text)["a"]


def test_parsed_dict_too_deep():
    data = value = {"heat_template_version": "2018-08-31"}
    for _ in range(200):
        value["a"] = {}
        value = value["a"]
    with pytest.raises(ValueError, match="nested more than 100 levels deep"):
        template_format.parse(data)


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


def test_depth_counts_every_kind_of_container():
    """Mappings other than dict and tuples nest as dicts and lists do; scalars of any
    type (a str subclass too) end a branch."""
    import types

    class Name(str):
        pass

    def nest(depth, wrap):
        value = Name("leaf")
        for _ in range(depth - 1):
            value = wrap(value)
        return {"heat_template_version": "2018-08-31", "a": value}

    for wrap in (lambda v: (v,), lambda v: types.MappingProxyType({"k": v}), lambda v: [v]):
        template_format.check_depth(nest(100, wrap))
        with pytest.raises(ValueError, match="nested more than 100 levels deep"):
            template_format.check_depth(nest(101, wrap))
