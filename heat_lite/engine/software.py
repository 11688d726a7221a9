"""Software configs and deployments: what the engine does with them (docs/heat-api.md §4.6).

The RPC endpoints of engine/service_software.py are thin wrappers of the functions of the
same name here, which the resource plugins (OS::Heat::SoftwareConfig,
OS::Heat::SoftwareDeployment, ...) call directly: a plugin never imports an endpoint module.

    sc = create_software_config(ctx, group='script', name='c', config='echo hi',
                                inputs=[{'name': 'foo'}], outputs=[], options={})
    sd = create_software_deployment(ctx, server_id='s1', config_id=sc['id'], ...,
                                    status='IN_PROGRESS')
    signal_software_deployment(ctx, sd['id'], {'deploy_status_code': 0}, None)
    show_software_deployment(ctx, sd['id'])['status']     -> 'COMPLETE'

A config or deployment of another project is NotFound (404) unless the caller is admin.
"""

import datetime
import logging
import time

from heat_lite.common import exception
from heat_lite.db import api as db_api
from heat_lite.db import software as db_software
from heat_lite.engine import api
from heat_lite.engine import software_config_io as swc_io
from heat_lite.rpc import api as rpc_api

# the outputs every deployment has, whatever its config declares
DEPLOY_STDOUT, DEPLOY_STDERR, DEPLOY_STATUS_CODE = (
    "deploy_stdout",
    "deploy_stderr",
    "deploy_status_code",
)
DEPLOYMENT_OUTPUTS = (DEPLOY_STDOUT, DEPLOY_STDERR, DEPLOY_STATUS_CODE)
CHECK_POLL = 0.2
PUSH_ATTEMPTS = 5

LOG = logging.getLogger(__name__)


# the lengths of the text columns (db/models.py), checked before they reach the database
_TEXT_LIMITS = {
    "name": 255,
    "group": 255,
    "server_id": 36,
    "action": 255,
    "status": 255,
    "stack_user_project_id": 64,
}


def _check_text(**fields):
    """Invalid (400) for a value given that is not text, or too long for its column."""
    for key, value in fields.items():
        if value is None:
            continue
        if not isinstance(value, str):
            raise exception.Invalid(reason='"%s" must be a string' % key)
        if len(value) > _TEXT_LIMITS[key]:
            raise exception.Invalid(
                reason='"%s" should be no more than %d characters' % (key, _TEXT_LIMITS[key])
            )


def _tenant(cnxt):
    """The project whose rows the caller sees; None for an admin (every project)."""
    return None if cnxt.is_admin else cnxt.project_id


# -- software configs -------------------------------------------------------------------


def list_software_configs(cnxt, limit=None, marker=None):
    rows = db_software.software_config_get_all(_tenant(cnxt), limit=limit, marker=marker)
    return [
        api.format_software_config(r, detail=False, include_project=cnxt.is_admin) for r in rows
    ]


def show_software_config(cnxt, config_id):
    return api.format_software_config(db_software.software_config_get(config_id, _tenant(cnxt)))


def create_software_config(cnxt, group, name, config, inputs, outputs, options):
    """Store an (immutable) config; inputs and outputs are normalised.

    :raises: TypeError when inputs/outputs are not lists of maps; ValueError for a bad
             member (no name, unknown type)
    """
    _check_text(name=name, group=group)
    swc_io.check_io_schema_list(inputs)
    swc_io.check_io_schema_list(outputs)
    row = db_software.software_config_create(
        {
            "name": name,
            "group": group,
            "config": {
                "inputs": [swc_io.InputConfig(**i).as_dict() for i in inputs],
                "outputs": [swc_io.OutputConfig(**o).as_dict() for o in outputs],
                "options": options,
                "config": config,
            },
            "tenant": cnxt.project_id,
        }
    )
    return api.format_software_config(row)


def delete_software_config(cnxt, config_id):
    """:raises: NotFound; InvalidRestrictedAction (409) while a deployment uses it."""
    db_software.software_config_delete(config_id, _tenant(cnxt))


# -- software deployments ---------------------------------------------------------------


def list_software_deployments(cnxt, server_id=None):
    rows = db_software.software_deployment_get_all(_tenant(cnxt), server_id=server_id)
    return [api.format_software_deployment(r) for r in rows]


def metadata_software_deployments(cnxt, server_id):
    """The configs deployed to ``server_id``, sorted by config name (what an agent reads)."""
    if not server_id:
        raise ValueError("server_id must be specified")
    rows = db_software.software_deployment_get_all(_tenant(cnxt), server_id=server_id)
    return [
        api.format_software_config(db_software.software_config_get(r.config_id))
        for r in sorted(rows, key=lambda r: r.config_name or "")
    ]


def push_metadata(cnxt, server_id):
    """Put the server's deployments (its configs, as metadata_software_deployments) into
    the metadata of the server's resource, if it has one, where an agent polls for them.

    A compare-and-swap on the unlocked row, retried a few times; a server resource busy
    with an action of its own keeps its metadata (Heat retries the same conflict).
    """
    for _attempt in range(PUSH_ATTEMPTS):
        row = db_software.server_resource_get(server_id)
        if row is None:
            return
        metadata = dict(row.rsrc_metadata or {})
        metadata["deployments"] = metadata_software_deployments(cnxt, server_id)
        if row.engine_id is None and db_api.resource_update(
            row.id, {"rsrc_metadata": metadata}, row.atomic_key
        ):
            return
        time.sleep(CHECK_POLL)
    LOG.info("Server %s is busy; its deployments metadata was not updated", server_id)


