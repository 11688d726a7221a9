"""A project's cluster quota holds under parallel creates (issue 29: 20 creates side by
side against a quota of 3 made 20 clusters, as Magnum 22's do): the database counts and
inserts under the project's lock, the API's early check is only Magnum's first answer.

magnum-lite-api in process on PostgreSQL (and SQLite), 20 requests in 20 threads. Every
request is held after its early quota check until all 20 have passed it (a barrier in
the step that follows it), so the race the early check alone loses is run every time.
"""

import threading

import pytest
import sqlalchemy as sa
import webtest

from magnum_lite import objects
from magnum_lite.api import app as api_app
from magnum_lite.api import validation
from magnum_lite.common import context
from magnum_lite.conf import CONF
from magnum_lite.db import api as db_api
from tests.functional.magnum_lite import fixtures
from tests.functional.magnum_lite.conftest import headers

pytestmark = pytest.mark.functional

PARALLEL = 20
QUOTA = 3
MESSAGE = (
    "Resource limit exceeded: You have reached the maximum clusters per project, 3. You may "
    "delete a cluster to make room for a new one."
)


@pytest.fixture(params=["postgresql", "sqlite"])
def api(request):
    request.getfixturevalue("magnum_conf_pg" if request.param == "postgresql" else "magnum_conf")
    return webtest.TestApp(api_app.setup_app())


@pytest.fixture
def all_past_the_early_check(monkeypatch):
    """Each create waits, after Magnum's early quota check, for the others to pass it."""
    barrier = threading.Barrier(PARALLEL)
    check_master_lb = validation.check_master_lb

    def held(values, master_count):
        barrier.wait(timeout=120)
        return check_master_lb(values, master_count)

    monkeypatch.setattr(validation, "check_master_lb", held)
    return barrier


def _create_in_parallel(api, project):
    results = [None] * PARALLEL

    def create(i):
        results[i] = api.post_json(
            "/v1/clusters",
            {"cluster_template_id": "ct", "name": "c%d" % i},
            headers=headers(project),
            expect_errors=True,
        )

    threads = [threading.Thread(target=create, args=(i,)) for i in range(PARALLEL)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def test_parallel_creates_stop_at_the_projects_quota(api, all_past_the_early_check):
    fixtures.template("p1", name="ct")
    objects.Quota(
        context.get_admin_context(), project_id="p1", resource="Cluster", hard_limit=QUOTA
    ).create()
    results = _create_in_parallel(api, "p1")
    assert not all_past_the_early_check.broken  # every request passed the early check
    accepted = [r for r in results if r.status_int == 202]
    refused = [r for r in results if r.status_int != 202]
    assert len(accepted) == QUOTA, [r.status for r in results]
    for r in refused:
        assert r.status_int == 403, r.body
        assert r.json == {
            "errors": [
                {
                    "request_id": "",
                    "code": "client",
                    "status": 403,
                    "title": MESSAGE.split(".", 1)[0],
                    "detail": MESSAGE,
                    "links": [],
                }
            ]
        }
    admin = context.get_admin_context()
    stored = objects.Cluster.list(admin)
    assert sorted(c.uuid for c in stored) == sorted(r.json["uuid"] for r in accepted)
    # no row of a refused create: each accepted one has its master and worker nodegroups
    with db_api.transaction() as conn:
        count = sa.select(sa.func.count()).select_from(db_api.T_NG)
        assert conn.execute(count).scalar_one() == 2 * QUOTA


def test_the_default_quota_is_counted_per_project(api, all_past_the_early_check):
    """No quotas row: ``[quotas] max_clusters_per_project``; another project's clusters do
    not count."""
    CONF.set_override("max_clusters_per_project", QUOTA, group="quotas")
    template = fixtures.template("p1", name="ct")
    fixtures.cluster(template, "p2", name="theirs")
    results = _create_in_parallel(api, "p1")
    assert sorted(r.status_int for r in results) == [202] * QUOTA + [403] * (PARALLEL - QUOTA)
    assert len(objects.Cluster.list(context.get_admin_context())) == QUOTA + 1
