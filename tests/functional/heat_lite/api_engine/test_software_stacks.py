"""Stacks with software configs and deployments, converging in the real engine:
the simulated cloud's automatic signal, a real signal through the resource-signal
endpoint (with ``[simulated_cloud] signal_deployments = false``), a PUT of the
deployment, NO_SIGNAL, structured configs and deployment groups, and python-heatclient's
software_configs / software_deployments managers.
"""

import time

import pytest
from heatclient import client as heat_client
from heatclient import exc as heat_exc

from heat_lite.conf import CONF
from tests.functional.heat_lite.api_engine.helpers import create_stack

pytestmark = pytest.mark.functional

P = "/v1/admin"

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "cfg": {
            "type": "OS::Heat::SoftwareConfig",
            "properties": {
                "group": "script",
                "config": "#!/bin/sh\necho $foo",
                "inputs": [{"name": "foo"}, {"name": "bar", "default": "b"}],
                "outputs": [{"name": "result"}],
            },
        },
        "dep": {
            "type": "OS::Heat::SoftwareDeployment",
            "properties": {
                "config": {"get_resource": "cfg"},
                "server": "server-1",
                "input_values": {"foo": "hello", "extra": 1},
                "signal_transport": "HEAT_SIGNAL",
            },
        },
    },
    "outputs": {
        "stdout": {"value": {"get_attr": ["dep", "deploy_stdout"]}},
        "code": {"value": {"get_attr": ["dep", "deploy_status_code"]}},
        "result": {"value": {"get_attr": ["dep", "result"]}},
        "config": {"value": {"get_attr": ["cfg", "config"]}},
    },
}


def _outputs(api, url):
    stack = api.get(url).json["stack"]
    return {o["output_key"]: o["output_value"] for o in stack["outputs"]}


def _resource(api, url, name):
    return api.get(url + "/resources/" + name).json["resource"]


def _wait(api, url, statuses, timeout=30):
    deadline = time.monotonic() + timeout
    while True:
        stack = api.get(url).json["stack"]
        if stack["stack_status"] in statuses:
            return stack
        assert time.monotonic() < deadline, stack["stack_status"]
        time.sleep(0.05)


@pytest.fixture
def no_auto_signal():
    CONF.set_override("signal_deployments", False, group="simulated_cloud")
    yield
    CONF.clear_override("signal_deployments", group="simulated_cloud")


def test_deployment_is_signalled_by_the_simulated_cloud(api):
    url = create_stack(api, {"stack_name": "sw-auto", "template": TEMPLATE})
    assert _outputs(api, url) == {
        "stdout": "",
        "code": 0,
        "result": None,
        "config": "#!/bin/sh\necho $foo",
    }
    dep = _resource(api, url, "dep")
    sd = api.get(P + "/software_deployments/" + dep["physical_resource_id"]).json[
        "software_deployment"
    ]
    assert (sd["server_id"], sd["action"], sd["status"]) == ("server-1", "CREATE", "COMPLETE")
    assert sd["status_reason"] == "Outputs received"
    assert sd["input_values"] == {"foo": "hello", "extra": 1}
    # the server's metadata is the derived config: inputs with values, then deploy_*
    (derived,) = api.get(P + "/software_deployments/metadata/server-1").json["metadata"]
    assert derived["id"] == sd["config_id"] != _resource(api, url, "cfg")["physical_resource_id"]
    assert derived["group"] == "script"
    inputs = {i["name"]: i.get("value") for i in derived["inputs"]}
    assert inputs["foo"] == "hello" and inputs["bar"] == "b" and inputs["extra"] == 1
    assert inputs["deploy_server_id"] == "server-1"
    assert inputs["deploy_action"] == "CREATE"
    assert inputs["deploy_resource_name"] == "dep"
    assert inputs["deploy_signal_transport"] == "HEAT_SIGNAL"
    assert inputs["deploy_stack_id"] == "sw-auto/" + url.rsplit("/", 1)[1]

    api.delete(url)
    _wait(api, url, ("DELETE_COMPLETE",))
    # the deployment and both configs are gone
    api.get(P + "/software_deployments/" + sd["id"], status=404)
    api.get(P + "/software_configs/" + derived["id"], status=404)
    assert api.get(P + "/software_deployments/metadata/server-1").json["metadata"] == []


