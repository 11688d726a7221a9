"""Clients of the OpenStack services the conductor calls, as Magnum's OpenStackClients.

Every client is built on one keystoneauth session, ``keystone_session()``:

* keystone mode: the session carries the context's auth plugin
  (the request's token, a cluster's trustee and trust, or the service user of
  ``[keystone_auth]``, see common/keystone.py) and Heat's endpoint comes from the catalog
  (service type orchestration, ``[heat_client] endpoint_type`` and ``region_name``);
* noauth mode: no Keystone and no catalog: python-heatclient is pointed at
  ``[heat_client] url`` (``%(project_id)s`` replaced by the caller's project) and the
  session carries the caller's identity headers (X-User-Id, X-Project-Id, X-Roles),
  which heat-lite's noauth middleware reads.

    osc = OpenStackClients(context)
    osc.heat().stacks.create(stack_name='c1-abc', template={...}, ...)
"""

from heatclient import client as heatclient
from keystoneauth1 import session as ks_session

from magnum_lite.common import keystone
from magnum_lite.conf import CONF


def keystone_mode():
    return CONF.auth_strategy == "keystone"


class OpenStackClients:
    """Lazily built clients for one request context (anything with project_id,
    user_id and roles; in keystone mode also auth_token or trust_id)."""

    def __init__(self, context):
        self.context = context
        self._session = None
        self._heat = None
        self._keystone = None

    def keystone_session(self):
        """The keystoneauth session every client of this context shares."""
        if self._session is None:
            if keystone_mode():
                self._session = keystone.make_session(keystone.auth_for_context(self.context))
            else:
                verify = CONF.heat_client.ca_file or not CONF.heat_client.insecure
                self._session = ks_session.Session(verify=verify)
        return self._session

    def keystone(self):
        """Magnum's KeystoneClientV3 (keystone mode): trustees and trusts."""
        if self._keystone is None:
            self._keystone = keystone.KeystoneClientV3(self.context, self.keystone_session())
        return self._keystone

    def url_for(self, **kwargs):
        """An endpoint from the catalog of the session's token."""
        return self.keystone_session().get_endpoint(**kwargs)

    def _identity_headers(self):
        roles = list(getattr(self.context, "roles", None) or ["member"])
        return {
            "X-Project-Id": self.context.project_id,
            "X-User-Id": self.context.user_id,
            "X-Roles": ",".join(roles),
        }

    def heat_url(self):
        """The Heat endpoint for the context's project."""
        opts = CONF.heat_client
        if keystone_mode():
            return self.url_for(
                service_type="orchestration",
                interface=opts.endpoint_type,
                region_name=opts.region_name,
            )
        return opts.url % {"project_id": self.context.project_id}

    def heat(self):
        """A python-heatclient Client talking to Heat as the context's caller."""
        if self._heat is None:
            headers = None if keystone_mode() else self._identity_headers()
            self._heat = heatclient.Client(
                CONF.heat_client.api_version,
                session=self.keystone_session(),
                endpoint=self.heat_url(),
                additional_headers=headers,
            )
        return self._heat

    def octavia_enabled(self):
        """Whether the cloud has a load-balancer service (Magnum asks the catalog).

        The simulated cloud always runs Octavia; without a catalog this is True.
        """
        return True
