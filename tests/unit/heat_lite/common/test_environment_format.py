import pytest

from heat_lite.common import environment_format, exception

pytestmark = pytest.mark.unit


def test_parse_text_and_mapping():
    assert environment_format.parse("parameters: {a: 1}\n") == {"parameters": {"a": 1}}
    assert environment_format.parse({"parameters": {"a": 1}}) == {"parameters": {"a": 1}}
    assert environment_format.parse("") == {} and environment_format.parse(None) == {}
    assert environment_format.parse("# nothing\n") == {}


@pytest.mark.parametrize(
    "env, message",
    [
        ("bogus: {}\n", 'environment has wrong section "bogus"'),
        ("parameters:\n", 'environment has empty section "parameters"'),
        ("- a\n", "The environment is not a valid YAML mapping data type."),
        ({"bogus": {}}, 'environment has wrong section "bogus"'),
    ],
)
def test_invalid_environment(env, message):
    with pytest.raises(ValueError) as err:
        environment_format.parse(env)
    assert str(err.value) == message


def test_yaml_error_is_pyyaml_message():
    with pytest.raises(ValueError) as err:
        environment_format.parse("parameters: {a: [}\n")
    assert str(err.value).startswith("while parsing a flow node")


def test_alias_bomb_is_refused():
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for prev, cur in zip("abcdefgh", "bcdefghi", strict=True):
        lines.append("%s: &%s [%s]" % (cur, cur, ", ".join(["*" + prev] * 9)))
    text = "parameter_defaults:\n" + "".join("  %s\n" % line for line in lines)
    with pytest.raises(exception.RequestLimitExceeded) as err:
        environment_format.parse(text)
    assert "Environment size with its YAML aliases expanded" in str(err.value)
    assert str(err.value).endswith("exceeds maximum allowed size (1048576 bytes).")


def test_too_deep():
    with pytest.raises(ValueError, match="^data nested more than 100 levels deep$"):
        environment_format.parse("parameters: {a: %s%s}\n" % ("[" * 200, "]" * 200))


def test_default_for_missing():
    env = environment_format.default_for_missing({"parameters": {"a": 1}})
    assert env == {
        "parameters": {"a": 1},
        "parameter_defaults": {},
        "resource_registry": {},
        "encrypted_param_names": [],
        "event_sinks": [],
    }
