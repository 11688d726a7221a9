"""OS::Neutron::SecurityGroup (with inline ``rules``) and OS::Neutron::SecurityGroupRule."""

from heat_lite.common import exception
from heat_lite.engine import constraints, properties
from heat_lite.engine.resources.openstack.neutron import neutron

P = properties.Schema
C = constraints.CustomConstraint


def _rule_schema(required_group=False):
    """The properties of one rule (shared by inline rules and SecurityGroupRule)."""
    schema = {
        "direction": P(
            P.STRING,
            "The direction in which the security group rule is applied.",
            default="ingress",
            constraints=[constraints.AllowedValues(["ingress", "egress"])],
        ),
        "ethertype": P(
            P.STRING,
            "Ethertype of the traffic.",
            default="IPv4",
            constraints=[constraints.AllowedValues(["IPv4", "IPv6"])],
        ),
        "port_range_min": P(
            P.INTEGER,
            "The minimum port number in the range that is matched by the security group rule.",
            constraints=[constraints.Range(0, 65535)],
        ),
        "port_range_max": P(
            P.INTEGER,
            "The maximum port number in the range that is matched by the security group rule.",
            constraints=[constraints.Range(0, 65535)],
        ),
        "protocol": P(
            P.STRING,
            "The protocol that is matched by the security group rule.",
            default="tcp" if required_group else None,
        ),
        "description": P(P.STRING, "Description of the security group rule."),
        "remote_ip_prefix": P(
            P.STRING,
            "The remote IP prefix (CIDR) to be associated with this security group rule.",
            constraints=[C("net_cidr")],
        ),
    }
    if required_group:
        schema.update(
            security_group=P(
                P.STRING,
                "Security group name or ID to apply rule.",
                required=True,
                constraints=[C("neutron.security_group")],
            ),
            remote_group=P(
                P.STRING,
                "The remote group name or ID to be associated with this security group rule.",
                constraints=[C("neutron.security_group")],
            ),
        )
    else:
        schema.update(
            remote_mode=P(
                P.STRING,
                "Whether to specify a remote group or a remote IP prefix.",
                default="remote_ip_prefix",
                constraints=[constraints.AllowedValues(["remote_ip_prefix", "remote_group_id"])],
            ),
            remote_group_id=P(
                P.STRING,
                "The remote group ID to be associated with this "
                "security group rule. If no value is specified then this rule "
                "will use this security group for the remote_group_id.",
            ),
        )
    return schema


_RULE_KEYS = (
    "direction",
    "ethertype",
    "port_range_min",
    "port_range_max",
    "protocol",
    "remote_ip_prefix",
)


class SecurityGroup(neutron.NeutronResource):
    entity = "security_group"

    properties_schema = {
        "name": P(
            P.STRING,
            "A string specifying a symbolic name for the security group, which "
            "is not required to be unique.",
            update_allowed=True,
        ),
        "description": P(P.STRING, "Description of the security group.", update_allowed=True),
        "rules": P(
            P.LIST,
            "List of security group rules.",
            default=[],
            schema=P(P.MAP, schema=_rule_schema()),
            update_allowed=True,
        ),
        "stateful": P(
            P.BOOLEAN,
            "Flag to enable/disable the stateful of the security group.",
            update_allowed=True,
        ),
    }

    def validate(self):
        super().validate()
        if self.properties["name"] == "default":
            raise exception.StackValidationFailed(
                message='Security groups cannot be assigned the name "default".'
            )

    def _name(self):
        return self.created_name()

    def _add_rules(self):
        plugin = self.client_plugin()
        rules = self.properties["rules"] or []
        if any(r["direction"] == "egress" for r in rules):
            # explicit egress rules replace the default ones (as Heat does)
            for rule in plugin.list("security_group_rule", security_group_id=self.resource_id):
                if rule["direction"] == "egress":
                    plugin.delete("security_group_rule", rule["id"])
        for rule in rules:
            values = {k: rule.get(k) for k in _RULE_KEYS}
            if rule.get("remote_mode") == "remote_group_id":
                values["remote_ip_prefix"] = None
                values["remote_group_id"] = rule.get("remote_group_id") or self.resource_id
            plugin.create_security_group_rule(self.resource_id, **values)

    def handle_create(self):
        group = self.client_plugin().create_security_group(
            self._name(), self.properties["description"]
        )
        self.resource_id_set(group["id"])
        self.client_plugin().update(
            "security_group", group["id"], stateful=self.properties["stateful"] is not False
        )
        self._add_rules()

    def handle_update(self, new_defn, prop_diff):
        plugin = self.client_plugin()
        plugin.update(
            "security_group",
            self.resource_id,
            name=self._name(),
            description=self.properties["description"] or "",
            stateful=self.properties["stateful"] is not False,
        )
        if "rules" in prop_diff:
            for rule in plugin.list("security_group_rule", security_group_id=self.resource_id):
                plugin.delete("security_group_rule", rule["id"])
            for ethertype in ("IPv4", "IPv6"):
                plugin.create_security_group_rule(
                    self.resource_id, direction="egress", ethertype=ethertype
                )
            self._add_rules()

    def _show_resource(self):
        return self.client_plugin().show_security_group(self.resource_id)

    def _delete_resource(self, resource_id):
        self.client_plugin().delete_security_group(resource_id)


class SecurityGroupRule(neutron.NeutronResource):
    entity = "security_group_rule"
    exclusive = (("remote_group", "remote_ip_prefix"),)

    properties_schema = _rule_schema(required_group=True)

    def _rule(self):
        props = self.properties
        values = {k: props[k] for k in _RULE_KEYS}
        values["remote_group_id"] = self.find("security_group", props["remote_group"])
        values["security_group_id"] = self.find("security_group", props["security_group"])
        return values

    def handle_create(self):
        values = self._rule()
        values["description"] = self.properties["description"] or ""
        rule = self.client_plugin().create_security_group_rule(
            values.pop("security_group_id"), **values
        )
        self.resource_id_set(rule["id"])

    def unrecorded_object_filters(self):
        """A rule has no name: Neutron keeps one rule of a group per direction, protocol,
        ports and remote, which single it out."""
        return self._rule()


def resource_mapping():
    return {
        "OS::Neutron::SecurityGroup": SecurityGroup,
        "OS::Neutron::SecurityGroupRule": SecurityGroupRule,
    }
