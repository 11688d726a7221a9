"""HeatPoller: a cluster's and its nodegroups' status, reasons and addresses from
their Heat stacks (Magnum 22's HeatPoller, the return path of every operation).

    HeatPoller(osc, context, cluster, driver).poll_and_check()

For each nodegroup with a stack: GET the stack without outputs; on CREATE_COMPLETE,
CREATE_FAILED or UPDATE_COMPLETE GET it again with outputs and copy them (API
address, node addresses, node counts from the stack's parameters, coe_version);
otherwise copy a changed status. A stack Heat no longer knows ends the nodegroup's
operation (DELETE_IN_PROGRESS -> DELETE_COMPLETE, CREATE/UPDATE -> *_FAILED). The
cluster's status is then aggregated from its nodegroups'; a failed cluster's
status_reason names each failed nodegroup with its stack's reason ("default-worker
failed: Resource CREATE failed: ..."), where Magnum 22 names the nodegroups only
(docs/magnum-api.md §9.6).
"""

import collections
import logging
import time

from heatclient import exc as heat_exc

from magnum_lite.cluster_credentials import cert_manager, trust_manager
from magnum_lite.conf import CONF

LOG = logging.getLogger(__name__)

NodeGroupStatus = collections.namedtuple("NodeGroupStatus", "name status is_default reason")

CREATE_COMPLETE = "CREATE_COMPLETE"
CREATE_IN_PROGRESS = "CREATE_IN_PROGRESS"
CREATE_FAILED = "CREATE_FAILED"
UPDATE_COMPLETE = "UPDATE_COMPLETE"
UPDATE_IN_PROGRESS = "UPDATE_IN_PROGRESS"
UPDATE_FAILED = "UPDATE_FAILED"
DELETE_IN_PROGRESS = "DELETE_IN_PROGRESS"
DELETE_COMPLETE = "DELETE_COMPLETE"

RESOLVE_OUTPUTS = (CREATE_COMPLETE, CREATE_FAILED, UPDATE_COMPLETE)
FAILURES = (CREATE_FAILED, "DELETE_FAILED", UPDATE_FAILED, "ROLLBACK_COMPLETE", "ROLLBACK_FAILED")
# a stack Heat no longer knows: nodegroup status -> its new status
MISSING_STACK = {
    DELETE_IN_PROGRESS: DELETE_COMPLETE,
    CREATE_IN_PROGRESS: CREATE_FAILED,
    UPDATE_IN_PROGRESS: UPDATE_FAILED,
}

# cluster uuid -> when a poll first saw it DELETE_IN_PROGRESS with its stack not deleted
_DELETE_NOT_BEGUN = {}

FAILED = "_FAILED"
IN_PROGRESS = "_IN_PROGRESS"
COMPLETE = "_COMPLETE"


def _failure_reason(ng_status):
    """``<nodegroup> failed``, as Magnum 22 says it, followed by Heat's stack_status_reason
    of that nodegroup's stack (kept whole in the cluster's ``faults`` too), so the reason
    a user reads on the cluster is Heat's."""
    if not ng_status.reason:
        return "%s failed" % ng_status.name
    return "%s failed: %s" % (ng_status.name, ng_status.reason)


