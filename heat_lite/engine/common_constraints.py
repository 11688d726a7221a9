"""Heat's plain custom constraints (no cloud needed): ip_addr, mac_addr, net_cidr, ...

Messages as Heat's: ``Error validating value 'x': Invalid IP address``.

    constraint_mapping()['ip_addr'].validate('10.0.0.1', None)   # True
"""

import datetime
import ipaddress
import json
import re


class BaseCustomConstraint:
    """``validate(value, context)`` is True, or raises ValueError with Heat's message."""

    message = None

    def check(self, value, context=None):
        """Raise ValueError (its text is the reason) when ``value`` is not valid."""
        raise NotImplementedError

    def validate(self, value, context=None):
        try:
            self.check(value, context)
        except (ValueError, TypeError) as exc:
            reason = str(exc)
            text = "Error validating value '%s'" % value
            raise ValueError("%s: %s" % (text, reason) if reason else text)
        return True


def _str(value):
    if not isinstance(value, str):
        raise ValueError("")
    return value


class IPConstraint(BaseCustomConstraint):
    def check(self, value, context=None):
        try:
            ipaddress.ip_address(_str(value))
        except ValueError:
            raise ValueError("Invalid IP address")


class MACConstraint(BaseCustomConstraint):
    _MAC = re.compile(r"^([0-9a-fA-F]{2}[:-]){5}[0-9a-fA-F]{2}$")

    def check(self, value, context=None):
        if not self._MAC.match(_str(value) if isinstance(value, str) else ""):
            raise ValueError("Invalid MAC address.")


class CIDRConstraint(BaseCustomConstraint):
    def check(self, value, context=None):
        try:
            if "/" not in _str(value):
                raise ValueError("missing prefix length")
            ipaddress.ip_network(value, strict=False)
        except ValueError as exc:
            raise ValueError("Invalid net cidr %s " % exc)


class IPorCIDRConstraint(BaseCustomConstraint):
    def check(self, value, context=None):
        try:
            ipaddress.ip_network(_str(value), strict=False)
        except ValueError as exc:
            raise ValueError("Invalid IP address or CIDR %s" % exc)


class ISO8601Constraint(BaseCustomConstraint):
    def check(self, value, context=None):
        try:
            datetime.datetime.fromisoformat(_str(value).replace("Z", "+00:00"))
        except ValueError:
            raise ValueError("Invalid timestamp %s" % value)


class DNSNameConstraint(BaseCustomConstraint):
    _LABEL = re.compile(r"^(?!-)[a-zA-Z0-9-]{1,63}(?<!-)$")
    relative = False
    needs_dot = False

    def check(self, value, context=None):
        name = _str(value)
        if self.needs_dot and not name.endswith("."):
            raise ValueError("'%s' is a FQDN. It should be a relative domain name." % name)
        labels = name.rstrip(".").split(".") if name not in ("", ".") else []
        if len(name) > 255 or not labels or not all(self._LABEL.match(x) for x in labels):
            raise ValueError("'%s' not in valid format." % name)


class RelativeDNSNameConstraint(DNSNameConstraint):
    def check(self, value, context=None):
        if isinstance(value, str) and value.endswith("."):
            raise ValueError("'%s' is a FQDN. It should be a relative domain name." % value)
        super().check(value, context)


class JsonStringConstraint(BaseCustomConstraint):
    def check(self, value, context=None):
        try:
            json.loads(_str(value))
        except ValueError as exc:
            raise ValueError("%s" % exc)


def constraint_mapping():
    return {
        "ip_addr": IPConstraint(),
        "mac_addr": MACConstraint(),
        "net_cidr": CIDRConstraint(),
        "ip_or_cidr": IPorCIDRConstraint(),
        "iso_8601": ISO8601Constraint(),
        "dns_name": DNSNameConstraint(),
        "dns_domain": DNSNameConstraint(),
        "rel_dns_name": RelativeDNSNameConstraint(),
        "json_string": JsonStringConstraint(),
    }
