"""A stack whose delete completed but whose row stayed live (the nested-stack credentials
bug left such stacks on PostgreSQL): deleting it again answers 404 and soft-deletes it, as
Heat's delete_stack retries purge_db.

A delete whose stack changed traversal between the engine's load and its compare-and-swap
still starts: after purge_db cleared a failed stack's traversal (the delete of a
CREATE_FAILED stack was dropped with a 204 while the machine was loaded), and after
another traversal started (the delete supersedes it).
"""

import time

import pytest
import sqlalchemy as sa

from heat_lite.common import exception
from heat_lite.db import api as db_api
from heat_lite.engine import stack_loader
from tests.fixtures import inprocess

pytestmark = pytest.mark.functional

GROUP = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "a": {
            "type": "OS::Heat::ResourceGroup",
            "properties": {"count": 2, "resource_def": {"type": "OS::Heat::None"}},
        }
    },
}


def test_deleting_a_stranded_deleted_stack_soft_deletes_it(tmp_path):
    with inprocess.heat(tmp_path) as heat:
        ident = heat.client.create_stack(heat.ctx, "grp", GROUP, {}, {}, {})
        inprocess.wait_for_status(heat, ident, {"CREATE_COMPLETE"})
        heat.client.delete_stack(heat.ctx, ident)
        inprocess.wait_for_status(heat, ident, {"DELETE_COMPLETE"})
        deadline = time.monotonic() + 10
        while heat.client.list_stacks(heat.ctx):
            assert time.monotonic() < deadline
            time.sleep(0.02)
        # stranded as the old purge left it: live row, its credentials still there (made
        # again while the delete's own tidy-up is still marking it deleted: on a loaded
        # machine that can land after the stack has left the list)
        creds = db_api.user_creds_create(heat.ctx)
        while True:
            db_api.stack_update(ident["stack_id"], {"deleted_at": None, "user_creds_id": creds})
            time.sleep(0.2)
            listed = [s["stack_name"] for s in heat.client.list_stacks(heat.ctx)]
            if listed or time.monotonic() > deadline + 5:
                break
        assert listed == ["grp"]

        with pytest.raises(exception.EntityNotFound):
            heat.client.delete_stack(heat.ctx, ident)
        while heat.client.list_stacks(heat.ctx):
            assert time.monotonic() < deadline + 10
            time.sleep(0.02)
        with db_api.transaction() as conn:
            assert (
                conn.execute(sa.select(sa.func.count()).select_from(db_api.T_CREDS)).scalar() == 0
            )


FAILING = {
    "heat_template_version": "2018-08-31",
    "resources": {"bad": {"type": "OS::Heat::TestResource", "properties": {"fail": True}}},
}


def _after_first_load(monkeypatch, change):
    """The engine's next stack load is followed by ``change(stack_id)`` written to the
    database, as a concurrent traversal or tidy-up would in between."""
    original = stack_loader.load_stack
    pending = [change]

    def load(cnxt, stack_identity, show_deleted=False):
        stack = original(cnxt, stack_identity, show_deleted)
        if pending:
            pending.pop()(stack.id)
        return stack

    monkeypatch.setattr(stack_loader, "load_stack", load)


def test_delete_after_purge_cleared_the_failed_traversal(tmp_path, monkeypatch):
    with inprocess.heat(tmp_path) as heat:
        ident = heat.client.create_stack(heat.ctx, "bad", FAILING, {}, {}, {})
        inprocess.wait_for_status(heat, ident, {"CREATE_FAILED"})
        # the delete loads the stack just before purge_db clears its failed traversal
        db_api.stack_update(ident["stack_id"], {"current_traversal": "the failed one"})
        _after_first_load(
            monkeypatch,
            lambda stack_id: db_api.stack_update(stack_id, {"current_traversal": ""}),
        )
        heat.client.delete_stack(heat.ctx, ident)
        inprocess.wait_for(heat, ident, "DELETE_COMPLETE")


def test_delete_supersedes_a_traversal_started_after_its_load(tmp_path, monkeypatch):
    with inprocess.heat(tmp_path) as heat:
        ident = heat.client.create_stack(heat.ctx, "grp", GROUP, {}, {}, {})
        inprocess.wait_for_status(heat, ident, {"CREATE_COMPLETE"})
        started = {"action": "UPDATE", "status": "IN_PROGRESS", "current_traversal": "other"}
        _after_first_load(monkeypatch, lambda stack_id: db_api.stack_update(stack_id, started))
        heat.client.delete_stack(heat.ctx, ident)
        inprocess.wait_for(heat, ident, "DELETE_COMPLETE")
