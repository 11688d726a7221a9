"""heat-lite-api in process, with a fake engine behind the real RPC path.

The API's EngineClient talks over the oslo.messaging ``fake://`` transport to an RPC
server on topic ``engine`` whose endpoint is FakeEngine: a dict of stacks answering
with the shapes of the real engine (heat's format_stack / format_stack_resource /
format_event), and raising heat_lite exceptions the same way.

    def test_x(api, engine):       # api: webtest.TestApp(setup_app()), engine: FakeEngine
        api.post_json('/v1/admin/stacks', {...})
        engine.calls[-1]           # ('create_stack', {kwargs the API sent})
"""

import logging
import uuid

import oslo_messaging
import pytest
import webtest

from heat_lite.api import app as api_app
from heat_lite.common import exception, messaging, policy
from heat_lite.conf import CONF
from heat_lite.engine.service import STACK_NAME_RE
from heat_lite.rpc import api as rpc_api
from tests.fixtures import logcheck

TIME = "2026-11-25T22:01:01Z"


class FakeEngine:
    """An engine endpoint holding stacks in memory; everything completes at once."""

    target = oslo_messaging.Target(version=rpc_api.ENGINE_RPC_VERSION)

    def __init__(self):
        self.reset()

    def reset(self):
        self.stacks = {}  # id -> stack record
        self.calls = []  # (method, kwargs) as received
        self.failures = {}  # method -> exception to raise instead of answering
        self.last_context = None  # the RequestContext of the last create_stack

    # -- helpers ---------------------------------------------------------

    def _record(self, method, **kwargs):
        self.calls.append((method, kwargs))
        if method in self.failures:
            raise self.failures[method]

    def _get(self, ctx, identity):
        stack = self.stacks.get(identity["stack_id"])
        if stack is None or stack["name"] != identity["stack_name"]:
            raise exception.EntityNotFound(entity="Stack", name=identity["stack_name"])
        return stack

    @staticmethod
    def _identity(stack, path=""):
        return {
            "tenant": stack["tenant"],
            "stack_name": stack["name"],
            "stack_id": stack["id"],
            "path": path,
        }

    def _format_stack(self, stack, resolve_outputs=True):
        info = {
            "stack_identity": self._identity(stack),
            "stack_name": stack["name"],
            "creation_time": TIME,
            "updated_time": None,
            "deletion_time": None,
            "description": stack["template"].get("description", "No description"),
            "template_description": stack["template"].get("description", "No description"),
            "parameters": dict(
                stack["env"]["parameters"],
                **{
                    "OS::stack_id": stack["id"],
                    "OS::stack_name": stack["name"],
                    "OS::project_id": stack["tenant"],
                },
            ),
            "stack_action": "CREATE",
            "stack_status": "COMPLETE",
            "stack_status_reason": "Stack CREATE completed successfully",
            "disable_rollback": stack["args"].get("disable_rollback", True),
            "timeout_mins": stack["args"].get("timeout_mins"),
            "stack_owner": stack["owner"],
            "parent": None,
            "stack_user_project_id": stack["tenant"],
            "tags": stack["args"].get("tags"),
            "capabilities": [],
            "notification_topics": [],
        }
        if resolve_outputs:
            info["outputs"] = [
                {
                    "output_key": k,
                    "description": "No description given",
                    "output_value": v.get("value"),
                }
                for k, v in stack["template"].get("outputs", {}).items()
            ]
        return info

    def _format_resource(self, stack, name, rtype, detail=False):
        res = {
            "resource_identity": self._identity(stack, "/resources/%s" % name),
            "stack_identity": self._identity(stack),
            "stack_name": stack["name"],
            "resource_name": name,
            "physical_resource_id": "phys-%s" % name,
            "resource_action": "CREATE",
            "resource_status": "COMPLETE",
            "resource_status_reason": "state changed",
            "resource_type": rtype,
            "creation_time": TIME,
            "updated_time": TIME,
            "required_by": [],
        }
        if detail:
            res["description"] = ""
            res["attributes"] = {"value": "v-%s" % name}
        return res

    def _events(self, stack):
        events = []
        for name, rtype in [(stack["name"], "OS::Heat::Stack"), *stack["resources"].items()]:
            for status in ("IN_PROGRESS", "COMPLETE"):
                event_id = str(uuid.uuid5(uuid.UUID(stack["id"]), name + status))
                events.append(
                    {
                        "event_identity": self._identity(
                            stack, "/resources/%s/events/%s" % (name, event_id)
                        ),
                        "stack_identity": self._identity(stack),
                        "stack_name": stack["name"],
                        "event_time": TIME,
                        "resource_name": name,
                        "physical_resource_id": stack["id"]
                        if name == stack["name"]
                        else "phys-%s" % name,
                        "resource_action": "CREATE",
                        "resource_status": status,
                        "resource_status_reason": "state changed",
                        "resource_type": rtype,
                        "resource_properties": {},
                    }
                )
        return events

    # -- RPC methods (names and kwargs of heat's EngineService) ----------

    def create_stack(
        self,
        ctx,
        stack_name,
        template,
        params,
        files,
        args,
        environment_files=None,
        files_container=None,
        owner_id=None,
        nested_depth=0,
        user_creds_id=None,
        stack_user_project_id=None,
        parent_resource_name=None,
        template_id=None,
    ):
        self.last_context = ctx
        self._record(
            "create_stack",
            stack_name=stack_name,
            template=template,
            params=params,
            files=files,
            args=args,
            environment_files=environment_files,
        )
        if not STACK_NAME_RE.match(stack_name):
            raise exception.StackValidationFailed(
                message='Invalid stack name %s must contain only alphanumeric or "_-." '
                "characters, must start with alpha and must be 255 characters or less." % stack_name
            )
        if any(
            s["name"] == stack_name and s["tenant"] == ctx.project_id for s in self.stacks.values()
        ):
            raise exception.StackExists(stack_name=stack_name)
        stack = {
            "id": str(uuid.uuid4()),
            "name": stack_name,
            "tenant": ctx.project_id,
            "owner": ctx.username,
            "template": template,
            "env": params,
            "args": args,
            "resources": {n: r.get("type") for n, r in template.get("resources", {}).items()},
        }
        self.stacks[stack["id"]] = stack
        return self._identity(stack)

    def identify_stack(self, ctx, stack_name):
        self._record("identify_stack", stack_name=stack_name)
        for stack in self.stacks.values():
            if stack_name in (stack["id"], stack["name"]) and stack["tenant"] == ctx.project_id:
                return self._identity(stack)
        raise exception.EntityNotFound(entity="Stack", name=stack_name)

    def list_stacks(
        self,
        ctx,
        limit=None,
        marker=None,
        sort_keys=None,
        sort_dir=None,
        filters=None,
        show_deleted=False,
        show_nested=False,
        show_hidden=False,
        tags=None,
        tags_any=None,
        not_tags=None,
        not_tags_any=None,
    ):
        self._record(
            "list_stacks",
            limit=limit,
            marker=marker,
            filters=filters,
            show_deleted=show_deleted,
            tags=tags,
        )
        stacks = [
            self._format_stack(s, resolve_outputs=False)
            for s in self.stacks.values()
            if s["tenant"] == ctx.project_id
        ]
        for s in stacks:
            s["description"] = ""
            for key in (
                "parameters",
                "template_description",
                "capabilities",
                "notification_topics",
                "timeout_mins",
                "disable_rollback",
            ):
                s.pop(key)
        return stacks[:limit] if limit else stacks

    def count_stacks(
        self,
        ctx,
        filters=None,
        show_deleted=False,
        show_nested=False,
        show_hidden=False,
        tags=None,
        tags_any=None,
        not_tags=None,
        not_tags_any=None,
    ):
        return len([s for s in self.stacks.values() if s["tenant"] == ctx.project_id])

    def show_stack(self, ctx, stack_identity, resolve_outputs=True):
        self._record("show_stack", stack_identity=stack_identity, resolve_outputs=resolve_outputs)
        return [self._format_stack(self._get(ctx, stack_identity), resolve_outputs)]

    def get_template(self, ctx, stack_identity):
        return self._get(ctx, stack_identity)["template"]

    def delete_stack(self, ctx, stack_identity):
        self._record("delete_stack", stack_identity=stack_identity)
        del self.stacks[self._get(ctx, stack_identity)["id"]]

    def list_stack_resources(
        self, ctx, stack_identity, nested_depth=0, with_detail=False, filters=None
    ):
        self._record(
            "list_stack_resources",
            stack_identity=stack_identity,
            nested_depth=nested_depth,
            with_detail=with_detail,
            filters=filters,
        )
        stack = self._get(ctx, stack_identity)
        return [
            self._format_resource(stack, n, t, with_detail) for n, t in stack["resources"].items()
        ]

    def list_stack_resources_if_changed(
        self,
        ctx,
        stack_identity,
        version_seen=None,
        nested_depth=0,
        with_detail=False,
        filters=None,
    ):
        """No versions here: the API compares the lists."""
        resources = self.list_stack_resources(
            ctx, stack_identity, nested_depth, with_detail, filters
        )
        return {"version": None, "resources": resources}

    def describe_stack_resource(self, ctx, stack_identity, resource_name, with_attr=None):
        self._record("describe_stack_resource", resource_name=resource_name, with_attr=with_attr)
        stack = self._get(ctx, stack_identity)
        if resource_name not in stack["resources"]:
            raise exception.ResourceNotFound(resource_name=resource_name, stack_name=stack["name"])
        return self._format_resource(
            stack, resource_name, stack["resources"][resource_name], detail=True
        )

    def list_events(
        self,
        ctx,
        stack_identity,
        filters=None,
        limit=None,
        marker=None,
        sort_keys=None,
        sort_dir=None,
        nested_depth=None,
    ):
        self._record(
            "list_events",
            filters=filters,
            limit=limit,
            marker=marker,
            sort_keys=sort_keys,
            sort_dir=sort_dir,
            nested_depth=nested_depth,
        )
        events = self._events(self._get(ctx, stack_identity))
        for key, value in (filters or {}).items():
            if key == "uuid":
                events = [e for e in events if e["event_identity"]["path"].endswith(value)]
            else:
                events = [e for e in events if e[key] == value]
        return events[:limit] if limit else events

    def list_outputs(self, ctx, stack_identity):
        stack = self._get(ctx, stack_identity)
        return [
            {"output_key": k, "description": "No description given"}
            for k in stack["template"].get("outputs", {})
        ]

    def show_output(self, ctx, stack_identity, output_key):
        stack = self._get(ctx, stack_identity)
        outputs = stack["template"].get("outputs", {})
        if output_key not in outputs:
            raise exception.NotFound("Specified output key %s not found." % output_key)
        return {
            "output_key": output_key,
            "description": "No description given",
            "output_value": outputs[output_key].get("value"),
        }


