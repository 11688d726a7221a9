"""simcloud-api in process (webtest) on an in-memory SQLite database, seeded."""

import logging

import pytest
import webtest

from simcloud.api import app as wsgi_app
from simcloud.cloud import injection
from simcloud.conf import CONF
from simcloud.db import api as db_api
from simcloud.identity import tokens
from tests.fixtures import services


class _Errors(logging.Handler):
    def __init__(self):
        super().__init__(level=logging.ERROR)
        self.records = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture
def simcloud():
    yield from _cloud("sqlite://")


@pytest.fixture
def simcloud_pg():
    """The same app on a PostgreSQL database of its own."""
    name, url = services.create_database()
    try:
        yield from _cloud(url)
    finally:
        services.drop_database(name)


def _cloud(url):
    CONF([], project="simcloud", default_config_files=[])
    CONF.set_override("password_hash_rounds", 4, group="identity")
    CONF.set_override("public_url", "http://simcloud.test", group="api")
    db_api.configure(url)
    db_api.create_schema()
    injection.forget()
    tokens.forget_cached()
    errors = _Errors()
    logging.getLogger("simcloud").addHandler(errors)
    try:
        cloud = Cloud(webtest.TestApp(wsgi_app.setup_app()))
        cloud.logged_errors = errors.records
        yield cloud
        # a traceback logged by the app fails the test (one that expects some clears them)
        assert not errors.records, [r.getMessage() for r in errors.records]
    finally:
        logging.getLogger("simcloud").removeHandler(errors)
        injection.forget()
        db_api.dispose()
        CONF.reset()


class Cloud:
    """The app, and tokens of the seeded users."""

    def __init__(self, app):
        self.app = app
        self._tokens = {}

    def auth_body(self, user, password="password", project=None):
        identity = {
            "methods": ["password"],
            "password": {"user": {"name": user, "domain": {"id": "default"}, "password": password}},
        }
        body = {"auth": {"identity": identity}}
        if project:
            body["auth"]["scope"] = {"project": {"name": project, "domain": {"id": "default"}}}
        return body

    def token(self, user="admin", project=None):
        key = (user, project)
        if key not in self._tokens:
            resp = self.app.post_json(
                "/identity/v3/auth/tokens", self.auth_body(user, project=project or user)
            )
            self._tokens[key] = resp.headers["X-Subject-Token"]
        return self._tokens[key]

    def request(self, method, path, body=None, user="admin", status=None, headers=None):
        headers = dict(headers or {}, **{"X-Auth-Token": self.token(user)})
        kwargs = {"headers": headers, "expect_errors": True}
        if body is not None:
            resp = getattr(self.app, method.lower() + "_json")(path, body, **kwargs)
        else:
            resp = getattr(self.app, method.lower())(path, **kwargs)
        if status is not None:
            assert resp.status_int == status, resp.text
        return resp

    def get(self, path, **kw):
        return self.request("GET", path, **kw)

    def post(self, path, body, **kw):
        return self.request("POST", path, body, **kw)

    def put(self, path, body, **kw):
        return self.request("PUT", path, body, **kw)

    def delete(self, path, **kw):
        return self.request("DELETE", path, **kw)
