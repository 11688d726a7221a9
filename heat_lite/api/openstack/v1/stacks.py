"""Stacks: ``/v1/{tenant}/stacks...`` (docs/heat-api.md §4.1). Thin handlers over EngineClient.

POST /v1/p1/stacks {"stack_name": "s1", "template": {...}}
  -> StackController.create -> rpc_client.create_stack(ctx, 's1', template, env, ...)
  <- 201, Location: .../v1/p1/stacks/s1/<id>, {"stack": {"id", "links"}}
"""

import contextlib
import urllib.parse

from webob import exc

from heat_lite.api.openstack.v1 import util
from heat_lite.api.openstack.v1.views import stacks_view
from heat_lite.common import (
    context,
    cpu_budget,
    environment_format,
    identifier,
    policy,
    template_format,
)
from heat_lite.rpc import api as rpc_api

PARAM_ADOPT_STACK_DATA = "adopt_stack_data"
PARAM_CONVERGE = "converge"
PARAM_GLOBAL_TENANT = "global_tenant"
PARAM_RESOLVE_OUTPUTS = "resolve_outputs"
PARAM_WITH_COUNT = "with_count"
PARAM_SHOW_NESTED = "show_nested"
PARAM_IGNORE_ERRORS = "ignore_errors"
PARAM_WITH_DESCRIPTION = "with_description"
PARAM_WITH_CONDITION_FUNC = "with_condition_func"
PARAM_TEMPLATE_TYPE = "template_type"


class InstantiationData:
    """The body of a create or update request (docs/heat-api.md §4.1.2), parsed on demand."""

    PARAMS = (
        PARAM_STACK_NAME,
        PARAM_TEMPLATE,
        PARAM_TEMPLATE_URL,
        PARAM_USER_PARAMS,
        PARAM_ENVIRONMENT,
        PARAM_FILES,
        PARAM_ENVIRONMENT_FILES,
        PARAM_FILES_CONTAINER,
    ) = (
        "stack_name",
        "template",
        "template_url",
        "parameters",
        "environment",
        "files",
        "environment_files",
        "files_container",
    )

    def __init__(self, data, patch=False):
        self.data = data
        self.patch = patch
        if patch:
            self.data[rpc_api.PARAM_EXISTING] = True

    @staticmethod
    @contextlib.contextmanager
    def parse_error_check(data_type):
        try:
            yield
        except ValueError as parse_ex:
            raise exc.HTTPBadRequest("%s not in valid format: %s" % (data_type, parse_ex))

    def stack_name(self):
        if self.PARAM_STACK_NAME not in self.data:
            raise exc.HTTPBadRequest("No stack name specified")
        return self.data[self.PARAM_STACK_NAME]

    def template(self):
        """The template dict: given inline (dict or JSON/YAML text).

        A dict is size-checked on its ``str()``, as Heat does.
        """
        if PARAM_ADOPT_STACK_DATA in self.data:
            return self._adopt_template()
        template_data = self.data.get(self.PARAM_TEMPLATE)
        if isinstance(template_data, dict):
            template_format.check_size(str(template_data))
            return template_data
        if template_data is None and self.PARAM_TEMPLATE_URL in self.data:
            # template_url is not fetched (Heat's heat/common/urlfetch.py does)
            raise exc.HTTPBadRequest("Could not retrieve template: template_url is not supported")
        if template_data is None:
            if self.patch:
                return None
            raise exc.HTTPBadRequest("No template specified")
        with self.parse_error_check("Template"):
            # off the hub: half a megabyte of YAML takes a good fraction of a second
            return cpu_budget.call(template_format.parse, template_data)

    def _adopt_template(self):
        """The template inside ``adopt_stack_data`` (a JSON/YAML string), as Heat."""
        adopt_data = self.data[PARAM_ADOPT_STACK_DATA]
        if not isinstance(adopt_data, str):
            raise exc.HTTPBadRequest(util.MALFORMED_REQUEST)
        try:
            adopt_data = template_format.simple_parse(adopt_data)
            template_format.check_size(str(adopt_data["template"]))
            return adopt_data["template"]
        except (ValueError, KeyError) as ex:
            raise exc.HTTPBadRequest("Invalid adopt data: %s" % ex)

    def environment(self):
        """The user environment with ``parameters`` merged in (they win).

        The ``environment`` key is ignored when ``environment_files`` is non-empty:
        the engine then merges those files itself.
        """
        env = {}
        if self.PARAM_ENVIRONMENT in self.data and not self.data.get(self.PARAM_ENVIRONMENT_FILES):
            env_data = self.data[self.PARAM_ENVIRONMENT]
            with self.parse_error_check("Environment"):
                env = cpu_budget.call(environment_format.parse, env_data)
        environment_format.default_for_missing(env)
        env[self.PARAM_USER_PARAMS].update(self.data.get(self.PARAM_USER_PARAMS) or {})
        return env

    def files(self):
        return self.data.get(self.PARAM_FILES) or {}

    def environment_files(self):
        return self.data.get(self.PARAM_ENVIRONMENT_FILES)

    def files_container(self):
        return self.data.get(self.PARAM_FILES_CONTAINER)

    def args(self):
        """Every other key (timeout_mins, disable_rollback, tags, ...) goes to the engine."""
        return {k: v for k, v in self.data.items() if k not in self.PARAMS}


