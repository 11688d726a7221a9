"""simcloud's alembic branch: one base, one head, and the schema it builds is the models'."""

import pytest
import sqlalchemy as sa
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from simcloud.cmd import manage
from simcloud.db import models

pytestmark = pytest.mark.functional


def test_single_base_and_head():
    script = ScriptDirectory.from_config(manage.alembic_config("sqlite://"))
    assert len(script.get_bases()) == 1
    assert len(script.get_heads()) == 1


def test_upgrade_matches_models(tmp_path):
    url = "sqlite:///%s" % (tmp_path / "simcloud.sqlite")
    from alembic import command

    command.upgrade(manage.alembic_config(url), "head")
    engine = sa.create_engine(url)
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), models.Base.metadata)
    engine.dispose()
    # Json columns are TEXT in the migration: the same column type in the database
    assert [d for d in diff if d[0] != "modify_type"] == []
