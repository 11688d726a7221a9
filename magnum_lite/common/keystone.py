"""Magnum's Keystone v3 client (KeystoneClientV3): the auth plugin of a context, the
trustee domain admin, trustees and trusts. Keystone mode only.

    auth = keystone.auth_for_context(ctx)     # Token / trust Password / service user
    kst = KeystoneClientV3(ctx, session)      # session: OpenStackClients.keystone_session()
    user = kst.create_trustee('c1_p1', 'secret')
    trust = kst.create_trust(user.id)
    kst.delete_trust(ctx, cluster); kst.delete_trustee(cluster.trustee_user_id)
"""

import logging
import threading
from http import cookiejar

import requests
from keystoneauth1 import exceptions as ka_exception
from keystoneauth1 import loading as ka_loading
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import v3 as ka_v3
from keystoneclient.v3 import client as kc_v3

from magnum_lite.common import exception
from magnum_lite.conf import CONF
from magnum_lite.conf.keystone import CFG_GROUP, CFG_LEGACY_GROUP

LOG = logging.getLogger(__name__)


def auth_url():
    """Keystone's v3 URL: ``[keystone_authtoken] www_authenticate_uri``, as Magnum."""
    url = CONF[CFG_LEGACY_GROUP].www_authenticate_uri or CONF[CFG_LEGACY_GROUP].auth_uri
    if not url:
        raise exception.AuthorizationFailure(
            client="keystone", message="[keystone_authtoken] www_authenticate_uri is not set."
        )
    return url.replace("v2.0", "v3")


# sockets the process keeps open to each endpoint (requests' default); calls beyond
# them at once each open one of their own, closed when done
POOL_MAXSIZE = 10

_lock = threading.Lock()
_http = []  # [requests session]: the process's one, made on first use


def http_session():
    """The process's one requests session, under every keystoneauth session made here:
    a pool of POOL_MAXSIZE sockets per endpoint, kept-alive (keystoneauth's adapter,
    ``[keystone_auth]`` tls_ciphers and tls_min_version), and no cookies (callers of
    every identity share it): a session of its own per request would hold a socket to
    the cloud until the garbage collector found it."""
    with _lock:
        if not _http:
            opts = CONF[CFG_GROUP]
            http = requests.Session()
            adapter = ks_session.TCPKeepAliveAdapter(
                pool_maxsize=POOL_MAXSIZE,
                tls_ciphers=getattr(opts, "tls_ciphers", None),
                tls_min_version=getattr(opts, "tls_min_version", None),
            )
            for scheme in ("https://", "http://"):
                http.mount(scheme, adapter)
            http.cookies.set_policy(cookiejar.DefaultCookiePolicy(allowed_domains=[]))
            _http.append(http)
        return _http[0]


def forget_http_session():
    """Close the process's requests session (its sockets); the next use makes another."""
    with _lock:
        while _http:
            _http.pop().close()


def make_session(auth):
    """A keystoneauth session with ``[keystone_auth]``'s TLS and timeout options, on the
    process's one requests session."""
    return ka_loading.load_session_from_conf_options(
        CONF, CFG_GROUP, auth=auth, session=http_session()
    )


# magnum's service user, one auth plugin per process: keystoneauth keeps its token and
# renews it before it expires, so requests do not each authenticate again
_service_auth = {}


def service_auth():
    """The magnum service user's plugin (``[keystone_auth]``), loaded once per process.

    :raises ServiceUnavailable: (503) when ``[keystone_auth]`` names no auth_type
    """
    with _lock:
        plugin = _service_auth.get("plugin")
        if plugin is None:
            plugin = ka_loading.load_auth_from_conf_options(CONF, CFG_GROUP)
            if plugin is None:
                raise exception.ServiceUnavailable(
                    service="The cloud's identity",
                    reason="[%s] names no auth_type" % CFG_GROUP,
                )
            _service_auth["plugin"] = plugin
    return plugin


def forget_service_auth():
    """Drop the service user's plugin (its token) and close the requests session; the
    next use loads it again from [keystone_auth] (tests that point magnum-lite at
    another cloud)."""
    with _lock:
        _service_auth.clear()
    forget_http_session()