def test_deployment_waits_for_a_signal_with_outputs(api, no_auto_signal):
    url = api.post_json(P + "/stacks", {"stack_name": "sw-wait", "template": TEMPLATE}).location
    deadline = time.monotonic() + 30
    while _resource(api, url, "dep")["resource_status"] != "CREATE_IN_PROGRESS":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    time.sleep(0.5)  # still waiting: nothing but a signal completes it
    assert api.get(url).json["stack"]["stack_status"] == "CREATE_IN_PROGRESS"
    deployment_id = _resource(api, url, "dep")["physical_resource_id"]
    sd = api.get(P + "/software_deployments/" + deployment_id).json["software_deployment"]
    assert (sd["status"], sd["status_reason"]) == ("IN_PROGRESS", "Deploy data available")

    signal = {"deploy_stdout": "hello\n", "deploy_stderr": "", "deploy_status_code": 0}
    resp = api.post_json(url + "/resources/dep/signal", dict(signal, result="42"))
    assert resp.status_int == 200 and resp.json is None
    stack = _wait(api, url, ("CREATE_COMPLETE", "CREATE_FAILED"))
    assert stack["stack_status"] == "CREATE_COMPLETE", stack["stack_status_reason"]
    assert _outputs(api, url) == {
        "stdout": "hello\n",
        "code": 0,
        "result": "42",
        "config": "#!/bin/sh\necho $foo",
    }
    attrs = _resource(api, url, "dep")["attributes"]
    assert attrs["deploy_stdout"] == "hello\n"
    sd = api.get(P + "/software_deployments/" + deployment_id).json["software_deployment"]
    assert sd["output_values"] == dict(signal, result="42")
    assert sd["status"] == "COMPLETE"
    events = api.get(url + "/resources/dep/events").json["events"]
    assert [
        (e["resource_status"], e["resource_status_reason"])
        for e in events
        if e["resource_status"].startswith("SIGNAL")
    ] == [("SIGNAL_IN_PROGRESS", "deployment succeeded")]
    # a second signal changes nothing: only an IN_PROGRESS deployment takes one
    api.post_json(url + "/resources/dep/signal", {"deploy_stdout": "again"})
    time.sleep(0.2)
    assert _outputs(api, url)["stdout"] == "hello\n"


def test_a_failed_signal_fails_the_stack(api, no_auto_signal):
    url = api.post_json(P + "/stacks", {"stack_name": "sw-fail", "template": TEMPLATE}).location
    deadline = time.monotonic() + 30
    while _resource(api, url, "dep")["resource_status"] != "CREATE_IN_PROGRESS":
        assert time.monotonic() < deadline
        time.sleep(0.05)
    api.post_json(url + "/resources/dep/signal", {"deploy_status_code": 2})
    stack = _wait(api, url, ("CREATE_COMPLETE", "CREATE_FAILED"))
    assert stack["stack_status"] == "CREATE_FAILED"
    assert stack["stack_status_reason"] == (
        "Resource CREATE failed: Error: resources.dep: Deployment to server failed: "
        "deploy_status_code : Deployment exited with non-zero status code: 2"
    )


