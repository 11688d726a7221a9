"""OS::Heat::None as Heat's: any property accepted, any attribute valid and null.

Magnum's environments map a load balancer to OS::Heat::None while other resources still
read ``{get_attr: [loadbalancer, vip_port_id]}``; Heat 27 accepts that (its NoneResource
neither validates nor reparses properties, and resolves every attribute to None).
"""

import pytest

from tests.functional.heat_lite.api_engine.helpers import create_stack

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "loadbalancer": {
            "type": "OS::Heat::None",
            "properties": {"vip_subnet": "no-such-subnet", "provider": {"any": ["shape"]}},
        },
        "listener": {
            "type": "OS::Heat::None",
            "properties": {
                "loadbalancer": {"get_resource": "loadbalancer"},
                "port": {"get_attr": ["loadbalancer", "vip_port_id"]},
            },
        },
    },
    "outputs": {
        "vip": {"value": {"get_attr": ["loadbalancer", "vip_address"]}},
        "deep": {"value": {"get_attr": ["loadbalancer", "show", "x", 0]}},
        "port": {"value": {"get_attr": ["listener", "port"]}},
    },
}


def test_none_takes_any_property_and_gives_any_attribute_as_null(api):
    validated = api.post_json("/v1/admin/validate", {"template": TEMPLATE}).json
    assert "Parameters" in validated

    url = create_stack(api, {"stack_name": "none1", "template": TEMPLATE})
    outputs = {o["output_key"]: o for o in api.get(url).json["stack"]["outputs"]}
    assert {k: o["output_value"] for k, o in outputs.items()} == {
        "vip": None,
        "deep": None,
        "port": None,
    }
    assert not any("output_error" in o for o in outputs.values())
