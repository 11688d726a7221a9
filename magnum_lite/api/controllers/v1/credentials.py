"""/v1/credentials/{cluster} (>= 1.12): rotate the cluster's credentials (a CALL)."""

import pecan
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite.api import validation
from magnum_lite.api.controllers import versions
from magnum_lite.api.controllers.v1 import types
from magnum_lite.common import policy


class CredentialsController(rest.RestController):
    @wsme_pecan.wsexpose(types.ClusterID, wtypes.text, status_code=202)
    def patch(self, cluster_ident):
        versions.require(pecan.request, "1.12")
        context = pecan.request.context
        cluster = validation.get_cluster(cluster_ident)
        policy.enforce(context, "credential:rotate", cluster.as_dict(), action="credential:rotate")
        pecan.request.rpcapi.credential_rotate(cluster)
        return types.ClusterID(cluster.uuid)
