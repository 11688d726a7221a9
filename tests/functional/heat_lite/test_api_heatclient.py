"""The real python-heatclient (plain HTTPClient, no Keystone) against heat-lite-api over HTTP."""

import threading
import wsgiref.simple_server

import pytest
from heatclient import client as heat_client
from heatclient import exc as heat_exc
from keystoneauth1 import noauth as ks_noauth
from keystoneauth1 import session as ks_session

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "parameters": {"p": {"type": "string", "default": "x"}},
    "resources": {"r": {"type": "OS::Heat::None"}},
}


class _QuietHandler(wsgiref.simple_server.WSGIRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def endpoint(wsgi_app):
    server = wsgiref.simple_server.make_server(
        "127.0.0.1", 0, wsgi_app, handler_class=_QuietHandler
    )
    thread = threading.Thread(
        target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
    )
    thread.start()
    yield "http://127.0.0.1:%d/v1/admin" % server.server_port
    server.shutdown()
    thread.join()
    server.server_close()


def test_heatclient_stack_lifecycle(endpoint, engine):
    heat = heat_client.Client("1", endpoint=endpoint, token="x")

    created = heat.stacks.create(stack_name="hc1", template=TEMPLATE, parameters={"p": "y"})
    stack_id = created["stack"]["id"]

    assert [s.stack_name for s in heat.stacks.list()] == ["hc1"]

    for key in ("hc1", stack_id):  # both follow the 302 to /stacks/hc1/<id>
        stack = heat.stacks.get(key)
        assert stack.id == stack_id
        assert stack.stack_status == "CREATE_COMPLETE"
        assert stack.parameters["p"] == "y"

    resources = heat.resources.list("hc1")
    assert [(r.resource_name, r.resource_status) for r in resources] == [("r", "CREATE_COMPLETE")]
    assert heat.resources.get("hc1", "r").attributes == {"value": "v-r"}

    events = heat.events.list("hc1")
    assert {e.resource_name for e in events} == {"hc1", "r"}
    assert [e.resource_status for e in heat.events.list("hc1", resource_name="r")] == [
        "CREATE_IN_PROGRESS",
        "CREATE_COMPLETE",
    ]

    heat.stacks.delete("hc1")  # DELETE -> 302 -> DELETE /stacks/hc1/<id>
    assert list(heat.stacks.list()) == []
    with pytest.raises(heat_exc.HTTPNotFound) as err:
        heat.stacks.get("hc1")
    assert "The Stack (hc1) could not be found." in str(err.value)


def test_heatclient_reports_heat_errors(endpoint, engine):
    heat = heat_client.Client("1", endpoint=endpoint, token="x")
    heat.stacks.create(stack_name="dup", template=TEMPLATE)
    with pytest.raises(heat_exc.HTTPConflict) as err:
        heat.stacks.create(stack_name="dup", template=TEMPLATE)
    assert "The Stack (dup) already exists." in str(err.value)


def test_heatclient_session_mode(endpoint, engine):
    """As OSC does with --os-auth-type none: keystoneauth follows the 302s itself."""
    sess = ks_session.Session(auth=ks_noauth.NoAuth(endpoint=endpoint))
    heat = heat_client.Client(
        "1", session=sess, endpoint_override=endpoint, service_type="orchestration"
    )

    stack_id = heat.stacks.create(stack_name="sc1", template=TEMPLATE)["stack"]["id"]
    assert [s.id for s in heat.stacks.list()] == [stack_id]
    assert heat.stacks.get("sc1").stack_status == "CREATE_COMPLETE"
    assert [r.resource_name for r in heat.resources.list("sc1")] == ["r"]
    assert heat.resources.get("sc1", "r").resource_type == "OS::Heat::None"
    assert len(heat.events.list("sc1")) == 4
    heat.stacks.delete("sc1")
    assert engine.stacks == {}
