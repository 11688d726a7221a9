"""OS::Heat::ResourceGroup: ``count`` identical resources in a nested stack.

The child template has members ``"0"``, ``"1"``, ... (names in ``removal_policies``
are never reused); ``%index%`` (``index_var``) in the member properties becomes the
member's index. Attributes: ``refs``, ``refs_map``, ``removed_rsrc_list``,
``resource.N`` (member N's reference), ``resource.N.<attr>`` (member N's attribute),
and any other name: the list of that attribute over all members.

    get_attr: [grp, kube_master_ip]            -> ['10.0.0.3', '10.0.0.4']
    get_attr: [grp, resource.0, kube_master_ip] -> '10.0.0.3'
"""

import itertools
import json

from heat_lite.engine import constraints, properties
from heat_lite.engine.resources.openstack.heat import stack_resource

P = properties.Schema

BLACKLIST = "name_blacklist"
REFS, REFS_MAP, REMOVED, ATTRIBUTES = "refs", "refs_map", "removed_rsrc_list", "attributes"


class ResourceGroup(stack_resource.StackResource):
    properties_schema = {
        "count": P(
            P.INTEGER,
            "The number of resources to create.",
            default=1,
            constraints=[constraints.Range(min=0)],
            update_allowed=True,
        ),
        "index_var": P(
            P.STRING,
            "A variable that this resource will use to replace with the current index.",
            default="%index%",
            update_allowed=True,
        ),
        "resource_def": P(
            P.MAP,
            "Resource definition for the resources in the group.",
            required=True,
            update_allowed=True,
            schema={
                "type": P(P.STRING, "The type of the resources in the group.", required=True),
                "properties": P(P.MAP, "Property values for the resources in the group."),
                "metadata": P(P.MAP, "Supplied metadata for the resources in the group."),
            },
        ),
        "removal_policies": P(
            P.LIST,
            "Policies for removal of resources on update.",
            default=[],
            update_allowed=True,
        ),
        "removal_policies_mode": P(
            P.STRING,
            "How to handle changes to removal_policies on update.",
            default="append",
            constraints=[constraints.AllowedValues(["append", "update"])],
            update_allowed=True,
        ),
    }
    attributes_schema = {}

    # -- member names ----------------------------------------------------------------------

    def _blacklist(self):
        return set(json.loads(self.data().get(BLACKLIST) or "[]"))

    def _update_blacklist(self):
        """Add the members named (by name or reference) in removal_policies."""
        wanted = set()
        for policy in self.properties["removal_policies"] or []:
            for entry in (policy or {}).get("resource_list") or []:
                wanted.add(str(entry))
        blacklist = (
            set() if self.properties["removal_policies_mode"] == "update" else (self._blacklist())
        )
        if wanted:
            refs = {name: str(member.get_reference_id()) for name, member in self._members()}
            for name, ref in refs.items():
                if name in wanted or ref in wanted:
                    blacklist.add(name)
        if blacklist != self._blacklist() and self.id:
            self.data_set(BLACKLIST, json.dumps(sorted(blacklist)))
        return blacklist

    def _member_names(self, blacklist):
        names = (str(i) for i in itertools.count() if str(i) not in blacklist)
        return list(itertools.islice(names, self.properties["count"]))

    def _member_definition(self, index):
        rdef = self.properties["resource_def"]
        index_var = self.properties["index_var"]
        snippet = {"type": rdef["type"]}
        props = rdef.get("properties")
        if props:
            snippet["properties"] = _replace_index(props, index_var, str(index))
        if rdef.get("metadata"):
            snippet["metadata"] = rdef["metadata"]
        return snippet

    def child_template(self):
        blacklist = self._update_blacklist()
        return {
            "heat_template_version": "2015-04-30",
            "resources": {
                name: self._member_definition(name) for name in self._member_names(blacklist)
            },
        }

    def validate_nested_stack(self, strict=True):
        """Heat validates the member definition once (as member "0"), and not at all
        when ``count`` is 0 (so a feature can be switched off with a zero count)."""
        try:
            count = self.properties["count"]
        except (ValueError, TypeError, KeyError):
            count = None
        if count:
            super().validate_nested_stack(strict)

    def validation_template(self):
        return {
            "heat_template_version": "2015-04-30",
            "resources": {"0": self._member_definition("0")},
        }

    # -- members ---------------------------------------------------------------------------

    def _members(self):
        """(name, Resource) of the child's current members, in index order."""
        from heat_lite.engine import resource as rsrc_mod

        child = self.child_stack()
        if child is None:
            return []
        rows = {}
        for row in self._rows(child):
            rows[row.name] = row
        members = []
        for name in sorted(rows, key=_index_key):
            defn = child.definitions.get(name)
            if defn is None:
                continue
            members.append((name, rsrc_mod.Resource.load(rows[name], child, defn)))
        return members

    @staticmethod
    def _rows(child):
        from heat_lite.db import api as db_api

        rows = db_api.resource_get_all_by_stack(child.id)
        return [r for r in rows if r.replaced_by is None and r.action != "INIT"]

    def get_attribute(self, key, *path):
        if key.startswith("resource."):
            parts = key.split(".", 2)[1:] + list(path)
            members = dict(self._members())
            member = members.get(str(parts[0]))
            if member is None:
                return None
            if len(parts) == 1:
                return member.get_reference_id()
            return member.get_attribute(*parts[1:])
        members = self._members()
        if key == REFS:
            return [member.get_reference_id() for _name, member in members]
        if key == REFS_MAP:
            return {name: member.get_reference_id() for name, member in members}
        if key == REMOVED:
            return sorted(self._blacklist(), key=_index_key)
        if key == ATTRIBUTES:
            return None
        return [member.get_attribute(key, *path) for _name, member in members]


def _index_key(name):
    return (0, int(name), "") if str(name).isdigit() else (1, 0, str(name))


def _replace_index(value, index_var, index):
    if isinstance(value, str):
        return value.replace(index_var, index)
    if isinstance(value, list):
        return [_replace_index(v, index_var, index) for v in value]
    if isinstance(value, dict):
        return {k: _replace_index(v, index_var, index) for k, v in value.items()}
    return value


def resource_mapping():
    return {"OS::Heat::ResourceGroup": ResourceGroup}
