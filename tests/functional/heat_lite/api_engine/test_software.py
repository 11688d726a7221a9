"""Software configs and deployments over the REST API with the real engine (docs/heat-api.md §4.6):
shapes as Heat 27 answers them, bad input as Heat's 4xx bodies, tenant isolation.
"""

import pytest

pytestmark = pytest.mark.functional


def _headers(project, roles="member,reader"):
    return {"X-User-Id": "u-" + project, "X-Project-Id": project, "X-Roles": roles}


P1, P2 = _headers("p1"), _headers("p2")
ADMIN = _headers("adm", roles="admin,member,reader")
SC, SD = "/v1/p1/software_configs", "/v1/p1/software_deployments"
TIME_RE = r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"


def _error(resp):
    return resp.json["error"]["type"], resp.json["error"].get("message")


def _config(api, headers=P1, **body):
    body = dict({"name": "cfg", "group": "script", "config": "echo hi"}, **body)
    return api.post_json(SC.replace("p1", headers["X-Project-Id"]), body, headers=headers).json[
        "software_config"
    ]


def test_config_create_show_list_delete(api):
    body = {
        "name": "cfg1",
        "group": "script",
        "config": "echo hi",
        "inputs": [
            {"name": "foo"},
            {
                "name": "bar",
                "type": "Number",
                "default": 3,
                "description": "d",
                "replace_on_change": True,
            },
        ],
        "outputs": [{"name": "result"}, {"name": "err", "error_output": True}],
        "options": {"a": 1},
    }
    resp = api.post_json(SC, body, headers=P1)
    assert resp.status_int == 200
    sc = resp.json["software_config"]
    assert sc.pop("creation_time") is not None
    config_id = sc.pop("id")
    assert sc == {
        "name": "cfg1",
        "group": "script",
        "config": "echo hi",
        "inputs": [
            {"name": "foo", "type": "String"},
            {
                "name": "bar",
                "description": "d",
                "type": "Number",
                "default": 3,
                "replace_on_change": True,
            },
        ],
        "outputs": [
            {"name": "result", "type": "String", "error_output": False},
            {"name": "err", "type": "String", "error_output": True},
        ],
        "options": {"a": 1},
    }
    shown = api.get(SC + "/" + config_id, headers=P1).json["software_config"]
    assert shown["id"] == config_id and shown["inputs"] == sc["inputs"]
    listed = api.get(SC, headers=P1).json["software_configs"]
    item = [c for c in listed if c["id"] == config_id][0]
    assert sorted(item) == ["creation_time", "group", "id", "name"]  # no project: not admin
    assert api.delete(SC + "/" + config_id, headers=P1).status_int == 204
    resp = api.get(SC + "/" + config_id, headers=P1, status=404)
    assert _error(resp) == ("NotFound", "Software config with id %s not found" % config_id)


def test_config_defaults_and_paging(api):
    empty = api.post_json(SC, {}, headers=P1).json["software_config"]
    assert (empty["name"], empty["config"], empty["inputs"], empty["outputs"]) == (
        None,
        None,
        [],
        [],
    )
    assert empty["options"] == {}
    ids = [_config(api, name="page%d" % i)["id"] for i in range(3)]
    listed = [c["id"] for c in api.get(SC, headers=P1).json["software_configs"]]
    assert listed[:3] == ids[::-1]  # newest first
    page = api.get(SC + "?limit=2", headers=P1).json["software_configs"]
    assert [c["id"] for c in page] == ids[::-1][:2]
    after = api.get(SC + "?limit=1&marker=" + ids[2], headers=P1).json["software_configs"]
    assert [c["id"] for c in after] == [ids[1]]
    resp = api.get(SC + "?limit=x", headers=P1, status=400)
    assert _error(resp) == ("HTTPBadRequest", "Only integer is acceptable by 'limit'.")
    resp = api.get(SC + "?global_tenant=true", headers=ADMIN.copy(), status=403)
    assert _error(resp) == (
        "Forbidden",
        "You are not authorized to use software_configs:global_index.",
    )


