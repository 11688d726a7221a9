"""HeatDriver: a cluster is a Heat stack (one more stack per extra nodegroup), driven
through python-heatclient exactly as Magnum 22's Heat driver drives Heat.

    driver.create_cluster(ctx, cluster, 60)        # POST stack; cluster.stack_id set
    driver.update_cluster_status(ctx, cluster)     # HeatPoller: stack -> cluster/nodegroups
    driver.resize_cluster(ctx, cluster, None, 3, [], nodegroup)
    driver.delete_cluster(ctx, cluster)

Stack bodies: ``template`` and ``files`` from heatclient's
``template_utils.get_template_contents``, ``environment_files`` and their contents from
``template_utils.process_multiple_environments_and_files``, parameters from the
driver's TemplateDefinition.
"""

import abc
import copy
import functools
import importlib
import logging
import os
import string

from heatclient import exc as heat_exc
from heatclient.common import template_utils

from magnum_lite.common import clients, exception, short_id, x509
from magnum_lite.common import context as magnum_context
from magnum_lite.conf import CONF
from magnum_lite.drivers.common import driver
from magnum_lite.drivers.heat import poller

LOG = logging.getLogger(__name__)

_VALID_NAME_CHARS = frozenset(string.ascii_letters + string.digits + "-")
DELETE_IN_PROGRESS = "DELETE_IN_PROGRESS"


def stack_name(cluster, nodegroup=None):
    """``<cluster[:30]>-<short id>`` (nodegroup stacks ``<cluster[:20]>-<ng[:9]>-<id>``):
    ``_`` and ``.`` become ``-``, other characters outside [A-Za-z0-9-] are dropped,
    all lower case."""
    if nodegroup is None:
        name = cluster.name[:30]
    else:
        name = "%s-%s" % (cluster.name[:20], nodegroup.name[:9])
    name = name.replace("_", "-").replace(".", "-")
    name = "".join(c for c in name if c in _VALID_NAME_CHARS)
    return ("%s-%s" % (name, short_id.generate_id())).lower()


@functools.lru_cache(maxsize=16)
def _template_tree(template_path):
    """``(template, files)`` as heatclient's ``template_utils.get_template_contents``
    makes them: ``files`` holds every referenced template and ``get_file`` target.

    The tree ships with the driver and does not change while the process runs, so it
    is parsed once (a hundred ms or more); callers copy what they change."""
    files, template = template_utils.get_template_contents(template_path)
    return template, files


@functools.lru_cache(maxsize=64)
def _template_contents(template_path, env_paths):
    """``(template, files, environment_files)`` of the tree and the environment files,
    as heatclient's template_utils make them (``files`` also holds the environments)."""
    template, tree_files = _template_tree(template_path)
    files = dict(tree_files)
    environment_files = []
    env_map, _env = template_utils.process_multiple_environments_and_files(
        env_paths=list(env_paths), env_list_tracker=environment_files
    )
    files.update(env_map)
    return template, files, tuple(environment_files)


def _heat_call(call, *args, **kwargs):
    """A heatclient call whose 400 becomes InvalidParameterValue (Magnum does so)."""
    try:
        return call(*args, **kwargs)
    except heat_exc.HTTPBadRequest as err:
        raise exception.InvalidParameterValue(err=str(err))


