"""What stack show and the resource list answer, kept while their paths were made cheaper
(issue 15, bench/api_load.py): required_by computed in one pass, links made from the
request URL once, outputs resolved from the resources they name only, plain JSON sent
over RPC without oslo's to_primitive walk."""

import gzip
import json
import urllib.request

import pytest
from heatclient import client as heat_client

from heat_lite.api.openstack.v1 import util
from tests.functional.heat_lite.api_engine.helpers import create_stack

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2018-08-31",
    "resources": {
        "a": {"type": "OS::Heat::None"},
        "b": {"type": "OS::Heat::None", "depends_on": ["a"]},
        "c": {"type": "OS::Heat::None", "depends_on": ["b", "a"]},
        "d": {"type": "OS::Heat::RandomString", "properties": {"length": 8}},
        "e": {"type": "OS::Heat::None"},
    },
    "outputs": {
        "ref": {"value": {"get_resource": "a"}},
        "attr": {"value": {"get_attr": ["d", "value"]}},
        "both": {
            "value": {"list_join": ["-", [{"get_resource": "c"}, {"get_attr": ["d", "value"]}]]}
        },
        "none": {"value": "plain"},
    },
}


def test_resource_list_required_by_and_links(api):
    url = create_stack(api, {"stack_name": "listing1", "template": TEMPLATE})
    stack_path = url.split("/v1/", 1)[1]
    resources = {r["resource_name"]: r for r in api.get(url + "/resources").json["resources"]}
    assert {n: r["required_by"] for n, r in resources.items()} == {
        "a": ["b", "c"],
        "b": ["c"],
        "c": [],
        "d": [],
        "e": [],
    }
    for name, res in resources.items():
        links = {link["rel"]: link["href"] for link in res["links"]}
        assert links["self"] == "http://localhost/v1/%s/resources/%s" % (stack_path, name)
        assert links["stack"] == "http://localhost/v1/%s" % stack_path
        assert res["resource_status"] == "CREATE_COMPLETE"
        assert res["logical_resource_id"] == name
    shown = api.get(url + "/resources/a").json["resource"]
    assert shown["required_by"] == ["b", "c"]
    assert "attributes" in shown


def test_show_outputs_resolve_from_the_resources_they_name(api):
    url = create_stack(api, {"stack_name": "listing2", "template": TEMPLATE})
    stack = api.get(url).json["stack"]
    outputs = {o["output_key"]: o["output_value"] for o in stack["outputs"]}
    value = api.get(url + "/resources/d").json["resource"]["attributes"]["value"]
    ids = {
        r["resource_name"]: r["physical_resource_id"]
        for r in api.get(url + "/resources").json["resources"]
    }
    assert len(value) == 8 and ids["a"] and ids["c"]
    both = "%s-%s" % (ids["c"], value)
    assert outputs == {"ref": ids["a"], "attr": value, "both": both, "none": "plain"}
    assert not any("output_error" in o for o in stack["outputs"])
    shown = api.get(url + "/outputs/both").json["output"]
    assert shown["output_value"] == both


def test_a_kept_resource_list_is_only_answered_after_the_engine_allowed_it(api):
    """The API keeps the text of a list it answered; another project still gets the
    engine's 404 (under its own tenant in the URL: the API refuses another's), and a
    change is seen at once."""
    url = create_stack(api, {"stack_name": "listing-kept", "template": TEMPLATE})
    first = api.get(url + "/resources")
    assert api.get(url + "/resources").body == first.body
    stranger = {"X-User-Id": "u-p2", "X-Project-Id": "p2", "X-Roles": "member,reader"}
    theirs = url.replace("/v1/admin/", "/v1/p2/")
    assert theirs != url
    denied = api.get(theirs + "/resources", headers=stranger, status=404)
    assert denied.json["error"]["type"] == "EntityNotFound"
    api.patch_json(url + "/resources/e", {"mark_unhealthy": True, "resource_status_reason": "x"})
    after = {r["resource_name"]: r for r in api.get(url + "/resources").json["resources"]}
    assert after["e"]["resource_status"] == "CHECK_FAILED"
    assert after["a"] == {r["resource_name"]: r for r in first.json["resources"]}["a"]


def _get(url, accept_encoding=None):
    """(headers, raw body) over HTTP, undecoded (webtest decodes gzip bodies itself)."""
    headers = {"X-Auth-Token": "t"}
    if accept_encoding:
        headers["Accept-Encoding"] = accept_encoding
    with urllib.request.urlopen(urllib.request.Request(url, headers=headers)) as resp:
        return resp.headers, resp.read()


def test_a_large_resource_list_is_gzip_encoded_for_a_client_that_accepts_it(api, endpoint):
    """Over GZIP_MIN_CHARS, a client whose Accept-Encoding takes gzip gets the list
    encoded, others the text; both vary by it. heatclient gets the same list."""
    template = {
        "heat_template_version": "2018-08-31",
        "resources": {"r%03d" % i: {"type": "OS::Heat::None"} for i in range(150)},
    }
    url = create_stack(api, {"stack_name": "listing-large", "template": template})
    served = endpoint + url.split("/v1/admin", 1)[1] + "/resources"
    headers, plain = _get(served)
    assert len(plain) >= util.GZIP_MIN_CHARS
    assert headers.get("Content-Encoding") is None
    assert headers["Vary"] == "Accept-Encoding"
    for _ in range(2):  # made, then kept
        headers, encoded = _get(served, "gzip, deflate")
        assert headers["Content-Encoding"] == "gzip"
        assert headers["Vary"] == "Accept-Encoding"
        assert len(encoded) < len(plain) // 5
        assert gzip.decompress(encoded) == plain
    assert _get(served, "gzip;q=0, identity")[1] == plain
    small = create_stack(api, {"stack_name": "listing-small", "template": TEMPLATE})
    small_served = endpoint + small.split("/v1/admin", 1)[1] + "/resources"
    assert _get(small_served, "gzip")[0].get("Content-Encoding") is None

    hc = heat_client.Client("1", endpoint=endpoint, token="t")
    listed = [r.to_dict() for r in hc.resources.list(url.rsplit("/", 2)[-2])]
    assert listed == json.loads(plain)["resources"]
