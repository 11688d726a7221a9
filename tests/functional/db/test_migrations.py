"""The alembic history: one base, one head, and the migrated schema equals the models,
on SQLite and on the real PostgreSQL."""

import pytest
import sqlalchemy as sa
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory

from alembic import autogenerate, command
from heat_lite.cmd import manage
from heat_lite.db import models
from tests.fixtures import services

pytestmark = pytest.mark.functional


def _script():
    return ScriptDirectory.from_config(manage.alembic_config("sqlite://"))


def test_single_base_and_head():
    script = _script()
    assert len(script.get_bases()) == 1
    assert len(script.get_heads()) == 1


def _diff(url):
    manage.db_sync(url)
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            context = MigrationContext.configure(conn, opts={"compare_type": False})
            return autogenerate.compare_metadata(context, models.Base.metadata)
    finally:
        engine.dispose()


def test_models_match_migrations_on_sqlite(tmp_path):
    assert _diff("sqlite:///%s" % (tmp_path / "m.sqlite")) == []


def test_models_match_migrations_on_postgresql():
    name, url = services.create_database()
    try:
        assert _diff(url) == []
    finally:
        services.drop_database(name)


def _sync_point_options(url):
    engine = sa.create_engine(url)
    try:
        with engine.connect() as conn:
            return conn.execute(
                sa.text("SELECT reloptions FROM pg_class WHERE relname = 'sync_point'")
            ).scalar()
    finally:
        engine.dispose()


def test_sync_point_pages_keep_room_for_row_versions():
    """Migrated or created from the models, PostgreSQL's sync_point is filled to 20 %
    (alembic 0007), and a downgrade gives the default back."""
    name, url = services.create_database()
    try:
        manage.db_sync(url)
        assert _sync_point_options(url) == ["fillfactor=20"]
        command.downgrade(manage.alembic_config(url), "0006")
        assert _sync_point_options(url) is None
    finally:
        services.drop_database(name)
    name, url = services.create_database()
    try:
        engine = sa.create_engine(url)
        models.Base.metadata.create_all(engine)
        engine.dispose()
        assert _sync_point_options(url) == ["fillfactor=20"]
    finally:
        services.drop_database(name)