@pytest.fixture(scope="module")
def heat_conf():
    CONF([], project="heat-lite", default_config_files=[], default_config_dirs=[])
    policy.reset()
    yield CONF
    policy.reset()


@pytest.fixture(scope="module")
def _engine_server(heat_conf):
    """FakeEngine served on topic 'engine' over fake:// for one test module.

    (Stopping an RPC server takes about a second, so it is not done per test.)
    """
    messaging.setup("fake://")
    # the API's own logs (the FakeEngine's RPC server logs every exception it raises)
    api_logger = logging.getLogger("heat_lite")
    logs = logcheck.watch_logging("heat-lite-api in process", logger=api_logger)
    fake = FakeEngine()
    target = oslo_messaging.Target(
        topic=rpc_api.ENGINE_TOPIC, server="fake-engine", version=rpc_api.ENGINE_RPC_VERSION
    )
    server = messaging.get_rpc_server(target, [fake], executor="threading")
    server.start()
    yield fake
    server.stop()
    server.wait()
    messaging.cleanup()
    logcheck.retire(logs, logger=api_logger)


@pytest.fixture
def engine(_engine_server):
    """The module's FakeEngine, emptied for this test."""
    _engine_server.reset()
    return _engine_server


@pytest.fixture
def wsgi_app(engine):
    return api_app.setup_app()


@pytest.fixture
def api(wsgi_app):
    return webtest.TestApp(wsgi_app)
