"""Magnum's exception tree: one class per error, each with its message format and HTTP code.

    raise exception.ClusterNotFound(cluster='c1')   # 404 "Cluster c1 could not be found."

The classes cross RPC (``magnum_lite.common.rpc.ALLOWED_EXMODS``), so an error raised in
the conductor during a synchronous call reaches the API, and the HTTP answer, as itself.
"""

import functools
import logging

from keystoneauth1 import exceptions as ka_exception

LOG = logging.getLogger(__name__)


class MagnumException(Exception):
    """Base exception: ``_msg_fmt`` is %-formatted with the keyword arguments."""

    _msg_fmt = "An unknown exception occurred."
    code = 500
    safe = True

    def __init__(self, message=None, **kwargs):
        self.kwargs = kwargs
        if "code" not in kwargs:
            self.kwargs["code"] = self.code
        if message is None:
            try:
                message = self._msg_fmt % kwargs
            except (KeyError, TypeError):
                LOG.exception("Exception in string format operation, kwargs: %s", kwargs)
                message = self._msg_fmt
        self.message = str(message)
        super().__init__(self.message)

    def __str__(self):
        return self.message

    def format_message(self):
        return self.message


class ObjectNotFound(MagnumException):
    _msg_fmt = "The %(name)s %(id)s could not be found."
    code = 404


class ResourceNotFound(ObjectNotFound):
    _msg_fmt = "The %(name)s resource %(id)s could not be found."


class Invalid(MagnumException):
    _msg_fmt = "Unacceptable parameters."
    code = 400


class InvalidParameterValue(Invalid):
    _msg_fmt = "%(err)s"


class InvalidUUID(Invalid):
    _msg_fmt = "Expected a uuid but received %(uuid)s."


class InvalidName(Invalid):
    _msg_fmt = "Expected a name but received %(name)s."


class InvalidUuidOrName(Invalid):
    _msg_fmt = "Expected a name or uuid but received %(uuid)s."


class InvalidCsr(Invalid):
    _msg_fmt = "Received invalid csr %(csr)s."


class InvalidVersion(Invalid):
    _msg_fmt = "Invalid version: %(version)s."


class PatchError(Invalid):
    _msg_fmt = "Couldn't apply patch '%(patch)s'. Reason: %(reason)s"


class Conflict(MagnumException):
    _msg_fmt = "Conflict."
    code = 409


class InvalidState(Conflict):
    _msg_fmt = "Invalid resource state."


class NotAuthorized(MagnumException):
    _msg_fmt = "Not authorized."
    code = 403


class PolicyNotAuthorized(NotAuthorized):
    _msg_fmt = "Policy doesn't allow %(action)s to be performed."


class ResourceLimitExceeded(NotAuthorized):
    _msg_fmt = "Resource limit exceeded: %(msg)s"


class ImageNotAuthorized(NotAuthorized):
    _msg_fmt = "Not authorized for image %(image_id)s."


class ClusterTemplatePublishDenied(NotAuthorized):
    _msg_fmt = "Not authorized to set public or hidden flag for cluster template."


class NotSupported(MagnumException):
    _msg_fmt = "%(operation)s is not supported."
    code = 400


class ClusterTypeNotSupported(NotSupported):
    _msg_fmt = (
        "Cluster type (%(server_type)s, %(os)s, %(coe)s) is not supported by any loaded "
        "cluster driver. Loaded drivers support: %(supported)s."
    )


class CreateMasterNodeGroup(NotSupported):
    _msg_fmt = "Creating master nodegroups is currently not supported."


class DeletingDefaultNGNotSupported(NotSupported):
    _msg_fmt = "Deleting a default nodegroup is not supported."


class MasterNGResizeNotSupported(NotSupported):
    _msg_fmt = "Resizing a master nodegroup is not supported."


class MasterNGSizeInvalid(InvalidParameterValue):
    _msg_fmt = (
        "master nodegroup size of %(requested_size)s is invalid, size cannot be an even number."
    )


class ZeroNodeCountNotSupported(InvalidParameterValue):
    _msg_fmt = "Resizing a nodegroup to zero is not supported in the provided microversion."


class NGResizeOutBounds(Invalid):
    _msg_fmt = (
        "Resizing %(nodegroup)s outside the allowed range: min_node_count = %(min_nc)s, "
        "max_node_count = %(max_nc)s"
    )


class FlavorZeroRootVolumeNotSupported(InvalidParameterValue):
    _msg_fmt = (
        "Flavor %(flavor)s has no root disk; specify the boot_volume_size label or set "
        "[cinder] default_boot_volume_size."
    )


class OperationInProgress(Invalid):
    _msg_fmt = "Cluster %(cluster_name)s already has an operation in progress."


class ClusterTemplateReferenced(Invalid):
    _msg_fmt = "ClusterTemplate %(clustertemplate)s is referenced by one or multiple clusters."


class ClusterNotFound(ResourceNotFound):
    _msg_fmt = "Cluster %(cluster)s could not be found."


class ClusterAlreadyExists(Conflict):
    _msg_fmt = "A cluster with UUID %(uuid)s already exists."