def show_software_deployment(cnxt, deployment_id):
    row = db_software.software_deployment_get(deployment_id, _tenant(cnxt))
    return api.format_software_deployment(row)


def check_software_deployment(cnxt, deployment_id, timeout):
    """Wait (up to ``timeout`` s) while the deployment is IN_PROGRESS; then show it."""
    deadline = time.monotonic() + (timeout or 0)
    while True:
        sd = show_software_deployment(cnxt, deployment_id)
        if sd["status"] != rpc_api.IN_PROGRESS or time.monotonic() >= deadline:
            return sd
        time.sleep(CHECK_POLL)


def create_software_deployment(
    cnxt,
    server_id,
    config_id,
    input_values,
    action,
    status,
    status_reason,
    stack_user_project_id,
    deployment_id=None,
):
    """:raises: NotFound for an unknown config (checked first, as Heat); Invalid without
    a server_id, or for a text field that is not text or too long for its column"""
    config_id = None if config_id is None else str(config_id)
    db_software.software_config_get(config_id, _tenant(cnxt))
    if not server_id:
        raise exception.Invalid(reason="server_id must be specified")
    _check_text(
        server_id=server_id,
        action=action,
        status=status,
        stack_user_project_id=stack_user_project_id,
    )
    row = db_software.software_deployment_create(
        {
            "id": deployment_id,
            "config_id": config_id,
            "server_id": server_id,
            "input_values": input_values,
            "tenant": cnxt.project_id,
            "stack_user_project_id": stack_user_project_id,
            "action": action,
            "status": status,
            "status_reason": str(status_reason),
        },
        tenant=_tenant(cnxt),
    )
    push_metadata(cnxt, server_id)
    return api.format_software_deployment(row)


def update_software_deployment(
    cnxt,
    deployment_id,
    config_id=None,
    input_values=None,
    output_values=None,
    action=None,
    status=None,
    status_reason=None,
    updated_at=None,
):
    """Change the given (truthy) fields; ``updated_at`` (ISO text) defaults to now."""
    _check_text(action=action or None, status=status or None)
    if config_id:
        config_id = str(config_id)
    values = {
        key: value
        for key, value in (
            ("config_id", config_id),
            ("input_values", input_values),
            ("output_values", output_values),
            ("action", action),
            ("status", status),
            ("status_reason", None if not status_reason else str(status_reason)),
        )
        if value
    }
    values["updated_at"] = _parse_time(updated_at)
    row = db_software.software_deployment_update(deployment_id, values, _tenant(cnxt))
    if config_id:
        # the metadata is a list of configs: only a new config changes it
        push_metadata(cnxt, row.server_id)
    return api.format_software_deployment(row)


def _parse_time(text):
    if not text:
        return datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
    value = datetime.datetime.fromisoformat(str(text).replace("Z", "+00:00"))
    if value.tzinfo is not None:
        value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return value


def signal_software_deployment(cnxt, deployment_id, details, updated_at=None):
    """What an agent sends when the config ran: outputs, deploy_status_code, ...

    Only an IN_PROGRESS deployment takes a signal. A non-zero ``deploy_status_code``
    or a value for an ``error_output`` output makes it FAILED, else COMPLETE
    ("Outputs received"). Returns a sentence describing the outcome (None if ignored).
    """
    if not deployment_id:
        raise ValueError("deployment_id must be specified")
    row = db_software.software_deployment_get(deployment_id, _tenant(cnxt))
    if row.status != rpc_api.IN_PROGRESS:
        return None
    details = details if isinstance(details, dict) else {}
    outputs = dict(row.output_values or {})
    failures = {}
    status_code = details.get(DEPLOY_STATUS_CODE)
    if status_code and str(status_code) != "0":
        failures[DEPLOY_STATUS_CODE] = "Deployment exited with non-zero status code: %s" % (
            status_code
        )
        event_reason = "deployment %s failed (%s)" % (deployment_id, status_code)
    else:
        event_reason = "deployment %s succeeded" % deployment_id
    config = db_software.software_config_get(row.config_id).config or {}
    for output in config.get("outputs") or []:
        key = output["name"]
        if key in details:
            outputs[key] = details[key]
            if output.get(swc_io.ERROR_OUTPUT):
                failures[key] = details[key]
                event_reason = "deployment %s failed" % deployment_id
    for key in DEPLOYMENT_OUTPUTS:
        outputs[key] = details.get(key)
    if failures:
        status = rpc_api.FAILED
        status_reason = ", ".join("%s : %s" % (k, v) for k, v in failures.items())
    else:
        status, status_reason = rpc_api.COMPLETE, "Outputs received"
    update_software_deployment(
        cnxt,
        deployment_id,
        output_values=outputs,
        status=status,
        status_reason=status_reason,
        updated_at=updated_at,
    )
    return event_reason


def delete_software_deployment(cnxt, deployment_id):
    row = db_software.software_deployment_get(deployment_id, _tenant(cnxt))
    db_software.software_deployment_delete(deployment_id, _tenant(cnxt))
    push_metadata(cnxt, row.server_id)
