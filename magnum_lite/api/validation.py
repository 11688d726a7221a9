"""The checks of cluster create (Magnum's ClustersController.post, in its order), one
function per step so the controller reads as the list of steps."""

import pecan

from magnum_lite import objects
from magnum_lite.api import os_resources
from magnum_lite.api import utils as api_utils
from magnum_lite.common import exception, policy, utils
from magnum_lite.conf import CONF
from magnum_lite.drivers import registry

# cluster attributes inherited from the template when missing or falsy
TEMPLATE_DEFAULTS = ("docker_volume_size", "master_flavor_id", "flavor_id", "fixed_network",
                     "fixed_subnet")  # fmt: skip


def check_node_count(node_count):
    """node_count 0 needs microversion 1.10."""
    if node_count == 0 and pecan.request.version < "1.10":
        raise exception.ZeroNodeCountNotSupported()


def get_template(ident):
    """The template; unknown is 400 up to 1.9 and 404 from 1.10."""
    context = pecan.request.context
    try:
        if utils.is_uuid_like(ident):
            return objects.ClusterTemplate.get_by_uuid(context, ident)
        return objects.ClusterTemplate.get_by_name(context, ident)
    except exception.ClusterTemplateNotFound as err:
        if pecan.request.version < "1.10":
            err.code = 400
        raise


def check_driver(template, master_count, docker_volume_size):
    """The template's driver is enabled (from the registry: the API loads no driver)."""
    driver = registry.get_driver_info_for_template(template)
    if template.docker_storage_driver == "devicemapper":
        size = docker_volume_size or template.docker_volume_size
        if not size or size < 3:
            raise exception.InvalidParameterValue(
                err="docker volume size %s GB is not valid, expecting minimum value 3GB for "
                "devicemapper storage driver." % size
            )
    driver.validate_master_size(master_count)


def check_quota(context):
    try:
        quota = objects.Quota.get_quota_by_project_id_resource(
            context, context.project_id, "Cluster"
        )
        limit = quota.hard_limit
    except exception.QuotaNotFound:
        limit = CONF.quotas.max_clusters_per_project
    count = objects.Cluster.get_count_all(None, filters={"project_id": context.project_id})
    if count >= limit:
        raise exception.ResourceLimitExceeded(
            msg="You have reached the maximum clusters per project, %d. You may delete a "
            "cluster to make room for a new one." % limit
        )


def check_hidden(context, template):
    if template.hidden and not policy.check_is_admin(context):
        raise exception.NotAuthorized()


def apply_template_defaults(values, template, merge_labels):
    values["cluster_template_id"] = template.uuid
    if values.get("keypair") is None:
        values["keypair"] = template.keypair_id
    labels = {k: str(v) for k, v in (values.get("labels") or {}).items()}
    if not labels:
        labels = dict(template.labels or {})
    elif merge_labels:
        labels = dict(template.labels or {}, **labels)
    values["labels"] = labels
    for key in ("floating_ip_enabled", "master_lb_enabled"):
        if values.get(key) is None:
            values[key] = getattr(template, key)
    for key in TEMPLATE_DEFAULTS:
        if not values.get(key):
            values[key] = getattr(template, key)


def check_master_lb(values, master_count):
    if master_count > 1 and not values.get("master_lb_enabled"):
        raise exception.InvalidParameterValue(
            err="master_count must be 1 when master_lb_enabled is False"
        )


def check_os_resources(context, values, template):
    os_resources.validate_cluster_resources(context, values, template)


def labels_diff(labels, base_labels):
    """(overridden: base's value, added: ours, skipped: base's) of two label dicts."""
    labels, base_labels = labels or {}, base_labels or {}
    overridden = {
        k: base_labels[k] for k in labels if k in base_labels and labels[k] != base_labels[k]
    }
    added = {k: v for k, v in labels.items() if k not in base_labels}
    skipped = {k: v for k, v in base_labels.items() if k not in labels}
    return overridden, added, skipped


def get_cluster(ident):
    """The cluster by uuid or name, all projects for admins (cluster:get_one_all_projects)."""
    context = pecan.request.context
    if context.is_admin:
        policy.enforce(
            context, "cluster:get_one_all_projects", action="cluster:get_one_all_projects"
        )
        context.all_tenants = True
    return api_utils.get_resource("Cluster", ident)