class HeatPoller:
    def __init__(self, openstack_client, context, cluster, cluster_driver):
        self.openstack_client = openstack_client
        self.context = context
        self.cluster = cluster
        self.cluster_template = cluster.cluster_template
        self.driver = cluster_driver
        self.template_def = cluster_driver.get_template_definition()
        self.nodegroup = None
        self.default_ngs = []
        self._stacks = {}

    def poll_and_check(self):
        ng_statuses = []
        self.default_ngs = []
        self._stacks = {}
        for nodegroup in self.cluster.nodegroups:
            self.nodegroup = nodegroup
            if nodegroup.is_default:
                self.default_ngs.append(nodegroup)
            status = self.extract_nodegroup_status()
            if status is not None:  # a deleted extra nodegroup
                ng_statuses.append(status)
        self.aggregate_nodegroup_statuses(ng_statuses)

    def _status(self):
        ng = self.nodegroup
        return NodeGroupStatus(ng.name, ng.status, ng.is_default, ng.status_reason)

    def extract_nodegroup_status(self):
        if self.nodegroup.stack_id is None:
            # the conductor has not stored the stack id yet: keep the status
            return self._status()
        try:
            stack = self._stack(self.nodegroup.stack_id, resolve_outputs=False)
            if self._delete_not_begun(stack):
                return self._status()
            if stack.stack_status in RESOLVE_OUTPUTS:
                stack = self._stack(self.nodegroup.stack_id, resolve_outputs=True)
                self._sync_cluster_and_template_status(stack)
            elif stack.stack_status != self.nodegroup.status:
                self._sync_cluster_and_template_status(stack)
            if stack.stack_status == DELETE_COMPLETE:
                if not self.nodegroup.is_default:
                    self.nodegroup.destroy()
                    return None
                self._check_delete_complete()
            if stack.stack_status in FAILURES:
                self._nodegroup_failed(stack)
        except heat_exc.HTTPNotFound:
            self._sync_missing_heat_stack()
        return self._status()

    def _delete_not_begun(self, stack):
        """A cluster DELETE_IN_PROGRESS whose stack is not being deleted: its delete is
        about to reach Heat, or its conductor stopped before it did. The nodegroup keeps
        its DELETE_IN_PROGRESS (Magnum 22 copies the stack's status back, and a cluster
        whose delete was lost shows UPDATE_COMPLETE for ever); seen so for ``[conductor]
        lost_cast_timeout`` (in this process), the delete is sent again (a second delete
        of a stack is harmless)."""
        if self.cluster.status != DELETE_IN_PROGRESS or stack.stack_status.startswith("DELETE"):
            _DELETE_NOT_BEGUN.pop(self.cluster.uuid, None)
            return False
        first_seen = _DELETE_NOT_BEGUN.setdefault(self.cluster.uuid, time.monotonic())
        lost = time.monotonic() - first_seen >= CONF.conductor.lost_cast_timeout
        if lost and self.nodegroup.is_default and self.nodegroup.role == "master":
            # the cluster stack's nodegroup: the driver's delete covers every nodegroup
            _DELETE_NOT_BEGUN.pop(self.cluster.uuid, None)
            LOG.warning(
                "Cluster %s is DELETE_IN_PROGRESS and its stack %s is %s: deleting it",
                self.cluster.uuid,
                stack.id,
                stack.stack_status,
            )
            self.driver.delete_cluster(self.openstack_client.context, self.cluster)
        self.nodegroup.status = DELETE_IN_PROGRESS
        return True

    def _stack(self, stack_id, resolve_outputs):
        """GET of the stack, once per poll: the default nodegroups share the cluster's
        stack (Magnum 22 asks Heat again for each)."""
        key = (stack_id, resolve_outputs)
        if key not in self._stacks:
            heat = self.openstack_client.heat()
            self._stacks[key] = heat.stacks.get(stack_id, resolve_outputs=resolve_outputs)
        return self._stacks[key]

    def aggregate_nodegroup_statuses(self, ng_statuses):
        """The cluster's status from its nodegroups': in-progress beats failed beats
        complete; with extra nodegroups the action is UPDATE (DELETE while the
        default ones are deleted)."""
        previous_state = self.cluster.status
        self.cluster.status_reason = None
        non_default_ngs_exist = any(not ns.is_default for ns in ng_statuses)
        default_ng_status = self.cluster.default_ng_master.status
        action = "DELETE" if default_ng_status.startswith("DELETE") else "UPDATE"
        for state in (IN_PROGRESS, FAILED, COMPLETE):
            if any(ns.status.endswith(state) for ns in ng_statuses):
                self.cluster.status = action + state if non_default_ngs_exist else default_ng_status
                break
        if self.cluster.status == CREATE_COMPLETE and previous_state not in (
            CREATE_COMPLETE,
            CREATE_IN_PROGRESS,
        ):
            self.cluster.status = UPDATE_COMPLETE
        if self.cluster.status.endswith(FAILED):
            failed = [ns for ns in ng_statuses if ns.status.endswith(FAILED)]
            self.cluster.status_reason = ", ".join(_failure_reason(ns) for ns in failed)
        self.cluster.save()

    def _sync_cluster_and_template_status(self, stack):
        self.template_def.update_outputs(stack, self.cluster_template, self.cluster, self.nodegroup)
        self.template_def.get_version_info(stack, self.cluster)
        self._sync_cluster_status(stack)

    def _sync_cluster_status(self, stack):
        self.nodegroup.status = stack.stack_status
        self.nodegroup.status_reason = stack.stack_status_reason
        self.nodegroup.save()

    def _nodegroup_failed(self, stack):
        LOG.error(
            "Nodegroup error, stack status: %s, stack_id: %s, reason: %s",
            stack.stack_status,
            self.nodegroup.stack_id,
            self.nodegroup.status_reason,
        )

    def _sync_missing_heat_stack(self):
        new_status = MISSING_STACK.get(self.nodegroup.status)
        if new_status is None:
            return
        self.nodegroup.status = new_status
        self.nodegroup.status_reason = (
            "Stack with id %s not found in Heat." % self.nodegroup.stack_id
        )
        self.nodegroup.save()
        LOG.info(
            "Nodegroup %s set to %s: its stack %s is not found in Heat",
            self.nodegroup.uuid,
            new_status,
            self.nodegroup.stack_id,
        )
        if new_status == DELETE_COMPLETE and self.nodegroup.is_default:
            self._check_delete_complete()

    def _check_delete_complete(self):
        if all(ng.status == DELETE_COMPLETE for ng in self.default_ngs):
            self._delete_complete()

    def _delete_complete(self):
        """The cluster's stacks are gone: its trust and certificates go too (the
        caller destroys the rows once the cluster is DELETE_COMPLETE)."""
        LOG.info("Cluster has been deleted, stack_id: %s", self.cluster.stack_id)
        trust_manager.delete_trustee_and_trust(self.openstack_client, self.context, self.cluster)
        cert_manager.delete_certificates_from_cluster(self.cluster, context=self.context)
