"""Clients of the OpenStack services the conductor calls, as Magnum's OpenStackClients.

In noauth mode there is no Keystone catalog: python-heatclient is pointed at
``[heat_client] url`` (``%(project_id)s`` replaced by the caller's project) through a
keystoneauth session that carries the caller's identity headers (X-User-Id,
X-Project-Id, X-Roles), which heat-lite's noauth middleware reads. A keystone mode
would put a token plugin on the same session and find the endpoint in the catalog.

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
from keystoneauth1 import loading as ka_loading
from keystoneauth1 import session as ks_session

from magnum_lite.common import exception
from magnum_lite.conf import CONF
from magnum_lite.conf import keystone as keystone_conf
from magnum_lite.conf import os_clients as os_clients_conf

_lock = threading.Lock()
# magnum's service user, one auth plugin per process: keystoneauth keeps its token and
# renews it before it expires, so requests do not each authenticate again
_service_auth = {}


def _service_user_auth():
    with _lock:
        plugin = _service_auth.get("plugin")
        if plugin is None:
            plugin = ka_loading.load_auth_from_conf_options(CONF, keystone_conf.GROUP)
            if plugin is None:
                raise exception.ServiceUnavailable(
                    service="The cloud's identity",
                    reason="[%s] names no auth_type" % keystone_conf.GROUP,
                )
            _service_auth["plugin"] = plugin
    return plugin


def forget_service_auth():
    """Drop the service user's auth plugin (its token); the next session loads it again
    from [keystone_auth] (tests that point magnum-lite at another cloud)."""
    with _lock:
        _service_auth.clear()


def _interface(endpoint_type):
    """Magnum's endpoint_type ('publicURL') as a keystoneauth interface ('public')."""
    return endpoint_type[: -len("URL")] if endpoint_type.endswith("URL") else endpoint_type


class OpenStackClients:
    """Lazily built clients for one request context (anything with project_id,
    user_id and roles)."""

    def __init__(self, context):
        self.context = context
        self._heat = None
        self._keystone_session = None
        self._cloud = None

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

    def keystone_session(self):
        """The keystoneauth session the cloud's APIs are called with: in noauth mode
        magnum's service user of [keystone_auth], with that group's session options."""
        if self._keystone_session is None:
            self._keystone_session = ka_loading.load_session_from_conf_options(
                CONF, keystone_conf.GROUP, auth=_service_user_auth()
            )
        return self._keystone_session

    def cloud(self):
        """An openstacksdk Connection on keystone_session(): ``.image``, ``.compute`` and
        ``.network`` at the catalog's endpoints."""
        if self._cloud is None:
            where = {}
            for group, service_type in os_clients_conf.SERVICE_TYPES.items():
                opts = CONF[group]
                where[service_type + "_interface"] = _interface(opts.endpoint_type)
                if opts.region_name:
                    where[service_type + "_region_name"] = opts.region_name
            self._cloud = openstack.connection.Connection(
                session=self.keystone_session(), compute_api_version="2", **where
            )
        return self._cloud

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
