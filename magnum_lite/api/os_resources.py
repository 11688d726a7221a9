"""The cloud's resources a template or cluster names: image (with its os_distro), flavors,
keypair, external and fixed networks and subnets (docs/magnum-api.md §9.3 steps 10-11,
errors of §4), as Magnum's attr_validator checks them.

Each look-up goes to the cloud's OpenStack API (Glance, Nova, Neutron) through the
openstacksdk Connection of ``OpenStackClients.cloud()``. Names and ids both resolve, as in
Magnum: an image by id (a uuid) or else by name (two images of that name: 409); a flavor,
network or subnet whose name or id matches (two networks or subnets: 409); a keypair by
name. With ``[DEFAULT] validate_os_resources`` off (no cloud configured) nothing is
looked up: the image's os_distro is ``[DEFAULT] unvalidated_image_os_distro`` and every
name is taken as it is. magnum-lite never reads another service's database for them.

    distro, driver = os_resources.image_for_driver(context, 'fedora-coreos-40')
    distro = os_resources.image_os_distro(context, 'fedora-coreos-40')
    os_resources.validate_template_resources(context, template_dict)
    os_resources.validate_cluster_resources(context, cluster_dict, template)
"""

import contextlib
import logging

import openstack.exceptions as sdk_exc
from keystoneauth1 import exceptions as ks_exc

from magnum_lite.common import clients, exception, utils
from magnum_lite.conf import CONF

LOG = logging.getLogger(__name__)

FLAVORS = ("flavor_id", "master_flavor_id")


def enabled():
    return CONF.validate_os_resources


@contextlib.contextmanager
def _cloud_errors():
    """A cloud that cannot answer (down, our credentials refused, a 5xx) is a 503: the
    request was fine, the look-up was not possible."""
    try:
        yield
    except (sdk_exc.SDKException, ks_exc.ClientException) as err:
        LOG.warning("The cloud's APIs did not answer a resource check: %s", err)
        raise exception.ServiceUnavailable(service="The cloud's OpenStack API", reason=str(err))


class _Lookups:
    """The look-ups of one request on one Connection (the flavor list read once)."""

    def __init__(self, context):
        self.cloud = clients.OpenStackClients(context).cloud()
        self._flavors = None

    # image: Magnum's api_utils.get_openstack_resource + attr_validator.validate_image

    def image(self, ident):
        """The image by id, else by name.

        :raises: ImageNotFound, ImageNotAuthorized, Conflict
        """
        try:
            if utils.is_uuid_like(ident):
                return self.cloud.image.get_image(ident)
            matches = list(self.cloud.image.images(name=ident))
        except sdk_exc.NotFoundException:
            raise exception.ImageNotFound(image_id=ident)
        except sdk_exc.ForbiddenException:
            raise exception.ImageNotAuthorized(image_id=ident)
        if not matches:
            raise exception.ImageNotFound(image_id=ident)
        if len(matches) > 1:
            raise exception.Conflict(
                "Multiple 'images' exist with same name '%s'. Please use the resource id "
                "instead." % ident
            )
        return matches[0]

    def validate_image(self, ident):
        """The image, which must name its os_distro.

        :raises: ImageNotFound, ImageNotAuthorized, Conflict, OSDistroFieldNotFound
        """
        image = self.image(ident)
        if not image.os_distro:
            raise exception.OSDistroFieldNotFound(image_id=ident)
        return image

    # flavors: Nova's list, matched by name or id

    def flavor(self, ident):
        """:raises: FlavorNotFound"""
        if self._flavors is None:
            self._flavors = list(self.cloud.compute.flavors(details=True))
        for flavor in self._flavors:
            if ident in (flavor.name, flavor.id):
                return flavor
        raise exception.FlavorNotFound(flavor=ident)

    def validate_flavor(self, ident):
        self.flavor(ident)

    def validate_keypair(self, name):
        """:raises: KeyPairNotFound (404)"""
        try:
            self.cloud.compute.get_keypair(name)
        except sdk_exc.NotFoundException:
            raise exception.KeyPairNotFound(keypair=name)

    # networks and subnets: Neutron's lists, matched by name or id

    @staticmethod
    def _one(resources, ident, not_found, conflict):
        """The one of ``resources`` whose name or id is ``ident``."""
        found = [r for r in resources if ident in (r.name, r.id)]
        if not found:
            raise not_found
        if len(found) > 1:
            raise exception.Conflict(conflict % ident)
        return found[0]

    def validate_external_network(self, ident):
        """:raises: ExternalNetworkNotFound (a private network too), Conflict"""
        self._one(
            self.cloud.network.networks(is_router_external=True),
            ident,
            exception.ExternalNetworkNotFound(network=ident),
            "Multiple external networks exist with same name '%s'. Please use the external "
            "network ID instead.",
        )

    def validate_fixed_network(self, ident):
        """:raises: FixedNetworkNotFound, Conflict"""
        self._one(
            self.cloud.network.networks(),
            ident,
            exception.FixedNetworkNotFound(network=ident),
            "Multiple networks exist with same name '%s'. Please use the network ID instead.",
        )

    def validate_fixed_subnet(self, ident):
        """:raises: FixedSubnetNotFound, Conflict"""
        self._one(
            self.cloud.network.subnets(),
            ident,
            exception.FixedSubnetNotFound(subnet=ident),
            "Multiple subnets exist with same name '%s'. Please use the subnet ID instead.",
        )


