"""Resource plugins on the simulated cloud, without the engine: a stack object from a
template of literal properties, and the create/delete steps run in a loop. The cloud is
simcloud-api's WSGI app served in this process; the plugins reach it over REST."""

import time
import uuid

import pytest

from heat_lite.common import context
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import clients
from heat_lite.engine import stack as parser
from heat_lite.engine.template import Template
from tests.fixtures import simcloud_inprocess


@pytest.fixture
def cloud():
    with simcloud_inprocess.serve() as cloud:
        yield cloud


@pytest.fixture
def ctx(cloud):
    CONF([], project="heat", default_config_files=[])
    cloud.configure_heat()
    db_api.configure("sqlite://")
    db_api.create_schema()
    yield context.RequestContext(user_id="u", project_id="p1", roles=["member"])
    db_api.dispose()
    CONF.reset()


@pytest.fixture
def net(ctx):
    """A private network with a subnet and a router to the public network."""
    neutron = clients.client_plugin(ctx, "neutron")
    network = neutron.create_net("private")
    subnet = neutron.create_subnet(network["id"], "10.0.0.0/24", "private-subnet")
    router = neutron.create_router("r", {"network_id": "public"})
    neutron.add_interface(router["id"], subnet_id=subnet["id"])
    return {"net": network["id"], "subnet": subnet["id"], "router": router["id"]}


def make(ctx, rtype, props, name="r"):
    tmpl = Template(
        {
            "heat_template_version": "queens",
            "resources": {name: {"type": rtype, "properties": props}},
        }
    )
    stack = parser.Stack(ctx, "st", tmpl)
    defn = stack.definition(name)
    rsrc = stack.resource_class(defn)(name, defn, stack)
    rsrc.uuid = str(uuid.uuid4())
    return rsrc


def run(handle, check, timeout=5):
    token = handle()
    deadline = time.monotonic() + timeout
    while not check(token):
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.01)


def create(ctx, rtype, props, name="r"):
    rsrc = make(ctx, rtype, props, name)
    rsrc.properties.validate()
    run(rsrc.handle_create, rsrc.check_create_complete)
    return rsrc


def delete(rsrc):
    run(rsrc.handle_delete, rsrc.check_delete_complete)
