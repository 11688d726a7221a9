"""Each service's database API on the real PostgreSQL (and SQLite): its connections run in
autocommit mode and ``transaction()`` sends BEGIN itself, so what a block writes commits
together, a block that raises leaves nothing, and no connection goes back to the pool
inside a transaction (the driver would not roll it back on its own)."""

import pytest
import sqlalchemy as sa

from heat_lite.db import api as heat_db
from magnum_lite.db import api as magnum_db
from simcloud.db import api as simcloud_db
from tests.fixtures import services

pytestmark = pytest.mark.functional

SCRATCH = sa.Table("scratch", sa.MetaData(), sa.Column("id", sa.Integer, primary_key=True))


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def url(request, tmp_path_factory):
    if request.param == "sqlite":
        yield "sqlite:///%s" % (tmp_path_factory.mktemp("db") / "scratch.sqlite")
        return
    name, url = services.create_database()
    try:
        yield url
    finally:
        services.drop_database(name)


@pytest.fixture(params=[heat_db, magnum_db, simcloud_db], ids=["heat", "magnum", "simcloud"])
def db(request, url):
    api = request.param
    engine = api.configure(url, max_pool_size=1, max_overflow=0)
    SCRATCH.create(engine)
    yield api
    SCRATCH.drop(engine)
    api.dispose()


def _ids(api):
    with api.transaction() as conn:
        return [row.id for row in conn.execute(sa.select(SCRATCH.c.id).order_by(SCRATCH.c.id))]


def test_a_transaction_commits_its_statements_together(db):
    with db.transaction() as conn:
        conn.execute(SCRATCH.insert().values(id=1))
        conn.execute(SCRATCH.insert().values(id=2))
    assert _ids(db) == [1, 2]


def test_a_block_that_raises_leaves_nothing(db):
    with pytest.raises(RuntimeError):
        with db.transaction() as conn:
            conn.execute(SCRATCH.insert().values(id=1))
            raise RuntimeError("abandon")
    assert _ids(db) == []


def test_after_a_failed_statement_the_pooled_connection_works(db):
    with pytest.raises(sa.exc.IntegrityError):
        with db.transaction() as conn:
            conn.execute(SCRATCH.insert().values(id=1))
            conn.execute(SCRATCH.insert().values(id=1))
    # the pool's one connection: a new transaction on it commits
    with db.transaction() as conn:
        conn.execute(SCRATCH.insert().values(id=3))
    assert _ids(db) == [3]


def test_others_see_what_a_transaction_wrote_once_it_commits(db):
    engine = db.get_engine()
    with db.transaction() as conn:
        conn.execute(SCRATCH.insert().values(id=1))
        if engine.dialect.name == "postgresql":
            # another connection does not see it until COMMIT
            other = sa.create_engine(engine.url)
            with other.connect() as peek:
                assert peek.execute(sa.select(SCRATCH.c.id)).all() == []
            other.dispose()
    assert _ids(db) == [1]