class ClusterTemplateNotFound(ResourceNotFound):
    _msg_fmt = "ClusterTemplate %(clustertemplate)s could not be found."


class ClusterTemplateAlreadyExists(Conflict):
    _msg_fmt = "A ClusterTemplate with UUID %(uuid)s already exists."


class NodeGroupNotFound(ResourceNotFound):
    _msg_fmt = "Nodegroup %(nodegroup)s could not be found."


class NodeGroupAlreadyExists(Conflict):
    _msg_fmt = "A node group with name %(name)s already exists in the cluster %(cluster_id)s."


class NodeGroupInvalidInput(Conflict):
    _msg_fmt = "%(attr)s for %(nodegroup)s is invalid (%(expl)s)."


class ClusterAPIAddressUnavailable(Conflict):
    _msg_fmt = (
        "Cluster API address is not available yet, make sure the cluster status is in "
        "CREATE_COMPLETE or UPDATE_COMPLETE."
    )


class InvalidClusterTemplateForUpgrade(Conflict):
    _msg_fmt = "Cluster Template is not valid for upgrade: %(reason)s"


class QuotaNotFound(ResourceNotFound):
    _msg_fmt = "Quota %(msg)s could not be found."


class QuotaAlreadyExists(Conflict):
    _msg_fmt = "Quota for project %(project_id)s already exists for resource %(resource)s."


class ProjectNotFound(ResourceNotFound):
    _msg_fmt = "Project %(name)s could not be found."


class MagnumServiceNotFound(ResourceNotFound):
    _msg_fmt = "A magnum service %(magnum_service_id)s could not be found."


class MagnumServiceAlreadyExists(Conflict):
    _msg_fmt = "A magnum service with ID %(id)s already exists."


class X509KeyPairNotFound(ResourceNotFound):
    _msg_fmt = "A key pair %(x509keypair)s could not be found."


class X509KeyPairAlreadyExists(Conflict):
    _msg_fmt = "A key pair with UUID %(uuid)s already exists."


class ImageNotFound(ResourceNotFound):
    _msg_fmt = "Image %(image_id)s could not be found."
    code = 400


class OSDistroFieldNotFound(ResourceNotFound):
    _msg_fmt = "Image %(image_id)s doesn't contain os_distro field."
    code = 400


class FlavorNotFound(ResourceNotFound):
    _msg_fmt = "Unable to find flavor %(flavor)s."
    code = 400


class KeyPairNotFound(ResourceNotFound):
    _msg_fmt = "Unable to find keypair %(keypair)s."


class ExternalNetworkNotFound(ResourceNotFound):
    _msg_fmt = "Unable to find external network %(network)s."
    code = 400


class FixedNetworkNotFound(ResourceNotFound):
    _msg_fmt = "Unable to find fixed network %(network)s."
    code = 400


class FixedSubnetNotFound(ResourceNotFound):
    _msg_fmt = "Unable to find fixed subnet %(subnet)s."
    code = 400


class CertificatesToClusterFailed(MagnumException):
    _msg_fmt = "Failed to create certificates for Cluster: %(cluster_uuid)s"


class CertificateStorageException(MagnumException):
    _msg_fmt = "Could not store certificate: %(msg)s"


class CertificateValidationError(Invalid):
    _msg_fmt = "Extension '%(extension)s' not allowed"


class TrusteeOrTrustToClusterFailed(MagnumException):
    _msg_fmt = "Failed to create trustee or trust for Cluster: %(cluster_uuid)s"


class AuthorizationFailure(MagnumException):
    _msg_fmt = "%(client)s connection failed. %(message)s"


def wrap_keystone_exception(func):
    """Keystone's failures inside ``func`` (building a client: its session authenticates)
    as AuthorizationFailure, as Magnum's decorator of the same name: e.g. a cluster's
    trustee logging into a trust deleted outside Magnum gives "heat connection failed.
    unexpected keystone client error occurred: Could not find trust: <id>. (HTTP 404)"."""

    @functools.wraps(func)
    def wrapped(*args, **kwargs):
        try:
            return func(*args, **kwargs)
        except ka_exception.AuthorizationFailure as exc:
            raise AuthorizationFailure(client=func.__name__, message="reason: %s" % exc)
        except ka_exception.ClientException as exc:
            raise AuthorizationFailure(
                client=func.__name__,
                message="unexpected keystone client error occurred: %s" % exc,
            )

    return wrapped


class TrusteeCreateFailed(MagnumException):
    _msg_fmt = "Failed to create trustee %(username)s in domain %(domain_id)s"


class TrustCreateFailed(MagnumException):
    _msg_fmt = "Failed to create trust for trustee %(trustee_user_id)s."


class ConfigInvalid(Invalid):
    _msg_fmt = "Invalid configuration file. %(error_msg)s"


class ServiceUnavailable(MagnumException):
    _msg_fmt = "%(service)s is unavailable: %(reason)s"
    code = 503


class InvalidIdentity(Invalid):
    _msg_fmt = "Expected an uuid or int but received %(identity)s."
