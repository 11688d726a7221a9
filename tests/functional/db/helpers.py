"""Shortcuts of the db-layer tests."""

import sqlalchemy as sa

from heat_lite.db import api as db_api


def count_rows(table):
    with db_api.transaction() as conn:
        return conn.execute(sa.select(sa.func.count()).select_from(table)).scalar()


def make_stack(stack_id, name=None, tenant="p1", owner_id=None, user_creds_id=None, **values):
    """A stack row on a template of its own (the tests' shared shortcut)."""
    template_id = db_api.raw_template_create({"heat_template_version": "2016-10-14"}, {})
    db_api.stack_create(
        dict(
            {
                "id": stack_id,
                "name": name or stack_id,
                "raw_template_id": template_id,
                "tenant": tenant,
                "owner_id": owner_id,
                "user_creds_id": user_creds_id,
                "disable_rollback": True,
            },
            **values,
        )
    )
    return template_id
