"""[keystone_auth] and [keystone_authtoken]: Magnum's identity options (keystone mode).

``[keystone_auth]`` is the service user's keystoneauth plugin and session, registered
with keystoneauth1.loading as Magnum does (``auth_type`` defaults to password; the
plugin's own options are registered when it is loaded). ``[keystone_authtoken]`` holds
keystonemiddleware's options: auth_token reads them from magnum's ``CONF`` and Magnum
takes its Keystone URL from ``www_authenticate_uri``.
"""

from keystoneauth1 import loading as ka_loading
from keystonemiddleware import auth_token
from oslo_config import cfg

CFG_GROUP = "keystone_auth"
CFG_LEGACY_GROUP = "keystone_authtoken"

keystone_auth_group = cfg.OptGroup(name=CFG_GROUP, title="Options for Keystone in Magnum")


def register_opts(conf):
    for group, opts in auth_token.list_opts():
        conf.register_opts(opts, group=group)
    conf.register_group(keystone_auth_group)
    ka_loading.register_auth_conf_options(conf, CFG_GROUP)
    ka_loading.register_session_conf_options(conf, CFG_GROUP)
    conf.set_default("auth_type", default="password", group=CFG_GROUP)


def list_opts():
    """[keystone_auth] for the sample ([keystone_authtoken] is keystonemiddleware's own
    namespace in the generator's config)."""
    opts = (
        ka_loading.get_session_conf_options()
        + ka_loading.get_auth_common_conf_options()
        + ka_loading.get_auth_plugin_conf_options("password")
    )
    return [(CFG_GROUP, opts)]
