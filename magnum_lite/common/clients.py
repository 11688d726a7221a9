"""Clients of the OpenStack services the conductor calls, as Magnum's OpenStackClients.

In noauth mode there is no Keystone catalog: python-heatclient is pointed at
``[heat_client] url`` (``%(project_id)s`` replaced by the caller's project) through a
keystoneauth session that carries the caller's identity headers (X-User-Id,
X-Project-Id, X-Roles), which heat-lite's noauth middleware reads. A keystone mode
would put a token plugin on the same session and find the endpoint in the catalog.

    osc = OpenStackClients(context)
    osc.heat().stacks.create(stack_name='c1-abc', template={...}, ...)
"""

from heatclient import client as heatclient
from keystoneauth1 import session as ks_session

from magnum_lite.conf import CONF


class OpenStackClients:
    """Lazily built clients for one request context (anything with project_id,
    user_id and roles)."""

    def __init__(self, context):
        self.context = context
        self._heat = None

    def _identity_headers(self):
        roles = list(getattr(self.context, "roles", None) or ["member"])
        return {
            "X-Project-Id": self.context.project_id,
            "X-User-Id": self.context.user_id,
            "X-Roles": ",".join(roles),
        }

    def heat_url(self):
        """The Heat endpoint for the context's project."""
        return CONF.heat_client.url % {"project_id": self.context.project_id}

    def heat(self):
        """A python-heatclient Client talking to Heat as the context's caller."""
        if self._heat is None:
            verify = CONF.heat_client.ca_file or not CONF.heat_client.insecure
            session = ks_session.Session(verify=verify)
            self._heat = heatclient.Client(
                CONF.heat_client.api_version,
                session=session,
                endpoint=self.heat_url(),
                additional_headers=self._identity_headers(),
            )
        return self._heat

    def octavia_enabled(self):
        """Whether the cloud has a load-balancer service (Magnum asks the catalog).

        The simulated cloud always runs Octavia; without a catalog this is True.
        """
        return True


class ClusterContext:
    """The identity the conductor uses for a cluster's stacks outside a user request
    (periodic sync, notifications): the cluster's project and user, as Magnum's
    trustee-based cluster context would act for them."""

    def __init__(self, cluster):
        self.project_id = cluster.project_id
        self.user_id = cluster.user_id
        self.roles = ["member"]
        self.is_admin = False
