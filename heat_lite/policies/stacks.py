"""``stacks:<handler>`` rules (heat/policies/stacks.py defaults)."""

from heat_lite.policies import base
from heat_lite.policies.base import PREFIX, STACK

S = "stacks"
READER, MEMBER = base.PROJECT_READER, base.PROJECT_MEMBER

rules = [
    base.rule(S, "abandon", MEMBER, "Abandon stack.", "DELETE " + STACK + "/abandon"),
    base.rule(S, "create", MEMBER, "Create stack.", "POST " + PREFIX + "/stacks"),
    base.rule(S, "delete", MEMBER, "Delete stack.", "DELETE " + STACK),
    base.rule(S, "detail", READER, "List stacks in detail.", "GET " + PREFIX + "/stacks/detail"),
    base.rule(S, "export", MEMBER, "Export stack.", "GET " + STACK + "/export"),
    base.rule(
        S,
        "generate_template",
        MEMBER,
        "Generate stack template.",
        "GET " + PREFIX + "/resource_types/{type_name}/template",
    ),
    base.rule(
        S,
        "global_index",
        base.RULE_DENY_EVERYBODY,
        "List stacks globally.",
        "GET " + PREFIX + "/stacks",
    ),
    base.rule(S, "index", READER, "List stacks.", "GET " + PREFIX + "/stacks"),
    base.rule(
        S,
        "list_resource_types",
        READER,
        "List resource types.",
        "GET " + PREFIX + "/resource_types",
    ),
    base.rule(
        S,
        "list_template_versions",
        READER,
        "List template versions.",
        "GET " + PREFIX + "/template_versions",
    ),
    base.rule(
        S,
        "list_template_functions",
        READER,
        "List template functions.",
        "GET " + PREFIX + "/template_versions/{template_version}/functions",
    ),
    base.rule(
        S,
        "lookup",
        base.PROJECT_READER_OR_STACK_USER,
        "Find stack.",
        "GET " + PREFIX + "/stacks/{stack_identity}",
    ),
    base.rule(S, "preview", READER, "Preview stack.", "POST " + PREFIX + "/stacks/preview"),
    base.rule(
        S,
        "resource_schema",
        READER,
        "Show resource type schema.",
        "GET " + PREFIX + "/resource_types/{type_name}",
    ),
    base.rule(S, "show", READER, "Show stack.", "GET " + STACK),
    base.rule(S, "template", READER, "Get stack template.", "GET " + STACK + "/template"),
    base.rule(S, "environment", READER, "Get stack environment.", "GET " + STACK + "/environment"),
    base.rule(S, "files", READER, "Get stack files.", "GET " + STACK + "/files"),
    base.rule(S, "update", MEMBER, "Update stack.", "PUT " + STACK),
    base.rule(S, "update_patch", MEMBER, "Update stack (PATCH).", "PATCH " + STACK),
    base.rule(
        S,
        "update_no_change",
        "rule:stacks:update_patch",
        "Update stack (PATCH) with no changes.",
        "PATCH " + STACK,
    ),
    base.rule(S, "preview_update", MEMBER, "Preview update stack.", "PUT " + STACK + "/preview"),
    base.rule(
        S,
        "preview_update_patch",
        MEMBER,
        "Preview update stack (PATCH).",
        "PATCH " + STACK + "/preview",
    ),
    base.rule(S, "validate_template", MEMBER, "Validate template.", "POST " + PREFIX + "/validate"),
    base.rule(S, "snapshot", MEMBER, "Snapshot stack.", "POST " + STACK + "/snapshots"),
    base.rule(
        S, "show_snapshot", READER, "Show snapshot.", "GET " + STACK + "/snapshots/{snapshot_id}"
    ),
    base.rule(
        S,
        "delete_snapshot",
        MEMBER,
        "Delete snapshot.",
        "DELETE " + STACK + "/snapshots/{snapshot_id}",
    ),
    base.rule(S, "list_snapshots", READER, "List snapshots.", "GET " + STACK + "/snapshots"),
    base.rule(
        S,
        "restore_snapshot",
        MEMBER,
        "Restore snapshot.",
        "POST " + STACK + "/snapshots/{snapshot_id}/restore",
    ),
    base.rule(S, "list_outputs", READER, "List outputs.", "GET " + STACK + "/outputs"),
    base.rule(S, "show_output", READER, "Show outputs.", "GET " + STACK + "/outputs/{output_key}"),
]


def list_rules():
    return rules