@pytest.mark.parametrize(
    "body,error",
    [
        ({"inputs": "notalist"}, "HTTPBadRequest"),
        ({"outputs": ["a"]}, "HTTPBadRequest"),
        ({"inputs": [{"type": "String"}]}, "ValueError"),
        ({"inputs": [{"name": "a", "type": "Bogus"}]}, "ValueError"),
    ],
)
def test_config_bad_input_is_400(api, body, error, expect_log_errors):
    # as Heat's engine, which raises these outside HeatException, the RPC server logs them
    expect_log_errors(r"TypeError: Software Config I/O Schema|ValueError: Property error")
    resp = api.post_json(SC, dict(body, name="bad"), headers=P1, status=400)
    assert resp.json["code"] == 400
    assert resp.json["error"]["type"] == error
    names = [c["name"] for c in api.get(SC, headers=P1).json["software_configs"]]
    assert "bad" not in names


def test_requests_without_a_body_are_400(api):
    for method, url in (("POST", SC), ("POST", SD), ("PUT", SD + "/x")):
        resp = api.request(url, method=method, headers=P1, expect_errors=True)
        assert resp.status_int == 400
        assert resp.json["error"]["type"] == "HTTPBadRequest"


def test_deployment_create_list_show_update_delete(api):
    config = _config(api, name="zz-first", inputs=[{"name": "foo"}], outputs=[{"name": "r"}])
    other = _config(api, name="aa-second")
    body = {
        "config_id": config["id"],
        "server_id": "srv-1",
        "input_values": {"foo": "bar"},
        "action": "CREATE",
        "status": "IN_PROGRESS",
        "status_reason": "started",
    }
    sd = api.post_json(SD, body, headers=P1).json["software_deployment"]
    assert sd.pop("creation_time") is not None
    deployment_id = sd.pop("id")
    assert sd == {
        "server_id": "srv-1",
        "config_id": config["id"],
        "input_values": {"foo": "bar"},
        "output_values": None,
        "action": "CREATE",
        "status": "IN_PROGRESS",
        "status_reason": "started",
    }
    # absent keys are None, as Heat sends them (status_reason becomes "None")
    bare = api.post_json(SD, {"config_id": other["id"], "server_id": "srv-1"}, headers=P1).json[
        "software_deployment"
    ]
    assert (bare["action"], bare["status"], bare["status_reason"]) == (None, None, "None")
    assert bare["input_values"] == {}

    listed = api.get(SD + "?server_id=srv-1", headers=P1).json["software_deployments"]
    assert [d["id"] for d in listed] == [deployment_id, bare["id"]]
    assert api.get(SD + "?server_id=nope", headers=P1).json["software_deployments"] == []
    metadata = api.get(SD + "/metadata/srv-1", headers=P1).json["metadata"]
    assert [m["name"] for m in metadata] == ["aa-second", "zz-first"]  # by config name
    assert metadata[1]["inputs"] == [{"name": "foo", "type": "String"}]

    updated = api.put_json(
        SD + "/" + deployment_id,
        {"status": "COMPLETE", "output_values": {"r": "ok"}, "status_reason": "done"},
        headers=P1,
    ).json["software_deployment"]
    assert (updated["status"], updated["status_reason"]) == ("COMPLETE", "done")
    assert updated["output_values"] == {"r": "ok"}
    assert updated["input_values"] == {"foo": "bar"}
    assert "updated_time" in updated
    shown = api.get(SD + "/" + deployment_id, headers=P1).json["software_deployment"]
    assert shown == updated

    # a config in use cannot go; once its deployment is gone it can
    resp = api.delete(SC + "/" + config["id"], headers=P1, status=409)
    assert _error(resp) == (
        "InvalidRestrictedAction",
        "Software config with id %s can not be deleted as it is referenced." % config["id"],
    )
    assert api.delete(SD + "/" + deployment_id, headers=P1).status_int == 204
    resp = api.get(SD + "/" + deployment_id, headers=P1, status=404)
    assert _error(resp) == ("NotFound", "Deployment with id %s not found" % deployment_id)
    assert api.delete(SC + "/" + config["id"], headers=P1).status_int == 204


def test_deployment_bad_input(api):
    config = _config(api)
    resp = api.post_json(SD, {"server_id": "s"}, headers=P1, status=404)
    assert _error(resp) == ("NotFound", "Software config with id None not found")
    resp = api.post_json(SD, {"config_id": "nope", "server_id": "s"}, headers=P1, status=404)
    assert _error(resp) == ("NotFound", "Software config with id nope not found")
    resp = api.post_json(SD, {"config_id": config["id"]}, headers=P1, status=400)
    assert _error(resp) == ("Invalid", "Data supplied was not valid: server_id must be specified")
    resp = api.put_json(SD + "/nope", {"status": "FAILED"}, headers=P1, status=404)
    assert _error(resp) == ("NotFound", "Deployment with id nope not found")
    resp = api.delete(SD + "/nope", headers=P1, status=404)
    assert _error(resp)[0] == "NotFound"
    sd = api.post_json(SD, {"config_id": config["id"], "server_id": "s"}, headers=P1).json
    url = SD + "/" + sd["software_deployment"]["id"]
    resp = api.put_json(url, {"config_id": "nope"}, headers=P1, status=404)
    assert _error(resp) == ("NotFound", "Software config with id nope not found")
    assert api.put_json(url, {}, headers=P1).json["software_deployment"]["status"] is None


