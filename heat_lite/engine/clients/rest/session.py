"""The keystoneauth session heat-lite's client plugins act with, one per caller.

As Heat does:

* ``[DEFAULT] auth_strategy = keystone``: the request's own token (X-Auth-Token, kept
  in the context) scoped to its project - objects belong to the caller's project; a
  trust-scoped token (a Magnum cluster's trustee) as it is, from its validated body;
* ``noauth``: there is no token to act with, so the plugins authenticate as the service
  user of ``[clients_keystone]`` (username, password, project_name at auth_uri), as
  Heat's stack domain/trustee users do - objects belong to that user's project.

Every caller's Connection sends its calls through ONE requests session per process,
whose pool keeps at most POOL_MAXSIZE sockets per endpoint (host and port): the sockets
a process holds to the cloud do not grow with the callers. Connections are kept per
caller in a small LRU (keystoneauth keeps and renews each caller's token itself), which
holds no socket of its own; the endpoint of each service is read from the token's
catalog (``[clients_keystone] region_name``, ``endpoint_type``).

    conn = session.connection(ctx)
    conn.compute.get('/servers/<id>').json()
"""

import collections
import logging
import os
import threading
import urllib.request
from http import cookiejar

import openstack
import requests
from keystoneauth1 import access
from keystoneauth1 import session as ks_session
from keystoneauth1.identity import access as access_plugin
from keystoneauth1.identity import v3

from heat_lite.conf import CONF

LOG = logging.getLogger(__name__)

# microversions the plugins speak (networks 'auto'/'none' need compute 2.37; the
# flavor of a server is still {'id': ...} below 2.47)
COMPUTE_MICROVERSION = "2.37"
VOLUME_MICROVERSION = "3.0"

# sockets the process keeps open to each endpoint (requests' default). More calls at once
# than this each open a socket of their own, closed when the call is done: a keep-alive
# socket holds one of the cloud API's green threads for as long as it is open.
POOL_MAXSIZE = 10
# callers (tokens) whose Connection is kept: re-authenticating a token costs a call to
# the identity service, a Connection none (it shares the one requests session)
MAX_CACHED = 64

_lock = threading.Lock()
_connections = collections.OrderedDict()  # identity key -> Connection, oldest first
_http = []  # [(requests session, verify)]: the process's one, made on first use


def _service_auth():
    opts = CONF.clients_keystone
    return v3.Password(
        auth_url=opts.auth_uri,
        username=opts.username,
        password=opts.password,
        project_name=opts.project_name,
        user_domain_id=opts.user_domain_id,
        project_domain_id=opts.project_domain_id,
    )


def _http_session():
    """A requests session for keystoneauth's to run on, and the ``verify`` its calls pass.

    One pool of POOL_MAXSIZE sockets per endpoint; no cookies (every caller's calls share
    it: nothing one caller is answered may ride along another's calls).

    requests reads the environment on every call (proxies and no_proxy, ~/.netrc, a CA
    bundle: 0.4 ms of a 2.6 ms GET to the simulated cloud). Without a proxy or a netrc
    file there is nothing to read again: the CA bundle a variable names is read here,
    once, and passed as keystoneauth's ``verify`` (as requests would use it)."""
    http = requests.Session()
    adapter = ks_session.TCPKeepAliveAdapter(pool_maxsize=POOL_MAXSIZE)
    for scheme in ("https://", "http://"):
        http.mount(scheme, adapter)
    http.cookies.set_policy(cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    netrc = os.environ.get("NETRC") or os.path.expanduser("~/.netrc")
    http.trust_env = bool(
        urllib.request.getproxies()
        or os.path.exists(netrc)
        or os.path.exists(os.path.expanduser("~/_netrc"))
    )
    verify = True
    if not http.trust_env:
        verify = os.environ.get("REQUESTS_CA_BUNDLE") or os.environ.get("CURL_CA_BUNDLE") or True
    return http, verify


def _auth_for(context):
    """(cache key, keystoneauth plugin) of the identity the calls act as."""
    token = getattr(context, "auth_token", None)
    if CONF.auth_strategy == "keystone" and token:
        project_id = getattr(context, "project_id", None)
        info = getattr(context, "auth_token_info", None)
        if info:
            # a trust-scoped token (a cluster's trustee): used as it is, as Heat's context
            # does (AccessInfoPlugin); the identity service refuses to rescope it
            ref = access.create(body=info, auth_token=token)
            auth = access_plugin.AccessInfoPlugin(
                auth_ref=ref, auth_url=CONF.clients_keystone.auth_uri
            )
            return ("token", token, project_id), auth
        auth = v3.Token(auth_url=CONF.clients_keystone.auth_uri, token=token, project_id=project_id)
        return ("token", token, project_id), auth
    return ("service",), _service_auth()


def connection(context):
    """The openstacksdk Connection acting for ``context`` (kept per identity, the
    MAX_CACHED last used), on the process's one requests session."""
    key, auth = _auth_for(context)
    with _lock:
        conn = _connections.get(key)
        if conn is not None:
            _connections.move_to_end(key)
            return conn
        if not _http:
            _http.append(_http_session())
        http, verify = _http[0]
        opts = CONF.clients_keystone
        conn = openstack.connection.Connection(
            session=ks_session.Session(auth=auth, session=http, verify=verify),
            region_name=opts.region_name,
            interface=opts.endpoint_type,
            compute_api_version="2",
            block_storage_api_version="3",
        )
        _connections[key] = conn
        while len(_connections) > MAX_CACHED:
            _connections.popitem(last=False)  # its calls ran on the shared session
    return conn


def warm_up():
    """Make the service user's Connection and fetch its token now (noauth mode; a
    service's start runs this in the background). The first stack's first cloud call then
    finds both ready: they cost that call 30-70 ms (the SDK's set-up, the identity
    service's bcrypt check), in each worker and in the engine. In keystone mode every
    request acts with its own token: nothing to warm. A cloud not reachable yet is no
    error here: the first call authenticates as it would have."""
    if CONF.auth_strategy == "keystone":
        return
    try:
        connection(None).session.get_token()
    except Exception as exc:  # noqa: BLE001 - the first real call reports it
        LOG.debug("the cloud's identity service did not answer yet: %s", exc)


def forget():
    """Drop every cached Connection and close the requests session's sockets (tests that
    point heat-lite at a new cloud)."""
    with _lock:
        _connections.clear()
        while _http:
            _http.pop()[0].close()
