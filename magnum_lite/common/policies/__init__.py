"""Magnum's policy defaults in code (entry point ``oslo.policy.policies``)."""

import itertools

from magnum_lite.common.policies import base, cluster, cluster_template, misc, nodegroup


def list_rules():
    return list(
        itertools.chain(
            base.list_rules(),
            cluster.list_rules(),
            cluster_template.list_rules(),
            nodegroup.list_rules(),
            misc.list_rules(),
        )
    )
