"""OS::Heat::ResourceGroup: ``count`` identical resources in a nested stack.

The child template has members ``"0"``, ``"1"``, ... (names in ``removal_policies``
are never reused); ``%index%`` (``index_var``) in the member properties becomes the
member's index. Attributes: ``refs``, ``refs_map``, ``removed_rsrc_list``,
``resource.N`` (member N's reference), ``resource.N.<attr>`` (member N's attribute),
``attributes`` ({member: that attribute}, with the attribute as the next path item),
and any other name: the list of that attribute over all members.

    get_attr: [grp, kube_master_ip]            -> ['10.0.0.3', '10.0.0.4']
    get_attr: [grp, resource.0, kube_master_ip] -> '10.0.0.3'
"""

import itertools
import json
import time

from heat_lite.common import exception
from heat_lite.conf import CONF
from heat_lite.engine import constraints, environment, properties, templates
from heat_lite.engine.resources.openstack.heat import stack_resource
from heat_lite.engine.scaling import rolling_update

P = properties.Schema

BLACKLIST = "name_blacklist"
REFS, REFS_MAP, REMOVED, ATTRIBUTES = "refs", "refs_map", "removed_rsrc_list", "attributes"
ROLLING_UPDATE, BATCH_CREATE = "rolling_update", "batch_create"
MIN_IN_SERVICE, MAX_BATCH_SIZE, PAUSE_TIME = "min_in_service", "max_batch_size", "pause_time"
MEMBERS_VERSION = "2015-04-30"


def _batch_size(what):
    return P(
        P.INTEGER,
        "The maximum number of resources to %s at once." % what,
        default=1,
        constraints=[constraints.Range(min=1)],
    )