class HeatDriver(driver.Driver):
    """The Heat-backed cluster lifecycle; subclasses give ``get_template_definition``."""

    @abc.abstractmethod
    def get_template_definition(self):
        """The TemplateDefinition of this driver's templates."""

    def _osc(self, context):
        return clients.OpenStackClients(context)

    def warm_up(self):
        """Parse the template tree and load heatclient's v1 client now, at the
        conductor's start, not in the first cluster's create."""
        importlib.import_module("heatclient.v1.client")
        _template_tree(self.get_template_definition().template_path)

    # -- stack bodies -------------------------------------------------------------------

    def _stack_fields(self, context, cluster, nodegroups=None, extra_params=None):
        tdef = self.get_template_definition()
        template = cluster.cluster_template
        params = tdef.get_params(context, template, cluster, nodegroups=nodegroups)
        params.update(extra_params or {})
        nodegroup = nodegroups[0] if nodegroups else None
        env_paths = tuple(
            os.path.join(tdef.template_dir, name)
            for name in tdef.get_env_files(template, cluster, nodegroup)
        )
        heat_template, files, environment_files = _template_contents(tdef.template_path, env_paths)
        return {
            "parameters": params,
            "template": copy.deepcopy(heat_template),
            "files": dict(files),
            "environment_files": list(environment_files),
        }

    def _create_stack(self, context, osc, cluster, timeout, nodegroup=None, extra_params=None):
        fields = self._stack_fields(
            context, cluster, [nodegroup] if nodegroup else None, extra_params
        )
        fields["stack_name"] = stack_name(cluster, nodegroup)
        fields["timeout_mins"] = timeout or CONF.cluster_heat.create_timeout
        return _heat_call(osc.heat().stacks.create, **fields)

    # -- cluster operations -------------------------------------------------------------

    def create_cluster(self, context, cluster, cluster_create_timeout):
        osc = self._osc(context)
        created = self._create_stack(context, osc, cluster, cluster_create_timeout)
        cluster.stack_id = created["stack"]["id"]

    def update_cluster(self, context, cluster, scale_manager=None, rollback=False):
        """Scale the default worker nodegroup to its node_count."""
        worker = cluster.default_ng_worker
        params = {"number_of_minions": worker.node_count}
        self._update_stack(context, cluster, worker, params, rollback=rollback)

    def resize_cluster(
        self,
        context,
        cluster,
        resize_manager,
        node_count,
        nodes_to_remove,
        nodegroup=None,
        rollback=False,
    ):
        """Resize a worker nodegroup's stack; ``nodes_to_remove`` are server ids (or
        member names) its ResourceGroup removes first."""
        nodegroup = nodegroup or cluster.default_ng_worker
        params = {"number_of_minions": node_count, "minions_to_remove": list(nodes_to_remove or [])}
        self._update_stack(context, cluster, nodegroup, params, rollback=rollback)

    def _update_stack(self, context, cluster, nodegroup, params, rollback=False):
        """PATCH-update (``existing=True``) the nodegroup's stack with ``params``."""
        stack_id = nodegroup.stack_id or cluster.stack_id
        osc = self._osc(context)
        _heat_call(
            osc.heat().stacks.update,
            stack_id,
            parameters=params,
            existing=True,
            disable_rollback=not rollback,
        )

    def upgrade_cluster(
        self, context, cluster, cluster_template, max_batch_size, nodegroup, rollback=False
    ):
        raise exception.NotSupported(
            operation="Upgrading a cluster that uses the Magnum Heat driver"
        )

    def delete_cluster(self, context, cluster):
        """Delete every extra nodegroup's stack, then the cluster stack (also of a
        cluster whose rows are being removed: its create undoes a stack it made)."""
        osc = self._osc(context)
        nodegroups = cluster.nodegroups
        for nodegroup in nodegroups:
            nodegroup.status = DELETE_IN_PROGRESS
            try:
                nodegroup.save()
            except exception.NodeGroupNotFound:
                LOG.info("Nodegroup %s of cluster %s is gone", nodegroup.uuid, cluster.uuid)
        for nodegroup in nodegroups:
            if not nodegroup.is_default and nodegroup.stack_id:
                self._delete_stack(osc, cluster, nodegroup.stack_id)
        self._delete_stack(osc, cluster, cluster.stack_id)

    def _delete_stack(self, osc, cluster, stack_id):
        """DELETE a stack: a stack already gone is fine, 409 is OperationInProgress."""
        if not stack_id:
            return
        try:
            osc.heat().stacks.delete(stack_id)
        except heat_exc.HTTPNotFound:
            LOG.info("Stack %s of cluster %s is already gone", stack_id, cluster.uuid)
        except heat_exc.HTTPConflict:
            raise exception.OperationInProgress(cluster_name=cluster.name)

    def update_cluster_status(self, context, cluster, use_admin_ctx=False):
        """Sync the cluster and its nodegroups from their stacks (HeatPoller), acting as
        the cluster's trustee; ``use_admin_ctx``: as ``context`` itself (the periodic
        sync's admin context, when the cluster's trust is gone)."""
        if not cluster.stack_id:
            return
        stack_ctx = context if use_admin_ctx else magnum_context.make_cluster_context(cluster)
        osc = self._osc(stack_ctx)
        poller.HeatPoller(osc, context, cluster, self).poll_and_check()

    # -- nodegroups ---------------------------------------------------------------------

    def get_nodegroup_extra_params(self, cluster, osc):
        """What an extra nodegroup's stack takes from the cluster stack: the API
        address, the workers' security group and the network."""
        heat = osc.heat()
        network = heat.resources.get(cluster.stack_id, "network")
        secgroup = heat.resources.get(cluster.stack_id, "secgroup_kube_minion")
        api_address = None
        for output in heat.stacks.get(cluster.stack_id).outputs or []:
            if output["output_key"] == "api_address":
                api_address = output["output_value"]
        return {
            "existing_master_private_ip": api_address,
            # the security group's id (Magnum reads attributes['id'], which Heat expands
            # from the resource's 'show'; the physical resource id is the same id)
            "existing_security_group": secgroup.physical_resource_id,
            "fixed_network": network.attributes.get("fixed_network"),
            "fixed_subnet": network.attributes.get("fixed_subnet"),
        }

    def create_nodegroup(self, context, cluster, nodegroup):
        osc = self._osc(context)
        extra = self.get_nodegroup_extra_params(cluster, osc)
        created = self._create_stack(
            context, osc, cluster, cluster.create_timeout, nodegroup, extra_params=extra
        )
        nodegroup.stack_id = created["stack"]["id"]

    def update_nodegroup(self, context, cluster, nodegroup):
        """Nothing to send to Heat: the nodegroup's row keeps its new settings."""
        nodegroup.save()

    def delete_nodegroup(self, context, cluster, nodegroup):
        self._delete_stack(self._osc(context), cluster, nodegroup.stack_id)

    # -- certificates -------------------------------------------------------------------

    def rotate_ca_certificate(self, context, cluster):
        """Send the stack a new service-account key pair (fedora-coreos only)."""
        template = cluster.cluster_template
        if template.cluster_distro not in ("fedora-coreos",):
            raise exception.NotSupported(
                operation="Rotating the CA certificate for cluster with cluster_distro: %s"
                % template.cluster_distro
            )
        _heat_call(
            self._osc(context).heat().stacks.update,
            cluster.stack_id,
            parameters=x509.generate_service_account_keys(),
            existing=True,
            disable_rollback=False,
        )