def auth_for_context(context):
    """The request's token; a cluster's trustee with its trust (``make_cluster_context``);
    or, for an admin context with neither (the conductor as itself), the service user."""
    if context.auth_token:
        return ka_v3.Token(
            auth_url=auth_url(), token=context.auth_token, project_id=context.project_id
        )
    if context.trust_id:
        return ka_v3.Password(
            auth_url=auth_url(),
            username=context.user_name,
            password=context.password,
            user_domain_id=context.user_domain_id,
            user_domain_name=context.user_domain_name,
            trust_id=context.trust_id,
        )
    if context.is_admin:
        return service_auth()
    raise exception.AuthorizationFailure(
        client="keystone",
        message="Keystone API connection failed: no password, trust_id or token found.",
    )


class KeystoneClientV3:
    """keystoneclient on the context's session, and on the trustee domain admin's."""

    def __init__(self, context, session):
        self.context = context
        self.session = session
        self._client = None
        self._domain_admin_client = None

    @property
    def client(self):
        if self._client is None:
            self._client = kc_v3.Client(session=self.session)
        return self._client

    @property
    def trustee_domain_id(self):
        return CONF.trust.trustee_domain_id

    @property
    def domain_admin_auth(self):
        trust = CONF.trust
        return ka_v3.Password(
            auth_url=auth_url(),
            user_id=trust.trustee_domain_admin_id,
            username=trust.trustee_domain_admin_name,
            user_domain_id=trust.trustee_domain_admin_domain_id or trust.trustee_domain_id,
            user_domain_name=trust.trustee_domain_admin_domain_name or trust.trustee_domain_name,
            domain_id=trust.trustee_domain_id,
            domain_name=trust.trustee_domain_name,
            password=trust.trustee_domain_admin_password,
        )

    @property
    def domain_admin_client(self):
        if self._domain_admin_client is None:
            self._domain_admin_client = kc_v3.Client(session=make_session(self.domain_admin_auth))
        return self._domain_admin_client

    def create_trustee(self, username, password):
        try:
            return self.domain_admin_client.users.create(
                name=username, password=password, domain=self.trustee_domain_id
            )
        except Exception:
            LOG.exception("Failed to create trustee")
            raise exception.TrusteeCreateFailed(username=username, domain_id=self.trustee_domain_id)

    def create_trust(self, trustee_user):
        """A trust from the caller to ``trustee_user`` on the caller's project, with the
        caller's roles (or ``[trust] roles``), impersonating the caller."""
        roles = CONF.trust.roles or self.context.roles
        try:
            return self.client.trusts.create(
                trustor_user=self.session.get_user_id(),
                project=self.session.get_project_id(),
                trustee_user=trustee_user,
                impersonation=True,
                role_names=roles,
            )
        except Exception:
            LOG.exception("Failed to create trust")
            raise exception.TrustCreateFailed(trustee_user_id=trustee_user)

    def delete_trust(self, context, cluster):
        """Only the trustor (or an admin) may delete a trust: anyone else acts as the
        cluster's trustee, which impersonates the trustor through the trust itself."""
        if cluster.trust_id is None:
            return
        if context.user_id == cluster.user_id:
            client = self.client
        else:
            auth = ka_v3.Password(
                auth_url=auth_url(),
                user_id=cluster.trustee_user_id,
                password=cluster.trustee_password,
                trust_id=cluster.trust_id,
            )
            client = kc_v3.Client(session=make_session(auth))
        try:
            client.trusts.delete(cluster.trust_id)
        except (ka_exception.NotFound, ka_exception.Unauthorized):
            # gone already (a trust-scoped login to a deleted trust is Keystone's 404
            # TrustNotFound)
            LOG.info("Trust %s of cluster %s is already gone", cluster.trust_id, cluster.uuid)

    def find_trustee(self, username):
        """The id of the trustee user named ``username`` in the trustee domain, or None
        (a create that stopped after making it, before the cluster recorded it)."""
        users = self.domain_admin_client.users.list(domain=self.trustee_domain_id, name=username)
        return users[0].id if users else None

    def delete_trustee(self, trustee_id):
        try:
            self.domain_admin_client.users.delete(trustee_id)
        except ka_exception.NotFound:
            LOG.info("Trustee %s is already gone", trustee_id)