def test_a_put_of_the_deployment_completes_it(api, no_auto_signal):
    url = api.post_json(P + "/stacks", {"stack_name": "sw-put", "template": TEMPLATE}).location
    deadline = time.monotonic() + 30
    while not _resource(api, url, "dep")["physical_resource_id"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    deployment_id = _resource(api, url, "dep")["physical_resource_id"]
    api.put_json(
        P + "/software_deployments/" + deployment_id,
        {"status": "COMPLETE", "output_values": {"deploy_stdout": "by hand"}},
    )
    _wait(api, url, ("CREATE_COMPLETE",))
    assert _outputs(api, url)["stdout"] == "by hand"


def test_no_signal_structured_and_groups(api, no_auto_signal):
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "cfg": {
                "type": "OS::Heat::StructuredConfig",
                "properties": {
                    "group": "Heat::Ungrouped",
                    "config": {"motd": {"get_input": "motd"}, "list": [{"get_input": "n"}]},
                },
            },
            "dep": {
                "type": "OS::Heat::StructuredDeployment",
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "server": "server-s",
                    "input_values": {"motd": "hi", "n": 3},
                    "signal_transport": "NO_SIGNAL",
                },
            },
            "group": {
                "type": "OS::Heat::SoftwareDeploymentGroup",
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "servers": {"a": "server-a", "b": "server-b"},
                    "signal_transport": "NO_SIGNAL",
                },
            },
            "sgroup": {
                "type": "OS::Heat::StructuredDeploymentGroup",
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "servers": {"c": "server-c"},
                    "input_values": {"motd": "group"},
                    "signal_transport": "NO_SIGNAL",
                },
            },
            "old_alias": {
                "type": "OS::Heat::SoftwareDeployments",
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "servers": {"d": "server-d"},
                    "signal_transport": "NO_SIGNAL",
                },
            },
            "later": {
                "type": "OS::Heat::SoftwareDeployment",
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "server": "server-s",
                    "actions": ["UPDATE"],
                },
            },
        },
        "outputs": {"codes": {"value": {"get_attr": ["group", "deploy_status_codes"]}}},
    }
    url = create_stack(api, {"stack_name": "sw-nosignal", "template": template})
    (derived,) = api.get(P + "/software_deployments/metadata/server-s").json["metadata"]
    assert derived["config"] == {"motd": "hi", "list": [3]}
    assert _outputs(api, url) == {"codes": {"a": None, "b": None}}
    for server in ("server-a", "server-b"):
        (member,) = api.get(P + "/software_deployments?server_id=" + server).json[
            "software_deployments"
        ]
        assert (member["status"], member["status_reason"]) == (
            "COMPLETE",
            "Not waiting for outputs signal",
        )
    (member,) = api.get(P + "/software_deployments/metadata/server-c").json["metadata"]
    assert member["config"] == {"motd": "group", "list": [None]}
    group = _resource(api, url, "sgroup")
    assert group["resource_type"] == "OS::Heat::StructuredDeploymentGroup"
    # the hidden pre-Liberty alias still works in templates, but is never listed
    assert (
        len(api.get(P + "/software_deployments?server_id=server-d").json["software_deployments"])
        == 1
    )
    listed = api.get(P + "/resource_types?name=OS::Heat::S").json["resource_types"]
    assert "OS::Heat::SoftwareDeploymentGroup" in listed
    assert "OS::Heat::SoftwareDeployments" not in listed
    # "later" deploys on UPDATE only: no deployment was made on CREATE
    assert _resource(api, url, "later")["physical_resource_id"] == ""


@pytest.fixture
def hc(endpoint):
    return heat_client.Client("1", endpoint=endpoint, token="x")


def test_heatclient_software_managers(hc):
    config = hc.software_configs.create(
        name="hc-cfg", group="script", config="echo", inputs=[{"name": "i"}]
    )
    assert config.inputs == [{"name": "i", "type": "String"}]
    assert hc.software_configs.get(config.id).config == "echo"
    assert config.id in [c.id for c in hc.software_configs.list()]
    deployment = hc.software_deployments.create(
        config_id=config.id, server_id="hc-server", action="CREATE", status="IN_PROGRESS"
    )
    assert deployment.status_reason == "None"  # not sent: Heat stores str(None)
    assert [d.id for d in hc.software_deployments.list(server_id="hc-server")] == [deployment.id]
    metadata = hc.software_deployments.metadata(server_id="hc-server")
    assert [m["id"] for m in metadata] == [config.id]
    updated = hc.software_deployments.update(
        deployment.id, status="COMPLETE", output_values={"o": 1}
    )
    assert (updated.status, updated.output_values) == ("COMPLETE", {"o": 1})
    assert hc.software_deployments.get(deployment.id).status == "COMPLETE"
    hc.software_deployments.delete(deployment.id)
    with pytest.raises(heat_exc.HTTPNotFound):
        hc.software_deployments.get(deployment.id)
    hc.software_configs.delete(config.id)
    with pytest.raises(heat_exc.HTTPNotFound) as err:
        hc.software_configs.get(config.id)
    assert "Software config with id %s not found" % config.id in str(err.value)


def _update(api, url, template):
    api.put_json(url, {"template": template})
    stack = _wait(api, url, ("UPDATE_COMPLETE", "UPDATE_FAILED"))
    assert stack["stack_status"] == "UPDATE_COMPLETE", stack["stack_status_reason"]