def test_tenant_isolation(api):
    config = _config(api, name="mine")
    sd = api.post_json(SD, {"config_id": config["id"], "server_id": "iso-srv"}, headers=P1).json[
        "software_deployment"
    ]
    sc2, sd2 = "/v1/p2/software_configs", "/v1/p2/software_deployments"
    for method, url in (
        ("GET", sc2 + "/" + config["id"]),
        ("DELETE", sc2 + "/" + config["id"]),
        ("GET", sd2 + "/" + sd["id"]),
        ("DELETE", sd2 + "/" + sd["id"]),
    ):
        resp = api.request(url, method=method, headers=P2, expect_errors=True)
        assert resp.status_int == 404, (method, url)
        assert resp.json["error"]["type"] == "NotFound"
    resp = api.put_json(sd2 + "/" + sd["id"], {"status": "FAILED"}, headers=P2, status=404)
    # p2 may not deploy p1's config either
    resp = api.post_json(sd2, {"config_id": config["id"], "server_id": "x"}, headers=P2, status=404)
    assert config["id"] not in [c["id"] for c in api.get(sc2, headers=P2).json["software_configs"]]
    assert api.get(sd2, headers=P2).json["software_deployments"] == []
    assert api.get(sd2 + "/metadata/iso-srv", headers=P2).json["metadata"] == []
    # a non-admin may not use another project's URL
    resp = api.get(SC, headers=P2, status=403)
    assert resp.json["error"]["type"] == "InvalidTenant"
    # the owner's rows are untouched; an admin sees every project's (with "project")
    assert api.get(SD + "/" + sd["id"], headers=P1).json["software_deployment"]["status"] is None
    listed = api.get("/v1/adm/software_configs", headers=ADMIN).json["software_configs"]
    assert {"id": config["id"], "project": "p1"}.items() <= [
        c for c in listed if c["id"] == config["id"]
    ][0].items()


def test_readers_cannot_write(api):
    reader = _headers("p1", roles="reader")
    resp = api.post_json(SC, {"name": "r"}, headers=reader, status=403)
    assert _error(resp) == ("Forbidden", "You are not authorized to use software_configs:create.")
    assert api.get(SC, headers=reader).status_int == 200


@pytest.mark.parametrize(
    "body,message",
    [
        ({"server_id": {"a": 1}}, '"server_id" must be a string'),
        ({"server_id": "s" * 37}, '"server_id" should be no more than 36 characters'),
        ({"server_id": "s", "action": ["CREATE"]}, '"action" must be a string'),
        ({"server_id": "s", "status": 1}, '"status" must be a string'),
        (
            {"server_id": "s", "stack_user_project_id": "p" * 65},
            '"stack_user_project_id" should be no more than 64 characters',
        ),
    ],
)
def test_deployment_fields_of_the_wrong_type_are_400(api, body, message):
    config = _config(api)
    resp = api.post_json(SD, dict(body, config_id=config["id"]), headers=P1, status=400)
    assert _error(resp) == ("Invalid", "Data supplied was not valid: " + message)


def test_wrong_types_elsewhere_are_4xx(api):
    resp = api.post_json(SC, {"name": {"x": 1}}, headers=P1, status=400)
    assert _error(resp) == ("Invalid", 'Data supplied was not valid: "name" must be a string')
    resp = api.post_json(SD, {"config_id": 42, "server_id": "s"}, headers=P1, status=404)
    assert _error(resp) == ("NotFound", "Software config with id 42 not found")
    config = _config(api)
    sd = api.post_json(SD, {"config_id": config["id"], "server_id": "s"}, headers=P1).json
    url = SD + "/" + sd["software_deployment"]["id"]
    resp = api.put_json(url, {"status": {"a": 1}}, headers=P1, status=400)
    assert _error(resp) == ("Invalid", 'Data supplied was not valid: "status" must be a string')
