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

The cloud's other APIs (Glance, Nova, Neutron) are reached through an openstacksdk
Connection on ``keystone_session()``; in noauth mode that session authenticates as
magnum's service user of ``[keystone_auth]`` (keystoneauth1.loading, as Magnum) and finds
each endpoint in the token's catalog (``[glance_client]``, ``[nova_client]``,
``[neutron_client]`` region_name and endpoint_type).

    osc = OpenStackClients(context)
    osc.heat().stacks.create(stack_name='c1-abc', template={...}, ...)
    osc.cloud().compute.get_keypair('default')
"""

import threading

import openstack
from heatclient import client as heatclient
from keystoneauth1 import session as ks_session

from magnum_lite.common import exception, keystone
from magnum_lite.conf import CONF
from magnum_lite.conf import os_clients as os_clients_conf


def _interface(endpoint_type):
    """Magnum's endpoint_type ('publicURL') as a keystoneauth interface ('public')."""
    return endpoint_type[: -len("URL")] if endpoint_type.endswith("URL") else endpoint_type


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
        self._cloud = None

    def keystone_session(self):
        """The keystoneauth session every client of this context shares: keystone mode,
        the context's own auth (token, trustee and trust, or the service user); noauth,
        magnum's service user of ``[keystone_auth]`` (the cloud's APIs; Heat is reached
        without it, see heat())."""
        if self._session is None:
            if keystone_mode():
                auth = keystone.auth_for_context(self.context)
            else:
                auth = keystone.service_auth()
            self._session = keystone.make_session(auth)
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

    @exception.wrap_keystone_exception
    def heat(self):
        """A python-heatclient Client talking to Heat as the context's caller (noauth:
        a plain session and the caller's identity headers, which heat-lite's noauth
        middleware reads)."""
        if self._heat is None:
            if keystone_mode():
                session, headers = self.keystone_session(), None
            else:
                verify = CONF.heat_client.ca_file or not CONF.heat_client.insecure
                session = ks_session.Session(session=keystone.http_session(), verify=verify)
                headers = self._identity_headers()
            self._heat = heatclient.Client(
                CONF.heat_client.api_version,
                session=session,
                endpoint=self.heat_url(),
                additional_headers=headers,
            )
        return self._heat

    def cloud(self):
        """An openstacksdk Connection on keystone_session(): ``.image``, ``.compute`` and
        ``.network`` at the catalog's endpoints. In noauth mode every request acts as
        magnum's service user, so the process keeps one (_service_cloud)."""
        if self._cloud is None:
            where = {}
            for group, service_type in os_clients_conf.SERVICE_TYPES.items():
                opts = CONF[group]
                where[service_type + "_interface"] = _interface(opts.endpoint_type)
                if opts.region_name:
                    where[service_type + "_region_name"] = opts.region_name
            if keystone_mode():
                self._cloud = _connection(self.keystone_session(), where)
            else:
                self._cloud = _service_cloud(where)
        return self._cloud

    def octavia_enabled(self):
        """Whether the cloud has a load-balancer service (Magnum asks the catalog).

        The simulated cloud always runs Octavia; without a catalog this is True.
        """
        return True


def _connection(session, where):
    return openstack.connection.Connection(session=session, compute_api_version="2", **where)


_cloud_lock = threading.Lock()
_service_cloud_slot = (None, None)  # ((service auth plugin, endpoint options), Connection)


def _service_cloud(where):
    """The process's Connection as magnum's service user (noauth mode), made again when
    the plugin (forget_service_auth) or the endpoint options change. openstacksdk builds
    a service's proxy on a Connection's first use of it (its service-type data
    deep-copied, the catalog searched), a quarter of magnum-api's CPU for a cluster
    create were it made per request."""
    global _service_cloud_slot
    auth = keystone.service_auth()
    key = (auth, tuple(sorted(where.items())))
    with _cloud_lock:
        if _service_cloud_slot[0] != key:
            _service_cloud_slot = (key, _connection(keystone.make_session(auth), where))
        return _service_cloud_slot[1]
