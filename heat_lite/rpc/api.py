"""Wire names shared by heat-lite's API and engine: topics, versions, statuses, keys.

Named once here, as heat/rpc/api.py does, so both sides agree on the strings.
"""

ENGINE_TOPIC = "engine"
WORKER_TOPIC = "engine_worker"
LISTENER_TOPIC = "heat-engine-listener"

ENGINE_RPC_VERSION = "1.36"
WORKER_RPC_VERSION = "1.10"

# stack actions and statuses
CREATE, DELETE, UPDATE, ROLLBACK, SUSPEND, RESUME, ADOPT, SNAPSHOT, CHECK, RESTORE, INIT = (
    "CREATE",
    "DELETE",
    "UPDATE",
    "ROLLBACK",
    "SUSPEND",
    "RESUME",
    "ADOPT",
    "SNAPSHOT",
    "CHECK",
    "RESTORE",
    "INIT",
)
IN_PROGRESS, FAILED, COMPLETE = "IN_PROGRESS", "FAILED", "COMPLETE"

# keys of create/update ``args``
PARAM_TIMEOUT = "timeout_mins"
PARAM_DISABLE_ROLLBACK = "disable_rollback"
PARAM_TAGS = "tags"
PARAM_EXISTING = "existing"
PARAM_ADOPT_STACK_DATA = "adopt_stack_data"
PARAM_CONVERGE = "converge"

# stack view keys (format_stack)
STACK_KEYS = (
    STACK_NAME,
    STACK_ID,
    STACK_CREATION_TIME,
    STACK_UPDATED_TIME,
    STACK_DELETION_TIME,
    STACK_NOTIFICATION_TOPICS,
    STACK_DESCRIPTION,
    STACK_TMPL_DESCRIPTION,
    STACK_PARAMETERS,
    STACK_OUTPUTS,
    STACK_ACTION,
    STACK_STATUS,
    STACK_STATUS_DATA,
    STACK_CAPABILITIES,
    STACK_DISABLE_ROLLBACK,
    STACK_TIMEOUT,
    STACK_OWNER,
    STACK_PARENT,
    STACK_USER_PROJECT_ID,
    STACK_TAGS,
) = (
    "stack_name",
    "stack_identity",
    "creation_time",
    "updated_time",
    "deletion_time",
    "notification_topics",
    "description",
    "template_description",
    "parameters",
    "outputs",
    "stack_action",
    "stack_status",
    "stack_status_reason",
    "capabilities",
    "disable_rollback",
    "timeout_mins",
    "stack_owner",
    "parent",
    "stack_user_project_id",
    "tags",
)

# snapshot keys (format_snapshot, docs/heat-api.md §5.8)
SNAPSHOT_KEYS = (
    SNAPSHOT_ID,
    SNAPSHOT_NAME,
    SNAPSHOT_ACTION,
    SNAPSHOT_STATUS,
    SNAPSHOT_STATUS_REASON,
    SNAPSHOT_DATA,
    SNAPSHOT_CREATION_TIME,
) = ("id", "name", "action", "status", "status_reason", "data", "creation_time")
