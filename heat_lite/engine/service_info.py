"""The engine's read-only RPC methods: a stack's template, environment, files and
outputs; stack preview; resource types; template versions and functions; template
validation; services and revision. None of them stores anything.

``InfoMethods`` is an endpoint of topic ``engine`` (heat_lite.engine.service.endpoints);
it finds and builds stacks with heat_lite.engine.stack_loader.

    engine.resource_schema(ctx, 'OS::Heat::RandomString')
    -> {'resource_type': ..., 'properties': {...}, 'attributes': {...}, 'support_status': {...}}
    engine.validate_template(ctx, template, {'parameters': {'p': 'x'}, ...})
    -> {'Description': ..., 'Parameters': {...}, 'Environment': {...}}  or  {'Error': '...'}
"""

import copy
import pydoc
import re

import oslo_messaging

from heat_lite.common import exception, policy, template_format
from heat_lite.conf import CONF
from heat_lite.db import api as db_api
from heat_lite.engine import (
    api,
    attributes,
    environment,
    parameter_groups,
    parameters,
    properties,
    resources,
    service_resources,
    stack_loader,
    templates,
    update,
)
from heat_lite.engine import stack as parser
from heat_lite.engine import template as tmpl_mod
from heat_lite.rpc import api as rpc_api

expected = oslo_messaging.expected_exceptions(exception.HeatException)

SUPPORT_STATUSES = (UNKNOWN, SUPPORTED, DEPRECATED, UNSUPPORTED, HIDDEN) = (
    "UNKNOWN",
    "SUPPORTED",
    "DEPRECATED",
    "UNSUPPORTED",
    "HIDDEN",
)

# error codes ``POST /validate?ignore_errors=`` accepts (Heat's ERROR_CODE_MAP: 99001 is
# "service not available for resource type", which heat-lite never raises)
IGNORABLE_ERROR_CODES = ("99001",)

# the sections of a user environment shown in the validate result
USER_ENV_SECTIONS = (
    environment.RESOURCE_REGISTRY,
    environment.PARAMETERS,
    environment.PARAMETER_DEFAULTS,
    environment.EVENT_SINKS,
)


