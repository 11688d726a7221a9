"""The request context: who is calling, carried from the API through RPC to the conductor.

ctx = RequestContext(user_id='u1', project_id='p1', roles=['member'])
RequestContext.from_dict(ctx.to_dict()).project_id == 'p1'
get_admin_context().all_tenants is True
make_cluster_context(cluster)     # acting for a cluster outside a request
"""

from oslo_context import context

from magnum_lite.conf import CONF


class RequestContext(context.RequestContext):
    """oslo.context plus Magnum's ``all_tenants``, ``trust_id`` and ``password``."""

    def __init__(self, all_tenants=False, trust_id=None, password=None, **kwargs):
        kwargs.setdefault("is_admin", "admin" in (kwargs.get("roles") or []))
        super().__init__(**kwargs)
        self.all_tenants = all_tenants
        self.trust_id = trust_id
        self.password = password

    def to_dict(self):
        d = super().to_dict()
        d.update(all_tenants=self.all_tenants, trust_id=self.trust_id, is_admin=self.is_admin)
        return d

    @classmethod
    def from_dict(cls, values):
        return cls(
            auth_token=values.get("auth_token"),
            user_id=values.get("user_id", values.get("user")),
            project_id=values.get("project_id", values.get("tenant")),
            project_name=values.get("project_name"),
            user_name=values.get("user_name"),
            user_domain_id=values.get("user_domain_id"),
            user_domain_name=values.get("user_domain_name"),
            roles=values.get("roles") or [],
            is_admin=values.get("is_admin", False),
            all_tenants=values.get("all_tenants", False),
            trust_id=values.get("trust_id"),
            request_id=values.get("request_id"),
            overwrite=False,
        )


def make_context(*args, **kwargs):
    return RequestContext(*args, **kwargs)


def get_admin_context(read_deleted="no"):
    """An admin context seeing every project (periodic tasks, the conductor's own work)."""
    return RequestContext(
        user_id="admin",
        project_id="admin",
        roles=["admin"],
        is_admin=True,
        all_tenants=True,
        overwrite=False,
    )


def make_cluster_context(cluster):
    """The identity the conductor uses for a cluster's stacks outside a user request
    (periodic sync, Heat's notifications), as Magnum's make_cluster_context.

    Keystone mode: the cluster's trustee, logging in with its password into the
    cluster's trust (so acting as the cluster's user, in its project). Noauth mode:
    the cluster's project and user, with the member role.
    """
    if CONF.auth_strategy == "keystone":
        return RequestContext(
            user_name=cluster.trustee_username,
            password=cluster.trustee_password,
            trust_id=cluster.trust_id,
            user_domain_id=CONF.trust.trustee_domain_id,
            user_domain_name=CONF.trust.trustee_domain_name,
            overwrite=False,
        )
    return RequestContext(
        user_id=cluster.user_id,
        project_id=cluster.project_id,
        roles=["member"],
        is_admin=False,
        overwrite=False,
    )
