"""heat-lite-api on top of the real engine, all in this process (SQLite, ``fake://``).

The tests of this directory run the API with the real EngineService and WorkerService
(tests/fixtures/inprocess.py) instead of the parent directory's FakeEngine; the
fixtures ``wsgi_app`` and ``api`` are overridden here accordingly:

    def test_x(api):                    # webtest.TestApp over setup_app(engine_client=...)
        api.get('/v1/admin/template_versions')

    def test_y(endpoint):               # the same app served over HTTP on a free port
        heatclient.Client('1', endpoint=endpoint, token='x')

The engine is started once per test module (start-up runs the migrations).
"""

import pytest
import webtest

from heat_lite.api import app as api_app
from heat_lite.common import policy
from tests.fixtures import inprocess
from tests.functional.heat_lite.api_engine.helpers import serve


@pytest.fixture(scope="module")
def heat(tmp_path_factory):
    with inprocess.heat(tmp_path_factory.mktemp("heat")) as h:
        policy.reset()
        yield h
        policy.reset()


@pytest.fixture(scope="module")
def wsgi_app(heat):
    return api_app.setup_app(engine_client=heat.client)


@pytest.fixture
def api(wsgi_app):
    return webtest.TestApp(wsgi_app)


@pytest.fixture(scope="module")
def endpoint(wsgi_app):
    with serve(wsgi_app) as url:
        yield url