class InfoMethods:
    """Read-only endpoint methods."""

    target = oslo_messaging.Target(version=rpc_api.ENGINE_RPC_VERSION)

    # -- one stack: template, environment, files, outputs ---------------------------------

    @expected
    def get_template(self, cnxt, stack_identity):
        return stack_loader.load_stack(cnxt, stack_identity, show_deleted=True).t.t

    @expected
    def get_environment(self, cnxt, stack_identity):
        """The stored environment; values of hidden parameters become ``******``."""
        row = stack_loader.stack_row(cnxt, stack_identity, show_deleted=True)
        tmpl = templates.load(row.raw_template_id)
        schemata = tmpl.param_schemata()
        env = copy.deepcopy(tmpl.env or {})
        for section in (environment.PARAMETERS, environment.PARAMETER_DEFAULTS):
            values = env.get(section) or {}
            for name in values:
                if name in schemata and schemata[name].hidden:
                    values[name] = "******"
        return _in_heat_order(env)

    @expected
    def get_files(self, cnxt, stack_identity):
        row = stack_loader.stack_row(cnxt, stack_identity, show_deleted=True)
        return dict(templates.load(row.raw_template_id).files)

    @expected
    def list_outputs(self, cnxt, stack_identity):
        """Keys and descriptions, no values."""
        stack = stack_loader.load_stack(cnxt, stack_identity)
        return [
            {"output_key": o.name, "description": o.description()}
            for o in stack.t.outputs(stack).values()
        ]

    @expected
    def show_output(self, cnxt, stack_identity, output_key):
        """One output with its value (or ``output_error``); NotFound for an unknown key."""
        stack = stack_loader.load_stack(cnxt, stack_identity)
        outputs = stack.t.outputs(stack)
        if output_key not in outputs:
            raise exception.NotFound("Specified output key %s not found." % output_key)
        output = outputs[output_key]
        stack.node_data = stack.stored_node_data(output.required_resource_names())
        return api.format_stack_output(output)

    @expected
    def preview_stack(
        self,
        cnxt,
        stack_name,
        template,
        params,
        files,
        args,
        environment_files=None,
        files_container=None,
    ):
        """The stack and resources create_stack would make (validated as it does), unstored."""
        stack = stack_loader.new_stack(
            cnxt, stack_name, template, params, files, args, environment_files
        )
        stack.id = None  # a preview is never stored: Heat shows its id as "None"
        previews = preview_resources(stack)
        parameters = stack.t.parameters(
            stack.identifier(),
            stack.env.get(environment.PARAMETERS) or {},
            stack.env.get(environment.PARAMETER_DEFAULTS),
        )
        return api.format_stack_preview(stack, parameters.map(str), previews)

    @expected
    def preview_update_stack(
        self,
        cnxt,
        stack_identity,
        template,
        params,
        files,
        args,
        environment_files=None,
        files_container=None,
    ):
        """What update_stack would do to each resource (Heat's StackUpdate.preview):
        ``{"unchanged"|"updated"|"replaced"|"added"|"deleted": [resource dicts]}`` --
        the current resources for updated and deleted, the new unstored ones otherwise.

        :raises: the errors of update_stack; nothing is changed
        """
        stack = stack_loader.load_stack(cnxt, stack_identity)
        _tmpl, updated = stack_loader.updated_stack(
            cnxt, stack, template, params, files, args or {}, environment_files
        )
        rows = [
            r
            for r in service_resources.current_rows(db_api.resource_get_all_by_stack(stack.id))
            if not (r.action == rpc_api.DELETE and r.status == rpc_api.COMPLETE)
        ]
        by_name = {r.name: r for r in rows}
        updated.node_data = stack.stored_node_data()
        new = _resource_previews(updated)
        result = {}
        for kind, names in update.preview(stack, by_name, updated).items():
            if kind in (update.UPDATED, update.DELETED):
                result[kind] = [
                    service_resources.resource_detail(cnxt, stack, rows, by_name[n]) for n in names
                ]
            else:
                result[kind] = [new[n] for n in names]
        for info in new.values():
            info.pop("properties")  # Heat's update preview shows none
        return result

    # -- resource types -------------------------------------------------------------------

    @expected
    def list_resource_types(
        self, cnxt, support_status=None, type_name=None, heat_version=None, with_description=False
    ):
        """Sorted type names (or ``{"resource_type", "description"}`` items) that match.

        ``type_name`` is a regex matched from the start; an invalid one matches nothing.
        Hidden types and types the caller's ``resource_types:<type>`` policy denies are left out.
        """
        if support_status is not None and support_status not in SUPPORT_STATUSES:
            raise exception.Invalid(
                reason="Invalid support status and should be one of %s" % str(SUPPORT_STATUSES)
            )
        try:
            name_exp = re.compile(type_name) if type_name is not None else None
        except re.error:
            return []
        result = []
        for name, cls in sorted(resources.registry().items()):
            if name_exp is not None and not name_exp.match(name):
                continue
            status = support_status_of(cls)
            if (
                status["status"] == HIDDEN
                or heat_version is not None
                and status["version"] != heat_version
                or support_status is not None
                and status["status"] != support_status
                or not _type_allowed(cnxt, name)
            ):
                continue
            if with_description:
                result.append({"resource_type": name, "description": getdoc(cls)})
            else:
                result.append(name)
        return result

    @expected
    def resource_schema(self, cnxt, type_name, with_description=False):
        """Properties (Heat's JSON schema form), attributes and support status of a type."""
        cls = _resource_class(cnxt, type_name)
        attr_schema = dict(cls.attributes_schema, **attributes.BASE_ATTRIBUTES_SCHEMA)
        result = {
            "resource_type": type_name,
            "properties": {
                name: dict(schema)
                for name, schema in cls.properties_schema.items()
                if schema.implemented
            },
            "attributes": {name: dict(schema) for name, schema in attr_schema.items()},
            "support_status": support_status_of(cls),
        }
        if with_description:
            result["description"] = getdoc(cls)
        return result

    @expected
    def generate_template(self, cnxt, type_name, template_type="cfn"):
        """A template wrapping one resource of the type: properties become parameters."""
        return resource_to_template(type_name, _resource_class(cnxt, type_name), template_type)

    # -- template versions ----------------------------------------------------------------

    @expected
    def list_template_versions(self, cnxt):
        return tmpl_mod.template_versions()

    @expected
    def list_template_functions(self, cnxt, template_version, with_condition=False):
        return tmpl_mod.template_functions(template_version, with_condition=with_condition)

    # -- validation -----------------------------------------------------------------------

    @expected
    def validate_template(
        self,
        cnxt,
        template,
        params=None,
        files=None,
        environment_files=None,
        files_container=None,
        show_nested=False,
        ignorable_errors=None,
    ):
        """Check a template as far as possible without parameter or property values.

        :returns: Heat's validate result (docs/heat-api.md §5.5), or ``{"Error": message}`` for a
            validation failure (the API answers 400 with it)
        :raises: InvalidTemplateVersion, InvalidSchemaError, UnknownUserParameter,
            InvalidTemplateReference, CircularDependencyException (400 at the API)
        """
        if template is None or set(ignorable_errors or ()) - set(IGNORABLE_ERROR_CODES):
            # Heat's engine returns a webob HTTPBadRequest here; serialised over RPC it
            # reaches the client as this string, with a 200 (kept for compatibility).
            return "<HTTPBadRequest at 0x%x 400 Bad Request>" % id(template)
        files = files or {}
        tmpl = tmpl_mod.Template(template, files=files)
        tmpl.env = environment.merge(params, files, environment_files)
        environment.register_template_types(tmpl.env, tmpl)
        try:
            tmpl.validate()
            stack_loader.check_resource_limit(tmpl)
        except Exception as ex:
            return {"Error": str(ex)}
        stack = parser.Stack(cnxt, "dummy", tmpl)
        try:
            validate_stack_structure(stack, ignorable_errors)
        except exception.StackValidationFailed as ex:
            return {"Error": str(ex)}
        result = {
            "Description": tmpl.description,
            "Parameters": _validate_parameters(stack),
        }
        if parameter_groups.groups_of(tmpl):
            result["ParameterGroups"] = parameter_groups.groups_of(tmpl)
        if show_nested:
            nested = _nested_parameters(cnxt, stack)
            if nested:
                result["NestedParameters"] = nested
        result["Environment"] = {key: tmpl.env.get(key) for key in USER_ENV_SECTIONS}
        return result

    # -- the service itself ---------------------------------------------------------------

    @expected
    def list_services(self, cnxt):
        now = db_api.utcnow()
        # the engines (workers register too, for their liveness: not listed)
        rows = [row for row in db_api.service_get_all() if row.binary == "heat-engine"]
        return [api.format_service(row, now) for row in rows]

    @expected
    def get_revision(self, cnxt):
        return CONF.revision.heat_revision


