"""Neutron's security groups and their rules (NeutronService's share of them).

Each project has a ``default`` group, made on first use; a group with ports cannot be
deleted (409 SecurityGroupInUse); a new group gets Neutron's two egress rules.

    neutron.create_security_group('web')['security_group_rules']   # IPv4 and IPv6 egress
    neutron.security_group_ids(['web', 'default'])                 # [id, id]
"""

from simcloud.common import exception


class SecurityGroups:
    """Mixed into NeutronService (base.SimService's create/show/list/delete)."""

    def default_security_group(self):
        """The project's ``default`` group, made on first use as Neutron does; its id."""
        if not self.project_id:
            return None
        own = self.list("security_group", name="default", project_id=self.project_id)
        if own:
            return own[0]["id"]
        return self.create_security_group("default", "Default security group")["id"]

    def security_group_ids(self, names_or_ids):
        """Ids of the visible groups so named (or with these ids); NotFound for another."""
        ids = []
        for name in names_or_ids:
            if name == "default":
                ids.append(self.default_security_group())
                continue
            group = self.get("security_group", name)
            if group is None or not self.can_see(group):
                matches = self.list_visible("security_group", name=name)
                if len(matches) != 1:
                    raise exception.NotFound(
                        "Security group %s not found for project %s." % (name, self.project_id),
                        kind="security_group",
                    )
                group = matches[0]
            ids.append(group["id"])
        return [i for i in ids if i]

    def create_security_group(self, name, description=""):
        group = self.create("security_group", name, {"description": description or ""})
        for ethertype in ("IPv4", "IPv6"):
            self.create_security_group_rule(group["id"], direction="egress", ethertype=ethertype)
        return self.show_security_group(group["id"])

    def show_security_group(self, group_id):
        group = self.show("security_group", group_id)
        group["security_group_rules"] = self.list("security_group_rule", security_group_id=group_id)
        return group

    def create_security_group_rule(self, security_group_id, **rule):
        self.show("security_group", security_group_id)
        rule.setdefault("ethertype", "IPv4")
        for key in (
            "protocol",
            "port_range_min",
            "port_range_max",
            "remote_ip_prefix",
            "remote_group_id",
        ):
            rule.setdefault(key, None)
        rule["security_group_id"] = security_group_id
        return self.create("security_group_rule", "", rule)

    def delete_security_group(self, group_id):
        self.show("security_group", group_id)
        for port in self.list_mentioning("port", group_id):
            if group_id in (port.get("security_groups") or []):
                raise exception.Conflict(
                    "Security Group %s in use." % group_id, neutron_type="SecurityGroupInUse"
                )
        for rule in self.list("security_group_rule", security_group_id=group_id):
            self.delete("security_group_rule", rule["id"])
        self.delete("security_group", group_id)