def _pause_time(what):
    return P(
        P.NUMBER,
        "The number of seconds to wait between %s." % what,
        default=0,
        constraints=[constraints.Range(min=0)],
    )


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
    update_policy_schema = {
        ROLLING_UPDATE: P(
            P.MAP,
            schema={
                MIN_IN_SERVICE: P(
                    P.INTEGER,
                    "The minimum number of resources in service while rolling updates are "
                    "being executed.",
                    default=0,
                    constraints=[constraints.Range(min=0)],
                ),
                MAX_BATCH_SIZE: _batch_size("replace"),
                PAUSE_TIME: _pause_time("batches of updates"),
            },
        ),
        BATCH_CREATE: P(
            P.MAP,
            schema={MAX_BATCH_SIZE: _batch_size("create"), PAUSE_TIME: _pause_time("batches")},
        ),
    }

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

    def _member_names(self, blacklist, size=None):
        size = self.properties["count"] if size is None else size
        self._check_size(size)
        names = (str(i) for i in itertools.count() if str(i) not in blacklist)
        return list(itertools.islice(names, size))

    def _check_size(self, size):
        """A group of more members than max_resources_per_stack is refused before any of
        them is built. Heat refuses it too (Maximum resources per stack exceeded, the
        group's action failing), once it has built the child's whole template: a count of
        10**9 took gigabytes first. The tree's full budget (check_resource_budget) is
        checked on the child's template, which is then at most the limit's size."""
        limit = CONF.max_resources_per_stack
        if limit != -1 and size > limit:
            raise exception.resource_limit_exceeded()

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
            "heat_template_version": MEMBERS_VERSION,
            "resources": {
                name: self._member_definition(name) for name in self._member_names(blacklist)
            },
        }

    # -- batches: update_policy batch_create and rolling_update ----------------------------

    def _policy(self, name):
        """The update_policy entry ``name`` with its defaults, None when not given."""
        return self.t.update_policy(self.update_policy_schema)[name]

    def get_size(self):
        """How many members the group has (Heat's name; subclasses count otherwise)."""
        return self.properties["count"]

    def handle_create(self):
        batch = self._policy(BATCH_CREATE)
        count = self.get_size() if batch else None
        if not count:
            return super().handle_create()
        self._check_size(count)
        self._update_blacklist()
        batches = list(rolling_update.get_batches(count, 0, batch[MAX_BATCH_SIZE], 0))
        return self._start_batches(batches, batch[PAUSE_TIME])

    def check_create_complete(self, token):
        if isinstance(token, dict):
            return self._step(token)
        return super().check_create_complete(token)

    def handle_update(self, new_defn, prop_diff):
        rolling = self._policy(ROLLING_UPDATE)
        if rolling and "resource_def" in prop_diff:
            self._check_size(self.get_size())
            blacklist = self._update_blacklist()
            members = [n for n, _snippet in self._stored_members() if n not in blacklist]
            batches = list(
                rolling_update.get_batches(
                    self.get_size(),
                    len(members),
                    rolling[MAX_BATCH_SIZE],
                    rolling[MIN_IN_SERVICE],
                )
            )
            self._check_update_timeout(len(batches), rolling[PAUSE_TIME])
            if batches:
                return self._start_batches(batches, rolling[PAUSE_TIME])
        return super().handle_update(new_defn, prop_diff)

    def check_update_complete(self, token):
        if isinstance(token, dict):
            return self._step(token)
        return super().check_update_complete(token)

    def _check_update_timeout(self, batch_count, pause_sec):
        if pause_sec * max(batch_count - 1, 0) >= self.stack.timeout_secs():
            raise ValueError("The current update policy will result in stack update timeout.")

    def _start_batches(self, batches, pause_sec):
        token = {"batches": batches, "index": 0, "pause": pause_sec, "resume_at": None}
        self._start_batch(token)
        return token

    def _start_batch(self, token):
        capacity, num_new = token["batches"][token["index"]]
        template = self._batch_template(capacity, num_new)
        if self._child_row() is None:
            self.create_with_template(template)
            token["action"] = "CREATE"
        else:
            self.update_with_template(template)
            token["action"] = "UPDATE"

    def _step(self, token):
        """One poll of a batched create/update: the running batch done, pause, go on."""
        if token["resume_at"] is not None:
            if time.monotonic() < token["resume_at"]:
                return False
            token["resume_at"] = None
            self._start_batch(token)
            return False
        if not self._check_child(token["action"]):
            return False
        token["index"] += 1
        if token["index"] >= len(token["batches"]):
            return True
        if token["pause"] > 0:
            token["resume_at"] = time.monotonic() + token["pause"]
            return False
        self._start_batch(token)
        return False

    def _stored_members(self):
        """(name, snippet) of the members in the child's stored template, index order."""
        row = self._child_row()
        if row is None:
            return []
        resources = templates.load(row.raw_template_id).t.get("resources") or {}
        return sorted(resources.items(), key=lambda item: _index_key(item[0]))

    def _batch_template(self, capacity, num_new):
        """The child's template after one batch (Heat's _assemble_for_rolling_update):
        the highest indexes get the new definition first, removed members go first."""
        blacklist = self._blacklist()
        names = self._member_names(blacklist, capacity)
        existing = [(n, d) for n, d in self._stored_members() if n not in blacklist]
        target = self.get_size()

        def priority(item):
            if item[0] not in names:
                return 0
            index = names.index(item[0])
            return target - index if index < target else capacity

        old = [(n, stack_resource.as_stored(d)) for n, d in sorted(existing, key=priority)]
        existing_names = {n for n, _d in existing}
        new_names = (n for n in names if n not in existing_names)
        members = rolling_update.member_definitions(
            old,
            lambda name: stack_resource.as_stored(self._member_definition(name)),
            capacity,
            num_new,
            lambda: next(new_names),
        )
        return {"heat_template_version": MEMBERS_VERSION, "resources": dict(members)}

    def validate_nested_stack(self, strict=True):
        """Heat validates the member definition once (as member "0"), and not at all
        when ``count`` is 0 (so a feature can be switched off with a zero count)."""
        try:
            count = self.get_size()
        except (ValueError, TypeError, KeyError):
            count = None
        if not count:
            return
        # the member type must resolve (an unknown one is reported as it is, no path)
        member_type = self._member_definition("0")["type"]
        owner = self.owner_stack()
        try:
            environment.get_class(owner.env, member_type, None, owner.t.files)
        except exception.ResourceTypeNotFound as exc:
            raise exception.StackValidationFailed(message=exc.error_message)
        super().validate_nested_stack(strict)

    def validation_template(self):
        return {
            "heat_template_version": "2015-04-30",
            "resources": {"0": self._member_definition("0")},
        }

    # -- members ---------------------------------------------------------------------------

    def _members(self):
        """(name, Resource) of the child's current members, in index order."""
        members = self.nested_resources()
        return [(name, members[name]) for name in sorted(members, key=_index_key)]

    def _members_read_once(self):
        """The members, each reading its own attributes once (inside node_data)."""
        members = self._members()
        for _name, member in members:
            member._read_memo = {}
        return members

    def get_attribute(self, key, *path):
        if key.startswith("resource."):
            return self.nested_attribute(key, *path)
        members = self.read_once("members", self._members_read_once)
        if key == REFS:
            return [member.get_reference_id() for _name, member in members]
        if key == REFS_MAP:
            return {name: member.get_reference_id() for name, member in members}
        if key == REMOVED:
            return sorted(self._blacklist(), key=_index_key)
        if key == ATTRIBUTES:
            if path:
                return {name: member.get_attribute(*path) for name, member in members}
            return _by_attribute(members)
        return [member.get_attribute(key, *path) for _name, member in members]


def _by_attribute(members):
    """``attributes`` before its path is known: {attribute: {member: value}} over every
    attribute (output) of the members, so ``[grp, attributes, ip]`` selects
    {member: ip} from it."""
    values = {}
    for name, member in members:
        if isinstance(member, stack_resource.StackResource):
            member_values = member.child_outputs()
        else:
            member_values = {k: member.get_attribute(k) for k in type(member).attributes_schema}
        values[name] = member_values
    attrs = {attr for member_values in values.values() for attr in member_values}
    return {attr: {name: values[name].get(attr) for name in values} for attr in sorted(attrs)}


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
