"""Resource and event endpoints of heat-lite-api (docs/heat-api.md §4.3, §4.4, §5.3, §5.4)."""

import pytest

pytestmark = pytest.mark.functional

TEMPLATE = {
    "heat_template_version": "2016-10-14",
    "resources": {"r": {"type": "OS::Heat::None"}, "my res": {"type": "OS::Heat::None"}},
}


@pytest.fixture
def stack(api):
    resp = api.post_json("/v1/admin/stacks", {"stack_name": "s1", "template": TEMPLATE})
    stack_id = resp.json["stack"]["id"]
    return "/v1/admin/stacks/s1/" + stack_id, "http://localhost/v1/admin/stacks/s1/" + stack_id


def test_resource_list(api, engine, stack):
    path, href = stack
    resources = api.get(path + "/resources").json["resources"]
    assert resources[0] == {
        "resource_name": "r",
        "logical_resource_id": "r",
        "physical_resource_id": "phys-r",
        "resource_status": "CREATE_COMPLETE",
        "resource_status_reason": "state changed",
        "resource_type": "OS::Heat::None",
        "creation_time": "2026-11-25T22:01:01Z",
        "updated_time": "2026-11-25T22:01:01Z",
        "required_by": [],
        "links": [{"href": href + "/resources/r", "rel": "self"}, {"href": href, "rel": "stack"}],
    }
    assert resources[1]["links"][0]["href"] == href + "/resources/my%20res"


def test_resource_list_parameters(api, engine, stack):
    path, _href = stack
    api.get(path + "/resources?nested_depth=2&with_detail=true&type=OS::Heat::None")
    assert engine.calls[-1] == (
        "list_stack_resources",
        {
            "stack_identity": engine.calls[-1][1]["stack_identity"],
            "nested_depth": 2,
            "with_detail": True,
            "filters": {"type": "OS::Heat::None"},
        },
    )
    detailed = api.get(path + "/resources?with_detail=true").json["resources"][0]
    assert detailed["attributes"] == {"value": "v-r"}


def test_resource_list_rejects_unknown_filters(api, stack):
    resp = api.get(stack[0] + "/resources?bogus=1", status=400)
    assert resp.json["error"] == {
        "type": "HTTPBadRequest",
        "traceback": None,
        "message": "Invalid filter parameters ['bogus']",
    }


def test_resource_list_by_name_redirects(api, stack):
    _path, href = stack
    resp = api.get("/v1/admin/stacks/s1/resources", status=302)
    assert resp.headers["Location"] == href + "/resources"


def test_resource_show(api, engine, stack):
    path, href = stack
    resource = api.get(path + "/resources/my%20res?with_attr=a&with_attr=b").json["resource"]
    assert resource["resource_name"] == "my res"
    assert resource["attributes"] == {"value": "v-my res"}
    assert resource["description"] == ""
    assert resource["links"][0] == {"href": href + "/resources/my%20res", "rel": "self"}
    assert engine.calls[-1] == (
        "describe_stack_resource",
        {"resource_name": "my res", "with_attr": ["a", "b"]},
    )


def test_resource_show_unknown_is_404(api, stack):
    resp = api.get(stack[0] + "/resources/nope", status=404)
    assert resp.json["error"]["type"] == "ResourceNotFound"
    assert resp.json["error"]["message"] == "The Resource (nope) could not be found in Stack s1."


def test_stack_event_list(api, engine, stack):
    path, href = stack
    events = api.get(path + "/events?sort_dir=asc&limit=3").json["events"]
    assert len(events) == 3
    first = events[0]
    assert set(first) == {
        "id",
        "links",
        "event_time",
        "resource_name",
        "logical_resource_id",
        "physical_resource_id",
        "resource_status",
        "resource_status_reason",
    }
    assert first["resource_name"] == "s1"
    assert first["resource_status"] == "CREATE_IN_PROGRESS"
    assert first["links"] == [
        {"href": "%s/resources/s1/events/%s" % (href, first["id"]), "rel": "self"},
        {"href": href + "/resources/s1", "rel": "resource"},
        {"href": href, "rel": "stack"},
    ]
    assert engine.calls[-1][1] == {
        "filters": None,
        "limit": 3,
        "marker": None,
        "sort_keys": None,
        "sort_dir": "asc",
        "nested_depth": None,
    }


def test_resource_event_list(api, engine, stack):
    path, _href = stack
    events = api.get(path + "/resources/r/events?resource_status=COMPLETE").json["events"]
    assert [e["resource_status"] for e in events] == ["CREATE_COMPLETE"]
    assert engine.calls[-1][1]["filters"] == {"resource_name": "r", "resource_status": "COMPLETE"}


def test_resource_without_events_is_404(api, stack):
    resp = api.get(stack[0] + "/resources/zz/events", status=404)
    assert resp.json["error"]["message"] == "No events found for resource zz"


def test_event_limit_must_be_an_integer(api, stack):
    resp = api.get(stack[0] + "/events?limit=x", status=400)
    assert resp.json["error"]["message"] == "Only integer is acceptable by 'limit'."


def test_event_show(api, stack):
    path, _href = stack
    summary = api.get(path + "/resources/r/events").json["events"][0]
    event = api.get(path + "/resources/r/events/" + summary["id"]).json["event"]
    assert event["id"] == summary["id"]
    assert event["resource_type"] == "OS::Heat::None"
    assert event["resource_properties"] == {}
    resp = api.get(path + "/resources/r/events/nope", status=404)
    assert resp.json["error"]["message"] == "No event nope found"


def test_resource_list_follows_the_engine_answer(api, engine, stack):
    """The API reuses the text of a recent list only for the same answer to the same URL."""
    path, href = stack
    first = api.get(path + "/resources")
    assert api.get(path + "/resources").body == first.body
    engine.stacks[href.rsplit("/", 1)[1]]["resources"]["added"] = "OS::Heat::RandomString"
    names = [r["resource_name"] for r in api.get(path + "/resources").json["resources"]]
    assert names == ["r", "my res", "added"]
    other = api.get(path + "/resources", extra_environ={"HTTP_HOST": "heat.example:8004"})
    assert other.json["resources"][0]["links"][1]["href"] == href.replace(
        "localhost", "heat.example:8004"
    )