# attribute -> check, in Magnum's order (its attr_validator.validators)
VALIDATORS = (
    ("image_id", _Lookups.validate_image),
    ("flavor_id", _Lookups.validate_flavor),
    ("master_flavor_id", _Lookups.validate_flavor),
    ("external_network_id", _Lookups.validate_external_network),
    ("fixed_network", _Lookups.validate_fixed_network),
    ("fixed_subnet", _Lookups.validate_fixed_subnet),
)


def image_for_driver(context, image_id):
    """(os_distro, magnum_driver property) of the image, for the driver check that
    precedes every other (Magnum's enforce_driver_supported): an image that cannot be
    looked up gives (None, None) there, and its own error in the checks after."""
    if not enabled():
        return CONF.unvalidated_image_os_distro, None
    try:
        with _cloud_errors():
            image = _Lookups(context).image(image_id)
    except exception.MagnumException:
        return None, None
    return image.os_distro, (image.properties or {}).get("magnum_driver")


def image_os_distro(context, image_id):
    """os_distro of the image (the template's cluster_distro).

    :raises: ImageNotFound, ImageNotAuthorized, Conflict, OSDistroFieldNotFound
    """
    if not enabled():
        return CONF.unvalidated_image_os_distro
    with _cloud_errors():
        return _Lookups(context).validate_image(image_id).os_distro


def validate_template_resources(context, template):
    """Image, flavors, external and fixed networks and subnet of a template (a dict),
    each when set (Magnum does not check a template's keypair)."""
    if not enabled():
        return
    with _cloud_errors():
        lookups = _Lookups(context)
        for attr, check in VALIDATORS:
            if template.get(attr) is not None:
                check(lookups, template[attr])


def validate_cluster_resources(context, cluster, template):
    """A cluster's checks: the root disk of its flavors (§9.3 step 10), then the
    template's checks with the cluster's value winning when set, then the cluster's
    keypair (step 11)."""
    if not enabled():
        return
    with _cloud_errors():
        lookups = _Lookups(context)
        _check_root_volumes(lookups, cluster, template)
        for attr, check in VALIDATORS:
            value = cluster.get(attr) or getattr(template, attr, None)
            if value is not None:
                check(lookups, value)
        if cluster.get("keypair") is not None:
            lookups.validate_keypair(cluster["keypair"])


def _check_root_volumes(lookups, cluster, template):
    """Without a boot volume (label boot_volume_size, else [cinder]
    default_boot_volume_size) a node boots from its flavor's disk, which must exist.

    Magnum 23 checks a flavor that is None too (400 ``Unable to find flavor None.`` for
    the null master_flavor_id OSC sends); magnum-lite skips an unset flavor, which then
    comes from the Heat template's default (docs/magnum-api.md §6.1)."""
    labels = cluster.get("labels") or {}
    size = labels.get("boot_volume_size", (template.labels or {}).get("boot_volume_size"))
    if size is None:
        size = CONF.cinder.default_boot_volume_size
    if str(size).strip() not in ("0", ""):
        return  # a boot volume (or a size the conductor's template rejects)
    for attr in FLAVORS:
        ident = cluster.get(attr)
        if ident is None:
            continue
        if not lookups.flavor(ident).disk:
            raise exception.FlavorZeroRootVolumeNotSupported(flavor=ident)
