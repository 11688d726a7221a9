"""Environments and nested stacks over real processes (api, engine, two workers), driven
like the heat CLI: python-heatclient's template_utils reads the files from disk, turns
the relative provider template names into file:// URLs and fills ``files``."""

import pytest
import yaml
from heatclient.common import template_utils

from tests.functional.heat_lite.test_nested_stacks import CLUSTER, MEMBER, SWITCHER
from tests.integration import helpers

pytestmark = pytest.mark.integration


def _write(tmp_path):
    cluster = yaml.safe_load(yaml.safe_dump(CLUSTER))
    cluster["resources"]["nodes"]["properties"]["resource_def"]["type"] = "member.yaml"
    (tmp_path / "cluster.yaml").write_text(yaml.safe_dump(cluster))
    (tmp_path / "member.yaml").write_text(yaml.safe_dump(MEMBER))
    (tmp_path / "switcher.yaml").write_text(yaml.safe_dump(SWITCHER))
    (tmp_path / "env.yaml").write_text(
        yaml.safe_dump(
            {
                "resource_registry": {
                    "Magnum::Optional::KubeMaster::Neutron::FloatingIP": "OS::Heat::None",
                    "Magnum::ApiGatewaySwitcher": "switcher.yaml",
                }
            }
        )
    )


def _fields(tmp_path, **parameters):
    files, template = template_utils.get_template_contents(str(tmp_path / "cluster.yaml"))
    env_files, env = template_utils.process_multiple_environments_and_files(
        env_paths=[str(tmp_path / "env.yaml")]
    )
    return {
        "template": template,
        "files": dict(files, **env_files),
        "environment": env,
        "parameters": parameters,
    }


def _outputs(stack):
    return {o["output_key"]: o["output_value"] for o in stack.outputs}


def test_group_of_provider_templates_scale_and_delete(hc, tmp_path):
    _write(tmp_path)
    created = hc.stacks.create(stack_name="k8s", **_fields(tmp_path))
    stack_id = created["stack"]["id"]
    stack = helpers.wait_for_status(hc, stack_id, {"CREATE_COMPLETE", "CREATE_FAILED"})
    assert stack.stack_status == "CREATE_COMPLETE", stack.stack_status_reason
    assert _outputs(stack)["ips"] == ["10.0.0.0", "10.0.0.1"]
    assert _outputs(stack)["names"] == ["k8s-0", "k8s-1"]

    nested = hc.resources.list(stack_id, nested_depth=3)
    assert sorted(
        r.resource_name for r in nested if getattr(r, "parent_resource", None) == "nodes"
    ) == [
        "0",
        "1",
    ]
    assert "api_address_switch" in {r.resource_name for r in nested}
    # nested stacks are hidden from the stack list unless asked for
    assert [s.stack_name for s in hc.stacks.list()] == ["k8s"]
    assert len(list(hc.stacks.list(show_nested=True))) == 1 + 1 + 2 + 2

    hc.stacks.update(stack_id, **_fields(tmp_path, count=3))
    stack = helpers.wait_for_status(hc, stack_id, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert _outputs(stack)["ips"] == ["10.0.0.0", "10.0.0.1", "10.0.0.2"]

    hc.stacks.update(stack_id, **_fields(tmp_path, count=2, to_remove="1"))
    stack = helpers.wait_for_status(hc, stack_id, {"UPDATE_COMPLETE", "UPDATE_FAILED"})
    assert stack.stack_status == "UPDATE_COMPLETE", stack.stack_status_reason
    assert _outputs(stack)["ips"] == ["10.0.0.0", "10.0.0.2"]

    hc.stacks.delete(stack_id)
    helpers.wait_for(hc, stack_id, "DELETE_COMPLETE")
    # every nested stack went with it
    assert list(hc.stacks.list(show_nested=True)) == []