# -- resource type helpers ---------------------------------------------------------------


def support_status_of(cls):
    """A plugin's ``support_status`` as a dict; plugins declaring none are SUPPORTED."""
    status = getattr(cls, "support_status", None)
    if status is None:
        return {"status": SUPPORTED, "message": None, "version": None, "previous_status": None}
    return status.to_dict() if hasattr(status, "to_dict") else dict(status)


def getdoc(cls):
    if cls.__doc__ is None:
        return "No description available"
    return pydoc.getdoc(cls)


def _type_allowed(cnxt, type_name):
    """Whether ``resource_types:<type>`` (and ``<namespace>::*``) rules, where registered, pass."""
    registered = policy.get_enforcer().registered_rules
    wildcard = "::".join(type_name.split("::")[:-1] + ["*"])
    for name in (type_name, wildcard):
        rule = "resource_types:%s" % name
        if rule in registered and not policy.enforce(cnxt, rule, {}, do_raise=False):
            return False
    return True


def _resource_class(cnxt, type_name):
    """The plugin class of a type the caller may see: 404 unknown, 403 denied, 400 hidden."""
    if not _type_allowed(cnxt, type_name):
        raise exception.Forbidden(action=type_name)
    cls = resources.registry().get(type_name)
    if cls is None:
        raise exception.EntityNotFound(entity="Resource Type", name=type_name)
    if support_status_of(cls)["status"] == HIDDEN:
        raise exception.NotSupported(feature=type_name)
    return cls


def resource_to_template(type_name, cls, template_type="cfn"):
    """The provider template of a type (``hot``, else ``cfn``): Heat's resource_to_template."""
    params, props = properties.schema_to_parameters_and_properties(
        cls.properties_schema, template_type
    )
    name = cls.__name__
    outputs = attributes.as_outputs(
        name, dict(cls.attributes_schema, **attributes.BASE_ATTRIBUTES_SCHEMA), template_type
    )
    description = "Initial template of %s" % name
    if template_type == "hot":
        return {
            "heat_template_version": "2016-10-14",
            "description": description,
            "parameters": params,
            "outputs": outputs,
            "resources": {name: {"type": type_name, "properties": props}},
        }
    return {
        "HeatTemplateFormatVersion": "2012-12-12",
        "Description": description,
        "Parameters": params,
        "Resources": {name: {"Type": type_name, "Properties": props}},
        "Outputs": outputs,
    }


# the section order of Heat's env_as_dict
_ENV_ORDER = (
    environment.RESOURCE_REGISTRY,
    environment.PARAMETERS,
    environment.PARAMETER_DEFAULTS,
    environment.EVENT_SINKS,
    environment.ENCRYPTED_PARAM_NAMES,
)


