"""[keystone_auth]: the identity magnum-lite acts as when it calls the cloud's OpenStack
APIs (Glance, Nova, Neutron) in noauth mode, registered and loaded with
keystoneauth1.loading as Magnum does (its service user: auth_type, auth_url, username,
password, project_name, ... and the session's cafile/insecure/timeout).

    [keystone_auth]
    auth_type = password
    auth_url = http://127.0.0.1:8080/identity
    username = magnum
    password = password
    project_name = service
    user_domain_id = default
    project_domain_id = default
"""

import copy

from keystoneauth1 import loading as ka_loading

GROUP = "keystone_auth"


def register_opts(conf):
    ka_loading.register_auth_conf_options(conf, GROUP)
    ka_loading.register_session_conf_options(conf, GROUP)


def list_opts():
    """The common auth options, the password plugin's (what a sample config shows) and
    the session's."""
    opts = copy.deepcopy(ka_loading.get_auth_common_conf_options())
    names = {opt.dest for opt in opts}
    opts += [
        opt
        for opt in copy.deepcopy(ka_loading.get_auth_plugin_conf_options("password"))
        if opt.dest not in names
    ]
    opts += copy.deepcopy(ka_loading.get_session_conf_options())
    return [(GROUP, opts)]
