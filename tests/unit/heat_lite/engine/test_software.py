"""engine/software.py against an in-memory database: config I/O normalisation, signals
(status codes, error outputs, only while IN_PROGRESS), visibility between projects."""

import pytest

from heat_lite.common import context, exception
from heat_lite.db import api as db_api
from heat_lite.engine import software as sw
from heat_lite.engine import software_config_io as swc_io
from heat_lite.engine.resources.openstack.heat import structured_config

pytestmark = pytest.mark.unit


@pytest.fixture
def ctx():
    db_api.configure("sqlite://")
    db_api.create_schema()
    yield context.RequestContext(user_id="u", project_id="p1", roles=["member"])
    db_api.dispose()


def _deployment(ctx, outputs=()):
    config = sw.create_software_config(
        ctx, "script", "c", "echo", [], [{"name": n, **extra} for n, extra in outputs], {}
    )
    return sw.create_software_deployment(
        ctx, "srv", config["id"], {}, "CREATE", "IN_PROGRESS", "waiting", None
    )


def test_io_config_normalisation_and_errors():
    assert swc_io.InputConfig(name="a", replace_on_change=False).as_dict() == {
        "name": "a",
        "type": "String",
    }
    assert swc_io.InputConfig(value=1, name="a").input_data() == ("a", 1)
    assert swc_io.OutputConfig(name="o").error_output() is False
    with pytest.raises(ValueError, match="Property name not assigned"):
        swc_io.InputConfig(type="String")
    with pytest.raises(TypeError):
        swc_io.check_io_schema_list({"name": "a"})
    with pytest.raises(TypeError):
        swc_io.check_io_schema_list(["a"])


def test_signal_success_keeps_declared_outputs_only(ctx):
    sd = _deployment(ctx, outputs=[("result", {})])
    reason = sw.signal_software_deployment(
        ctx, sd["id"], {"deploy_stdout": "out", "deploy_status_code": "0", "result": 5, "x": 1}
    )
    assert reason == "deployment %s succeeded" % sd["id"]
    shown = sw.show_software_deployment(ctx, sd["id"])
    assert (shown["status"], shown["status_reason"]) == ("COMPLETE", "Outputs received")
    assert shown["output_values"] == {
        "deploy_stdout": "out",
        "deploy_stderr": None,
        "deploy_status_code": "0",
        "result": 5,
    }
    # only an IN_PROGRESS deployment takes a signal
    assert sw.signal_software_deployment(ctx, sd["id"], {"deploy_status_code": 1}) is None
    assert sw.show_software_deployment(ctx, sd["id"])["status"] == "COMPLETE"


def test_signal_failures(ctx):
    sd = _deployment(ctx, outputs=[("err", {"error_output": True})])
    reason = sw.signal_software_deployment(ctx, sd["id"], {"deploy_status_code": 3, "err": "boom"})
    assert reason == "deployment %s failed" % sd["id"]
    shown = sw.show_software_deployment(ctx, sd["id"])
    assert shown["status"] == "FAILED"
    assert shown["status_reason"] == (
        "deploy_status_code : Deployment exited with non-zero status code: 3, err : boom"
    )
    with pytest.raises(ValueError):
        sw.signal_software_deployment(ctx, None, {})


def test_other_projects_see_nothing(ctx):
    sd = _deployment(ctx)
    other = context.RequestContext(user_id="u2", project_id="p2", roles=["member"])
    with pytest.raises(exception.NotFound):
        sw.show_software_deployment(other, sd["id"])
    with pytest.raises(exception.NotFound):
        sw.show_software_config(other, sd["config_id"])
    assert sw.list_software_deployments(other) == []
    assert sw.list_software_configs(other) == []
    # the stack user project of a deployment sees it
    stack_user = context.RequestContext(user_id="u3", project_id="su", roles=["member"])
    config = sw.create_software_config(ctx, None, "c2", None, [], [], {})
    mine = sw.create_software_deployment(ctx, "srv", config["id"], {}, None, None, "", "su")
    assert [d["id"] for d in sw.list_software_deployments(stack_user)] == [mine["id"]]
    admin = context.RequestContext(user_id="a", project_id="adm", roles=["admin"])
    assert sw.list_software_configs(admin)[0]["project"] == "p1"


def test_structured_substitution():
    snippet = {"a": {"get_input": "x"}, "b": [{"get_input": "y"}, "z"], "c": {"get_input": 1}}
    assert structured_config.substitute(snippet, {"x": 1}, "get_input") == {
        "a": 1,
        "b": [None, "z"],
        "c": {"get_input": 1},
    }
    with pytest.raises(exception.UserParameterMissing):
        structured_config.substitute(snippet, {"x": 1}, "get_input", strict=True)
