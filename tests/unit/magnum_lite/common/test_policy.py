import pytest

from magnum_lite.common import context, exception, policies, policy

pytestmark = pytest.mark.unit


def _ctx(roles, project="p1"):
    return context.RequestContext(user_id="u1", project_id=project, roles=roles)


def test_magnum_rule_names_registered():
    names = {r.name for r in policies.list_rules()}
    for name in (
        "cluster:create",
        "cluster:get_one_all_projects",
        "clustertemplate:publish",
        "nodegroup:get_all",
        "quota:get",
        "certificate:rotate_ca",
        "credential:rotate",
        "stats:get_all",
        "magnum-service:get_all",
    ):
        assert name in names


def test_member_creates_reader_reads(magnum_db):
    assert policy.enforce(_ctx(["member"]), "cluster:create")
    assert policy.enforce(_ctx(["reader"]), "cluster:get_all")
    with pytest.raises(exception.PolicyNotAuthorized) as err:
        policy.enforce(_ctx(["reader"]), "cluster:create")
    assert str(err.value) == "Policy doesn't allow cluster:create to be performed."


def test_other_project_target_denied(magnum_db):
    target = {"project_id": "p2", "user_id": "u2"}
    assert not policy.enforce(_ctx(["member", "reader"]), "cluster:get", target, do_raise=False)
    assert policy.enforce(_ctx(["admin"]), "cluster:get", target)


def test_exception_formats():
    err = exception.ClusterNotFound(cluster="c1")
    assert (str(err), err.code) == ("Cluster c1 could not be found.", 404)
    assert exception.MasterNGSizeInvalid(requested_size=2).code == 400
    assert exception.NodeGroupInvalidInput(attr="a", nodegroup="n", expl="e").code == 409
