"""magnum-lite-api's stand-in for pecan.compat.getargspec answers as pecan's does."""

import pecan.compat
import pytest

from magnum_lite.api import app
from magnum_lite.api.controllers import root
from magnum_lite.api.controllers.v1 import cluster, cluster_template, nodegroup


@pytest.mark.parametrize(
    "func",
    [
        cluster.ClustersController().get_all,
        cluster.ClustersController().get_one,
        cluster.ClustersController().post,
        cluster_template.ClusterTemplatesController().patch,
        nodegroup.NodeGroupController().get_all,
        root.RootController()._route,
        lambda a, *rest, b=1, **kw: None,
    ],
)
def test_same_argspec_as_pecan(func):
    assert app._getargspec(func) == pecan.compat.getargspec(func)
    assert app._getargspec(func)._fields == ("args", "varargs", "keywords", "defaults")
