"""Heat's plain custom constraints, through a schema as templates use them."""

import pytest

from heat_lite.common import exception
from heat_lite.engine import constraints


def _check(name, value):
    schema = constraints.Schema(
        constraints.Schema.STRING, constraints=[constraints.CustomConstraint(name)]
    )
    schema.validate_constraints(value)


@pytest.mark.parametrize(
    "name, value",
    [
        ("ip_addr", "10.0.0.1"),
        ("ip_addr", "fe80::1"),
        ("mac_addr", "fa:16:3e:00:11:22"),
        ("net_cidr", "10.0.0.0/24"),
        ("ip_or_cidr", "10.100.0.0/16"),
        ("ip_or_cidr", "10.0.0.7"),
        ("dns_name", "master-0.example.com"),
        ("dns_domain", "example.com."),
        ("rel_dns_name", "master-0"),
        ("iso_8601", "2026-11-26T02:00:00Z"),
        ("json_string", '{"a": 1}'),
    ],
)
def test_valid(name, value):
    _check(name, value)


@pytest.mark.parametrize(
    "name, value, message",
    [
        ("ip_addr", "10.0.0.300", "Error validating value '10.0.0.300': Invalid IP address"),
        ("mac_addr", "fa:16", "Error validating value 'fa:16': Invalid MAC address."),
        ("net_cidr", "10.0.0.1", "Error validating value '10.0.0.1': Invalid net cidr"),
        (
            "rel_dns_name",
            "a.b.",
            "Error validating value 'a.b.': 'a.b.' is a FQDN. It should be a relative domain name.",
        ),
        ("dns_name", "-bad-", "Error validating value '-bad-': '-bad-' not in valid format."),
    ],
)
def test_invalid_with_heat_message(name, value, message):
    with pytest.raises(exception.StackValidationFailed) as err:
        _check(name, value)
    assert str(err.value).startswith(message)


def test_description_replaces_the_message():
    schema = constraints.Schema(
        constraints.Schema.STRING,
        constraints=[constraints.CustomConstraint("ip_addr", description="an address please")],
    )
    with pytest.raises(exception.StackValidationFailed, match="^an address please$"):
        schema.validate_constraints("x")
