"""/v1/stats (>= 1.4): number of clusters and of nodes (every nodegroup's node_count)."""

import pecan
from pecan import rest
from wsme import types as wtypes
from wsmeext import pecan as wsme_pecan

from magnum_lite import objects
from magnum_lite.api.controllers import versions
from magnum_lite.common import exception, policy


class Stats(wtypes.Base):
    clusters = wtypes.IntegerType(minimum=0)
    nodes = wtypes.IntegerType(minimum=0)


class StatsController(rest.RestController):
    @wsme_pecan.wsexpose(Stats, wtypes.text, wtypes.text)
    def get_all(self, project_id=None, type="cluster"):
        versions.require(pecan.request, "1.4")
        context = pecan.request.context
        policy.enforce(context, "stats:get_all", action="stats:get_all")
        if type != "cluster":
            raise exception.InvalidParameterValue(err="Invalid stats type: %s" % type)
        if not context.is_admin:
            if project_id and project_id != context.project_id:
                raise exception.NotAuthorized()
            project_id = context.project_id
        clusters, nodes = objects.Cluster.get_stats(context, project_id)
        return Stats(clusters=clusters, nodes=nodes)
