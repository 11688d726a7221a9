"""The cluster's trustee user and trust (Magnum's trust_manager).

Keystone mode: a cluster gets a trustee user in ``[trust] trustee_domain_id`` (made by
the trustee domain admin) and a trust from the cluster's user to it (the caller's roles,
impersonation); both go when the cluster goes. The stack gets them as parameters
(``trust_id`` only with ``[trust] cluster_user_trust``, as Magnum). Noauth mode: no
identity service, so no trustee and no trust, and empty trust parameters.

    create_trustee_and_trust(osc, cluster)
    delete_trustee_and_trust(osc, context, cluster)
    get_trust_params(cluster)   # {'trustee_domain_id': ..., ..., 'trust_id': ...}
"""

import logging
import secrets

from magnum_lite.common import exception
from magnum_lite.conf import CONF

LOG = logging.getLogger(__name__)


def _keystone_mode():
    return CONF.auth_strategy == "keystone"


def trustee_name(cluster):
    """``<cluster uuid>_<project id>``, as Magnum names a cluster's trustee: a delete finds
    by it a trustee its create made but did not record (its conductor was killed)."""
    return "%s_%s" % (cluster.uuid, cluster.project_id)


def create_trustee_and_trust(osc, cluster):
    """Give the cluster its trustee and trust (keystone mode); noauth: nothing to make."""
    if not _keystone_mode():
        return
    try:
        password = secrets.token_urlsafe(18)
        trustee = osc.keystone().create_trustee(trustee_name(cluster), password)
        cluster.trustee_username = trustee.name
        cluster.trustee_user_id = trustee.id
        cluster.trustee_password = password
        cluster.trust_id = osc.keystone().create_trust(cluster.trustee_user_id).id
    except Exception:
        LOG.exception("Failed to create trustee and trust for Cluster: %s", cluster.uuid)
        raise exception.TrusteeOrTrustToClusterFailed(cluster_uuid=cluster.uuid)


def delete_trustee_and_trust(osc, context, cluster):
    """Remove the cluster's trust and trustee, if it has them."""
    if not _keystone_mode():
        return
    kst = osc.keystone()
    try:
        if cluster.trust_id:
            kst.delete_trust(context, cluster)
            cluster.trust_id = None
    except Exception:
        LOG.exception("Failed to delete trust of Cluster: %s", cluster.uuid)
        raise exception.TrusteeOrTrustToClusterFailed(cluster_uuid=cluster.uuid)
    try:
        if cluster.trustee_user_id:
            kst.delete_trustee(cluster.trustee_user_id)
            cluster.trustee_user_id = None
            cluster.trustee_username = None
            cluster.trustee_password = None
    except Exception:
        LOG.exception("Failed to delete trustee of Cluster: %s", cluster.uuid)
        raise exception.TrusteeOrTrustToClusterFailed(cluster_uuid=cluster.uuid)


def delete_unrecorded_trustee(osc, cluster):
    """Delete the trustee a lost create made but did not record (its conductor was
    killed between the two), found by its name; the identity service deletes the trust
    it may have got with it. Only for a create known to be dead: a running one records
    or undoes its own."""
    if not _keystone_mode() or cluster.trustee_user_id:
        return
    kst = osc.keystone()
    trustee_id = kst.find_trustee(trustee_name(cluster))
    if trustee_id:
        LOG.info("Cluster %s: deleting the trustee its lost create made", cluster.uuid)
        kst.delete_trustee(trustee_id)


def get_trust_params(cluster):
    """The templates' trust parameters: the cluster's trustee, or empty strings."""
    params = {
        name: getattr(cluster, name, None)
        for name in ("trustee_user_id", "trustee_username", "trustee_password")
    }
    params["trustee_domain_id"] = CONF.trust.trustee_domain_id if _keystone_mode() else None
    params["trust_id"] = (
        getattr(cluster, "trust_id", None) if CONF.trust.cluster_user_trust else None
    )
    return {key: value or "" for key, value in params.items()}