def _in_heat_order(env):
    ordered = {key: env[key] for key in _ENV_ORDER if key in env}
    ordered.update((key, value) for key, value in env.items() if key not in ordered)
    return ordered


def _validate_parameters(stack):
    return {
        name: api.format_validate_parameter(param)
        for name, param in stack.parameters.params.items()
        if name not in parameters.PSEUDO_PARAMETERS
    }


def _nested_parameters(cnxt, stack, depth=1):
    """validate_template's ``NestedParameters``: for each provider-template resource, its
    child template's parameters with the values the resource's properties give them
    (``{name: {"Type", "Description", "Parameters"[, "NestedParameters"]}}``)."""
    nested = {}
    for name, defn in stack.definitions.items():
        cls = stack.resource_class(defn)
        template_name = getattr(cls, "template_name", None)
        if template_name is None or template_name not in (stack.t.files or {}):
            continue
        try:
            values = {k: v for k, v in defn.resolved_properties().items() if v is not None}
        except Exception:
            values = {}
        files = stack.t.files
        child_tmpl = tmpl_mod.Template(template_format.parse(files[template_name]), files=files)
        child_tmpl.env = dict(stack.env, **{environment.PARAMETERS: values})
        child = parser.Stack(cnxt, "%s-%s" % (stack.name, name), child_tmpl)
        info = {
            "Type": defn.resource_type,
            "Description": child_tmpl.description,
            "Parameters": _validate_parameters(child),
        }
        if parameter_groups.groups_of(child_tmpl):
            info["ParameterGroups"] = parameter_groups.groups_of(child_tmpl)
        deeper = (
            _nested_parameters(cnxt, child, depth + 1)
            if depth < CONF.max_nested_stack_depth
            else {}
        )
        if deeper:
            info["NestedParameters"] = deeper
        nested[name] = info
    return nested


def _resource_previews(stack):
    """{name: preview dict} of every resource the stack's template defines
    (docs/heat-api.md §5.6)."""
    deps = stack.dependencies()
    previews = {}
    for name, defn in stack.definitions.items():
        cls = stack.resource_class(defn)
        previews[name] = api.format_resource_preview(
            stack,
            defn,
            list(cls.attributes_schema),
            _preview_properties(defn, cls),
            sorted(deps.required_by(name)),
        )
    return previews


def preview_resources(stack):
    """Heat's ``Stack.preview_resources``: each resource's preview, in Heat's order (the
    template's, reversed); a nested stack resource (provider template, group) is the list
    of its child's previews, recursively."""
    previews = _resource_previews(stack)
    result = []
    for name in reversed(list(previews)):
        child = _preview_child(stack, stack.definitions[name])
        result.append(preview_resources(child) if child is not None else previews[name])
    return result


def _preview_child(stack, defn):
    """The child stack (unstored) a nested stack resource would create; None for any
    other resource (and for OS::Heat::Stack, which Heat previews as a resource)."""
    cls = stack.resource_class(defn)
    if not getattr(cls, "preview_nested", False):
        return None
    rsrc = cls(defn.name, defn, stack)
    return rsrc.parse_nested_stack(rsrc.child_template())


def _preview_properties(defn, cls):
    """Every property of the type's schema, resolved as far as possible (else None)."""
    props = defn.properties(cls.properties_schema)
    result = {}
    for name in cls.properties_schema:
        try:
            result[name] = props[name]
        except (KeyError, TypeError, ValueError):
            result[name] = None
    return result


# -- validation helpers ------------------------------------------------------------------


def validate_stack_structure(stack, ignorable_errors=None):
    """Heat's ``Stack.validate`` without values (strict_validate=False, template only).

    Sections, parameter schemas, parameter groups, conditions, resource definitions
    and references, resource types and property names, outputs. Parameter values,
    required properties and property values are not checked.
    """
    stack.t.validate()
    stack.parameters.validate(validate_value=False)
    stack.validate_groups_and_names()
    definitions = stack.definitions
    stack.dependencies()
    for defn in definitions.values():
        try:
            defn.validate()
            cls = stack.resource_class(defn)
            if cls.validate_properties:
                defn.properties(cls.properties_schema).validate(with_value=False)
                if defn.update_policy_data is not None:
                    policy_schema = getattr(cls, "update_policy_schema", {})
                    # Heat checks the policy's values here too
                    defn.update_policy(policy_schema).validate(with_value=True)
            if hasattr(cls, "validate_provider_properties"):
                cls(defn.name, defn, stack).validate_provider_properties(strict=False)
        except exception.HeatException as ex:
            if not (ignorable_errors and ex.error_code in ignorable_errors):
                raise
    for output in stack.t.outputs(stack).values():
        output.validate()
