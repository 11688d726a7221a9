"""The software config and deployment queries (heat_lite.db.software): Heat's tenant
checks, the config a deployment still uses, the server's live resource."""

import pytest

from heat_lite.common import exception
from heat_lite.db import api as db_api
from heat_lite.db import software
from tests.functional.db import helpers

pytestmark = pytest.mark.functional


def _config(tenant="p1", name="c"):
    return software.software_config_create(
        {"name": name, "group": "script", "config": {"config": "echo"}, "tenant": tenant}
    )


def _deployment(config_id, tenant="p1", server_id="srv", **values):
    return software.software_deployment_create(
        dict(
            {"config_id": config_id, "server_id": server_id, "tenant": tenant, "action": "INIT"},
            **values,
        ),
        tenant=tenant,
    )


def test_configs_are_their_projects(db):
    mine, theirs = _config(), _config(tenant="p2")
    assert software.software_config_get(mine.id, "p1").name == "c"
    with pytest.raises(exception.NotFound, match="Software config with id %s" % theirs.id):
        software.software_config_get(theirs.id, "p1")
    assert [c.id for c in software.software_config_get_all("p1")] == [mine.id]
    assert len(software.software_config_get_all(None)) == 2


def test_a_config_in_use_cannot_be_deleted(db):
    config = _config()
    deployment = _deployment(config.id)
    with pytest.raises(exception.InvalidRestrictedAction, match="can not be deleted"):
        software.software_config_delete(config.id, "p1")
    software.software_deployment_delete(deployment.id, "p1")
    software.software_config_delete(config.id, "p1")
    assert software.software_config_get_all(None) == []


def test_deployments_are_their_projects_or_their_stack_users(db):
    config = _config()
    mine = _deployment(config.id, stack_user_project_id="sup")
    assert mine.config_name == "c"
    with pytest.raises(exception.NotFound):
        _deployment(config.id, tenant="p2")  # another project's config
    assert [d.id for d in software.software_deployment_get_all("sup", server_id="srv")] == [mine.id]
    assert software.software_deployment_get_all("p2") == []
    updated = software.software_deployment_update(mine.id, {"status": "COMPLETE"}, "p1")
    assert updated.status == "COMPLETE"
    with pytest.raises(exception.NotFound):
        software.software_deployment_delete(mine.id, "p2")


def test_server_resource_is_the_live_row_of_the_server(db):
    helpers.make_stack("s1")
    _, new = db_api.resource_create_many(
        [
            {"name": "srv", "stack_id": "s1", "nova_instance": "x", "action": "DELETE"},
            {"name": "srv", "stack_id": "s1", "nova_instance": "x", "action": "CREATE"},
        ]
    )
    assert software.server_resource_get("x").id == new
    assert software.server_resource_get("y") is None
