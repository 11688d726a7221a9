"""The cloud's resources a template or cluster names: image (with its os_distro), flavors,
keypair, external and fixed networks and subnets.

Magnum looks them up through the cloud's OpenStack APIs (glance, nova, neutron) with
their client libraries. This module is the one place that would do so; until the cloud's
REST endpoints are reachable from here, ``[DEFAULT] validate_os_resources`` stays off and
the look-ups answer from what the caller gave: the image's os_distro is
``[DEFAULT] unvalidated_image_os_distro`` and every name is taken as it is.
magnum-lite never reads another service's database for them.

    distro = os_resources.image_os_distro(context, 'fedora-coreos-40')
    os_resources.validate_cluster_resources(context, cluster_dict, template)
"""

from magnum_lite.common import exception
from magnum_lite.conf import CONF


def enabled():
    return CONF.validate_os_resources


def _not_reachable(what):
    """With validation on, look-ups need the cloud's APIs, which are not wired yet."""
    raise exception.ServiceUnavailable(
        service="The cloud's %s API" % what,
        reason="not configured; set [DEFAULT] validate_os_resources = False",
    )


def image_os_distro(context, image_id):
    """os_distro of the image (the template's cluster_distro).

    :raises: ImageNotFound, OSDistroFieldNotFound
    """
    if not enabled():
        return CONF.unvalidated_image_os_distro
    _not_reachable("image")


def validate_template_resources(context, template):
    """Flavors, keypair, external/fixed networks of a cluster template (a dict)."""
    if enabled():
        _not_reachable("compute and network")


def validate_cluster_resources(context, cluster, template):
    """The same checks for a cluster's values (a cluster's own value wins)."""
    if enabled():
        _not_reachable("compute and network")
