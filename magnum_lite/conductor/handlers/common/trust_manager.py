"""The cluster's trustee user and trust (Magnum's trust_manager).

In noauth mode there is no identity service: a cluster gets no trustee and no trust,
as a cluster without ``cluster_user_trust`` in Magnum, and its templates get the
trust parameters empty. The keystone mode will create the trustee and the trust
here (``create_trustee_and_trust``) and remove them (``delete_trustee_and_trust``).

    create_trustee_and_trust(osc, cluster)
    get_trust_params(cluster)   # {'trustee_domain_id': '', ..., 'trust_id': ''}
"""

from magnum_lite.conf import CONF

TRUST_PARAMS = (
    ("trustee_domain_id", "trustee_domain_id"),
    ("trustee_user_id", "trustee_user_id"),
    ("trustee_username", "trustee_username"),
    ("trustee_password", "trustee_password"),
    ("trust_id", "trust_id"),
)


def _keystone_mode():
    return CONF.auth_strategy == "keystone"


def create_trustee_and_trust(osc, cluster):
    """Give the cluster its trustee and trust (keystone mode); noauth: nothing to make."""
    if _keystone_mode():
        raise NotImplementedError("trustees need the identity service (keystone mode)")


def delete_trustee_and_trust(osc, context, cluster):
    """Remove the cluster's trustee and trust, if it has them."""
    if _keystone_mode() and getattr(cluster, "trustee_user_id", None):
        raise NotImplementedError("trustees need the identity service (keystone mode)")


def get_trust_params(cluster):
    """The templates' trust parameters: the cluster's trustee, or empty strings."""
    return {param: getattr(cluster, attr, None) or "" for param, attr in TRUST_PARAMS}