class StackController:
    """Handlers for the stack routes; policy names are ``stacks:<handler name>``."""

    REQUEST_SCOPE = "stacks"

    def __init__(self, rpc_client):
        self.rpc_client = rpc_client

    # -- collection -------------------------------------------------------

    _LIST_PARAMS = {
        "limit": util.PARAM_TYPE_SINGLE,
        "marker": util.PARAM_TYPE_SINGLE,
        "sort_dir": util.PARAM_TYPE_SINGLE,
        "sort_keys": util.PARAM_TYPE_MULTI,
        "show_deleted": util.PARAM_TYPE_SINGLE,
        "show_nested": util.PARAM_TYPE_SINGLE,
        "show_hidden": util.PARAM_TYPE_SINGLE,
        "tags": util.PARAM_TYPE_SINGLE,
        "tags_any": util.PARAM_TYPE_SINGLE,
        "not_tags": util.PARAM_TYPE_SINGLE,
        "not_tags_any": util.PARAM_TYPE_SINGLE,
    }
    # Filters: the historic short names plus the stack keys stored in the stacks table.
    _LIST_FILTERS = dict.fromkeys(
        (
            "id",
            "status",
            "name",
            "action",
            "tenant",
            "username",
            "owner_id",
            rpc_api.STACK_NAME,
            rpc_api.STACK_ACTION,
            rpc_api.STACK_STATUS,
            rpc_api.STACK_STATUS_DATA,
            rpc_api.STACK_DISABLE_ROLLBACK,
            rpc_api.STACK_TIMEOUT,
            rpc_api.STACK_OWNER,
            rpc_api.STACK_PARENT,
            rpc_api.STACK_USER_PROJECT_ID,
        ),
        util.PARAM_TYPE_MIXED,
    )
    _BOOL_PARAMS = ("show_deleted", "show_nested", "show_hidden")
    _TAG_PARAMS = ("tags", "tags_any", "not_tags", "not_tags_any")

    def _list_params(self, req):
        params = util.get_allowed_params(req.params, self._LIST_PARAMS)
        for key in self._BOOL_PARAMS:
            if key in params:
                params[key] = util.bad_request_on_value_error(util.extract_bool, key, params[key])
        if "limit" in params:
            params["limit"] = util.bad_request_on_value_error(
                util.extract_int, "limit", params["limit"]
            )
        for key in self._TAG_PARAMS:
            if key in params:
                params[key] = util.bad_request_on_value_error(util.extract_tags, params[key])
        filters = util.get_allowed_params(req.params, self._LIST_FILTERS) or None
        return params, filters

    def _index(self, req, ctx):
        params, filters = self._list_params(req)
        with_count = False
        if req.params.get(PARAM_WITH_COUNT):
            with_count = util.bad_request_on_value_error(
                util.extract_bool, PARAM_WITH_COUNT, req.params.get(PARAM_WITH_COUNT)
            )
        stacks = self.rpc_client.list_stacks(ctx, filters=filters, **params)
        count = None
        if with_count:
            count_args = {
                k: v for k, v in params.items() if k in self._BOOL_PARAMS or k in self._TAG_PARAMS
            }
            count = self.rpc_client.count_stacks(ctx, filters=filters, **count_args)
        return stacks_view.collection(req, stacks, count=count, include_project=ctx.is_admin)

    @util.registered_policy_enforce
    def global_index(self, req, ctx):
        """GET /stacks?global_tenant=true: every project's stacks, listed with an admin
        context. Policy 'stacks:global_index' denies everybody by default
        (docs/heat-api.md §4.1.1)."""
        admin_ctx = context.RequestContext.from_dict(dict(ctx.to_dict(), is_admin=True))
        return self._index(req, admin_ctx)

    @util.registered_policy_enforce
    def index(self, req, ctx):
        """GET /stacks: summaries of the caller's stacks (docs/heat-api.md §4.1.1)."""
        global_tenant = req.params.get(PARAM_GLOBAL_TENANT)
        if global_tenant is not None and util.bad_request_on_value_error(
            util.extract_bool, PARAM_GLOBAL_TENANT, global_tenant
        ):
            return self.global_index(req, ctx.project_id)
        return self._index(req, ctx)

    @util.registered_policy_enforce
    def detail(self, req, ctx):
        """GET /stacks/detail: full stack dicts, no filtering."""
        stacks = self.rpc_client.list_stacks(ctx)
        return {"stacks": [stacks_view.format_stack(req, s) for s in stacks]}

    def _prepare_args(self, data, is_update=False):
        args = data.args()
        if rpc_api.PARAM_TIMEOUT in args:
            args[rpc_api.PARAM_TIMEOUT] = util.bad_request_on_value_error(
                util.extract_int, rpc_api.PARAM_TIMEOUT, args[rpc_api.PARAM_TIMEOUT]
            )
        if args.get(rpc_api.PARAM_TAGS) is not None:
            args[rpc_api.PARAM_TAGS] = util.bad_request_on_value_error(
                util.extract_tags, args[rpc_api.PARAM_TAGS]
            )
        if not is_update and PARAM_CONVERGE in args:
            raise exc.HTTPBadRequest(
                "%s flag only supported in stack update (or update preview) request."
                % PARAM_CONVERGE
            )
        return args

    @util.registered_policy_enforce
    def create(self, req, ctx, body):
        """POST /stacks -> 201 + Location."""
        data = InstantiationData(body)
        args = self._prepare_args(data)
        identity = self.rpc_client.create_stack(
            ctx,
            data.stack_name(),
            data.template(),
            data.environment(),
            data.files(),
            args,
            environment_files=data.environment_files(),
            files_container=data.files_container(),
        )
        stack = stacks_view.format_stack(req, {rpc_api.STACK_ID: identity})
        return util.created({"stack": stack}, stack["links"][0]["href"])

    # -- one stack ------------------------------------------------------

    @util.registered_policy_enforce
    def lookup(self, req, ctx, stack_name, path="", body=None):
        """Any method on /stacks/{name or id}[/path] -> 302 to /stacks/{name}/{id}[/path]."""
        try:
            identity = dict(identifier.HeatIdentifier.from_arn(stack_name))
        except ValueError:
            identity = self.rpc_client.identify_stack(ctx, stack_name)
        location = util.make_url(req, identity)
        if path:
            location = "/".join([location, path])
        if req.params:
            location += "?%s" % urllib.parse.urlencode(list(req.params.items()))
        return util.redirect(location)

    @util.registered_identified_stack
    def show(self, req, ctx, identity):
        """GET /stacks/{name}/{id}[?resolve_outputs=false]."""
        resolve_outputs = True
        if PARAM_RESOLVE_OUTPUTS in req.params:
            resolve_outputs = util.bad_request_on_value_error(
                util.extract_bool, PARAM_RESOLVE_OUTPUTS, req.params[PARAM_RESOLVE_OUTPUTS]
            )
        stack_list = self.rpc_client.show_stack(ctx, identity, resolve_outputs)
        if not stack_list:
            raise exc.HTTPInternalServerError()
        return {"stack": stacks_view.format_stack(req, stack_list[0])}

    @util.registered_identified_stack
    def template(self, req, ctx, identity):
        """GET /stacks/{name}/{id}/template: the template as stored."""
        return self.rpc_client.get_template(ctx, identity)

    def _update(self, req, ctx, identity, data):
        self.rpc_client.update_stack(
            ctx,
            identity,
            data.template(),
            data.environment(),
            data.files(),
            self._prepare_args(data, is_update=True),
            environment_files=data.environment_files(),
            files_container=data.files_container(),
        )
        return util.accepted()

    @util.registered_identified_stack
    def update(self, req, ctx, identity, body):
        """PUT /stacks/{name}/{id}: full replacement (docs/heat-api.md §4.1.2) -> 202."""
        return self._update(req, ctx, identity, InstantiationData(body))

    @util.no_policy_enforce
    def update_patch(self, req, ctx, stack_name, stack_id, body):
        """PATCH /stacks/{name}/{id}: amend the current definition (docs/heat-api.md §4.1.3) -> 202.

        An empty body is checked against ``stacks:update_no_change`` instead.
        """
        action = "update_patch" if body else "update_no_change"
        policy.enforce(ctx, "%s:%s" % (self.REQUEST_SCOPE, action), {"project_id": ctx.project_id})
        identity = dict(identifier.HeatIdentifier(ctx.project_id, stack_name, stack_id))
        return self._update(req, ctx, identity, InstantiationData(body, patch=True))

    def _preview_update(self, req, ctx, identity, data):
        """``{"resource_changes": {"added", "deleted", "replaced", "unchanged", "updated"}}``
        with the engine's raw resource dicts
        (docs/heat-api.md §5.6); ``show_nested`` is accepted and
        checked but nested stacks are not expanded (Heat expands them)."""
        if PARAM_SHOW_NESTED in req.params:
            util.bad_request_on_value_error(
                util.extract_bool, PARAM_SHOW_NESTED, req.params[PARAM_SHOW_NESTED]
            )
        changes = self.rpc_client.preview_update_stack(
            ctx,
            identity,
            data.template(),
            data.environment(),
            data.files(),
            self._prepare_args(data, is_update=True),
            environment_files=data.environment_files(),
            files_container=data.files_container(),
        )
        return {"resource_changes": changes}

    @util.registered_identified_stack
    def preview_update(self, req, ctx, identity, body):
        """PUT /stacks/{name}/{id}/preview: what a full update would change."""
        return self._preview_update(req, ctx, identity, InstantiationData(body))

    @util.registered_identified_stack
    def preview_update_patch(self, req, ctx, identity, body):
        """PATCH /stacks/{name}/{id}/preview: what a PATCH update would change."""
        return self._preview_update(req, ctx, identity, InstantiationData(body, patch=True))

    @util.registered_identified_stack
    def delete(self, req, ctx, identity):
        """DELETE /stacks/{name}/{id} -> 204."""
        self.rpc_client.delete_stack(ctx, identity, cast=False)
        return util.no_content()

    @util.registered_identified_stack
    def abandon(self, req, ctx, identity):
        """DELETE /stacks/{name}/{id}/abandon: the stack's data; the stack is deleted,
        its resources kept (400 unless enable_stack_abandon)."""
        return self.rpc_client.abandon_stack(ctx, identity)

    @util.registered_identified_stack
    def export(self, req, ctx, identity):
        """GET /stacks/{name}/{id}/export: the abandon data, nothing deleted."""
        return self.rpc_client.export_stack(ctx, identity)

    @util.registered_identified_stack
    def list_outputs(self, req, ctx, identity):
        return {"outputs": self.rpc_client.list_outputs(ctx, identity)}

    @util.registered_identified_stack
    def show_output(self, req, ctx, identity, output_key):
        return {"output": self.rpc_client.show_output(ctx, identity, output_key)}

    @util.registered_identified_stack
    def environment(self, req, ctx, identity):
        """GET /stacks/{name}/{id}/environment: as stored, hidden values as ``******``."""
        return self.rpc_client.get_environment(ctx, identity)

    @util.registered_identified_stack
    def files(self, req, ctx, identity):
        """GET /stacks/{name}/{id}/files: ``{name: content}``."""
        return self.rpc_client.get_files(ctx, identity)

    @util.registered_policy_enforce
    def preview(self, req, ctx, body):
        """POST /stacks/preview: the stack and resources a create would make
        (docs/heat-api.md §5.6)."""
        data = InstantiationData(body)
        result = self.rpc_client.preview_stack(
            ctx,
            data.stack_name(),
            data.template(),
            data.environment(),
            data.files(),
            self._prepare_args(data),
            environment_files=data.environment_files(),
            files_container=data.files_container(),
        )
        return {"stack": stacks_view.format_stack(req, result)}

    # -- templates and resource types --------------------------------------------------

    @util.registered_policy_enforce
    def validate_template(self, req, ctx, body):
        """POST /validate[?show_nested=true][&ignore_errors=99001]:
        docs/heat-api.md §5.5, or 400."""
        data = InstantiationData(body)
        params = util.get_allowed_params(req.params, self._VALIDATE_PARAMS)
        show_nested = False
        if PARAM_SHOW_NESTED in params:
            show_nested = util.bad_request_on_value_error(
                util.extract_bool, PARAM_SHOW_NESTED, params[PARAM_SHOW_NESTED]
            )
        ignorable_errors = None
        if PARAM_IGNORE_ERRORS in params:
            ignorable_errors = params[PARAM_IGNORE_ERRORS].split(",")
        result = self.rpc_client.validate_template(
            ctx,
            data.template(),
            data.environment(),
            files=data.files(),
            environment_files=data.environment_files(),
            files_container=data.files_container(),
            show_nested=show_nested,
            ignorable_errors=ignorable_errors,
        )
        if "Error" in result:
            raise exc.HTTPBadRequest(result["Error"])
        return result

    _VALIDATE_PARAMS = {
        PARAM_SHOW_NESTED: util.PARAM_TYPE_SINGLE,
        PARAM_IGNORE_ERRORS: util.PARAM_TYPE_SINGLE,
    }

    def _optional_bool(self, req, name):
        if req.params.get(name) is None:
            return False
        return util.bad_request_on_value_error(util.extract_bool, name, req.params.get(name))

    @util.registered_policy_enforce
    def list_resource_types(self, req, ctx):
        """GET /resource_types[?name=<regex>&version=&support_status=&with_description=]."""
        types = self.rpc_client.list_resource_types(
            ctx,
            support_status=req.params.get("support_status"),
            type_name=req.params.get("name"),
            heat_version=req.params.get("version"),
            with_description=self._optional_bool(req, PARAM_WITH_DESCRIPTION),
        )
        return {"resource_types": types}

    @util.registered_policy_enforce
    def resource_schema(self, req, ctx, type_name):
        """GET /resource_types/{type}.

        Heat's router does not hand the query string to this handler, so a
        ``?with_description=true`` from the client has no effect (kept as is).
        """
        return self.rpc_client.resource_schema(ctx, type_name, with_description=False)

    @util.registered_policy_enforce
    def generate_template(self, req, ctx, type_name):
        """GET /resource_types/{type}/template[?template_type=cfn|hot] (default cfn)."""
        template_type = "cfn"
        if PARAM_TEMPLATE_TYPE in req.params:
            try:
                template_type = util.extract_template_type(req.params.get(PARAM_TEMPLATE_TYPE))
            except ValueError as ex:
                raise exc.HTTPBadRequest("Template type is not supported: %s" % ex)
        return self.rpc_client.generate_template(ctx, type_name, template_type)

    @util.registered_policy_enforce
    def list_template_versions(self, req, ctx):
        return {"template_versions": self.rpc_client.list_template_versions(ctx)}

    @util.registered_policy_enforce
    def list_template_functions(self, req, ctx, template_version):
        """GET /template_versions/{version}/functions[?with_condition_func=true]."""
        functions = self.rpc_client.list_template_functions(
            ctx, template_version, self._optional_bool(req, PARAM_WITH_CONDITION_FUNC)
        )
        return {"template_functions": functions}