def test_update_redeploys_and_replace_on_change_replaces(api):
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "cfg": {
                "type": "OS::Heat::SoftwareConfig",
                "properties": {
                    "inputs": [{"name": "soft"}, {"name": "hard", "replace_on_change": True}],
                },
            },
            "dep": {
                "type": "OS::Heat::SoftwareDeployment",
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "server": "server-u",
                    "input_values": {"soft": "1", "hard": "1"},
                },
            },
        },
    }
    url = create_stack(api, {"stack_name": "sw-update", "template": template})
    first = _resource(api, url, "dep")["physical_resource_id"]
    (derived,) = api.get(P + "/software_deployments/metadata/server-u").json["metadata"]

    template["resources"]["dep"]["properties"]["input_values"]["soft"] = "2"
    _update(api, url, template)
    assert _resource(api, url, "dep")["physical_resource_id"] == first  # in place
    sd = api.get(P + "/software_deployments/" + first).json["software_deployment"]
    assert (sd["action"], sd["status"]) == ("UPDATE", "COMPLETE")
    assert sd["input_values"]["soft"] == "2"
    (redeployed,) = api.get(P + "/software_deployments/metadata/server-u").json["metadata"]
    assert redeployed["id"] == sd["config_id"] != derived["id"]
    api.get(P + "/software_configs/" + derived["id"], status=404)  # the old one is gone
    inputs = {i["name"]: i.get("value") for i in redeployed["inputs"]}
    assert (inputs["soft"], inputs["deploy_action"]) == ("2", "UPDATE")

    template["resources"]["dep"]["properties"]["input_values"]["hard"] = "2"
    _update(api, url, template)
    second = _resource(api, url, "dep")["physical_resource_id"]
    assert second != first  # replaced: a new deployment, the old one deleted
    listed = api.get(P + "/software_deployments?server_id=server-u").json["software_deployments"]
    assert [d["id"] for d in listed] == [second]
    assert listed[0]["action"] == "CREATE"


def test_the_servers_metadata_lists_its_deployments(api):
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {
            "server": {"type": "OS::Heat::TestResource"},
            "cfg": {"type": "OS::Heat::SoftwareConfig", "properties": {"config": "x"}},
            "dep": {
                "type": "OS::Heat::SoftwareDeployment",
                "properties": {
                    "config": {"get_resource": "cfg"},
                    "server": {"get_resource": "server"},
                    "name": "10-first",
                },
            },
        },
    }
    url = create_stack(api, {"stack_name": "sw-meta", "template": template})
    server_id = _resource(api, url, "server")["physical_resource_id"]
    metadata = api.get(url + "/resources/server/metadata").json["metadata"]
    assert metadata == {
        "deployments": api.get(P + "/software_deployments/metadata/" + server_id).json["metadata"]
    }
    assert [d["name"] for d in metadata["deployments"]] == ["10-first"]
    # a deployment made through the API joins it; deleting it leaves it again
    config = api.post_json(P + "/software_configs", {"name": "00-api"}).json["software_config"]
    sd = api.post_json(
        P + "/software_deployments", {"config_id": config["id"], "server_id": server_id}
    ).json["software_deployment"]
    metadata = api.get(url + "/resources/server/metadata").json["metadata"]
    assert [d["name"] for d in metadata["deployments"]] == ["00-api", "10-first"]
    api.delete(P + "/software_deployments/" + sd["id"])
    metadata = api.get(url + "/resources/server/metadata").json["metadata"]
    assert [d["name"] for d in metadata["deployments"]] == ["10-first"]


def test_deleting_the_stack_cancels_a_waiting_deployment(api, no_auto_signal):
    url = api.post_json(P + "/stacks", {"stack_name": "sw-cancel", "template": TEMPLATE}).location
    deadline = time.monotonic() + 30
    while not _resource(api, url, "dep")["physical_resource_id"]:
        assert time.monotonic() < deadline
        time.sleep(0.05)
    deployment_id = _resource(api, url, "dep")["physical_resource_id"]
    api.delete(url)
    stack = _wait(api, url, ("DELETE_COMPLETE", "DELETE_FAILED"), timeout=20)
    assert stack["stack_status"] == "DELETE_COMPLETE", stack["stack_status_reason"]
    api.get(P + "/software_deployments/" + deployment_id, status=404)
