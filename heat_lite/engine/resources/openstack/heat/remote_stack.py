"""OS::Heat::Stack: a stack made from an inline template (Heat's RemoteStack).

Heat creates it through the Heat endpoint of the region ``context.region_name`` names
(or of a remote cloud, ``context.credential_secret_id``). heat-lite is one region: the
child is a nested stack of this engine, and a region other than the caller's own
(RegionOne when the request names none) is refused at validation, with the message
Heat gives when the region has no orchestration endpoint:

    context: {region_name: RegionTwo}
    # Cannot establish connection to Heat endpoint at region "RegionTwo" due to
    #   "publicURL endpoint for orchestration service in RegionTwo region not found"

``parameters``, ``timeout`` and ``template`` update the child in place; a new
``region_name`` replaces the resource. Attributes: ``stack_name``, ``outputs`` (a map
of the child's outputs), and any output by name.
"""

from heat_lite.common import exception, template_format
from heat_lite.engine import attributes, constraints, properties
from heat_lite.engine.resources.openstack.heat import stack_resource

P = properties.Schema

CONTEXT, TEMPLATE, TIMEOUT, PARAMETERS = "context", "template", "timeout", "parameters"
REGION_NAME, CREDENTIAL_SECRET_ID, CA_CERT, SSL_INSECURE = (
    "region_name",
    "credential_secret_id",
    "ca_cert",
    "insecure",
)
NAME_ATTR, OUTPUTS = "stack_name", "outputs"
DEFAULT_REGION = "RegionOne"
ENDPOINT_INTERFACE = "publicURL"


class RemoteStack(stack_resource.StackResource):
    """OS::Heat::Stack -- a child stack from an inline template."""

    # Heat's RemoteStack is a plain resource (its stack lives behind an endpoint)
    preview_nested = False

    properties_schema = {
        CONTEXT: P(
            P.MAP,
            "Context for this stack.",
            update_allowed=True,
            schema={
                REGION_NAME: P(P.STRING, "Region name in which this stack will be created."),
                CREDENTIAL_SECRET_ID: P(
                    P.STRING,
                    "A Barbican secret ID. The Barbican secret should contain an OpenStack "
                    "credential that can be used to access a remote cloud.",
                    update_allowed=True,
                ),
                CA_CERT: P(P.STRING, "CA Cert for SSL.", update_allowed=True),
                SSL_INSECURE: P(
                    P.BOOLEAN,
                    "If set, then the server's certificate will not be verified.",
                    default=False,
                    update_allowed=True,
                ),
            },
        ),
        TEMPLATE: P(
            P.STRING,
            "Template that specifies the stack to be created as a resource.",
            required=True,
            update_allowed=True,
        ),
        TIMEOUT: P(
            P.INTEGER,
            "Number of minutes to wait for this stack creation.",
            update_allowed=True,
            constraints=[constraints.Range(min=0)],
        ),
        PARAMETERS: P(P.MAP, "Set of parameters passed to this stack.", update_allowed=True),
    }
    attributes_schema = {
        NAME_ATTR: attributes.Schema("Name of the stack.", type=attributes.Schema.STRING),
        OUTPUTS: attributes.Schema(
            "A dict of key-value pairs output from the stack.", type=attributes.Schema.MAP
        ),
    }

    # -- where the stack would live ----------------------------------------------------------

    def _local_region(self):
        return getattr(self.stack.context, "region_name", None) or DEFAULT_REGION

    def _context_props(self):
        return self.properties[CONTEXT] or {}

    def validate_nested_stack(self, strict=True):
        """The region must be this one (heat-lite has no other Heat endpoint)."""
        ctx = self._context_props()
        if ctx.get(CREDENTIAL_SECRET_ID):
            self._unreachable(
                "remote cloud", "%s endpoint for key-manager service not found" % ENDPOINT_INTERFACE
            )
        region = ctx.get(REGION_NAME) or self._local_region()
        if region != self._local_region():
            self._unreachable(
                'region "%s"' % region,
                "%s endpoint for orchestration service in %s region not found"
                % (ENDPOINT_INTERFACE, region),
            )
        self._validate_remotely('region "%s"' % region)

    def _validate_remotely(self, location):
        """As Heat's RemoteStack.validate: the template goes to the Heat endpoint's
        template validation (here this engine's validate_template, over RPC); whatever it
        refuses, heatclient's ``ERROR: <message>`` is reported in Heat's words."""
        try:
            tmpl = self.child_template()
            try:
                result = self._client().validate_template(
                    self.stack.context, tmpl, self.child_env(), self.child_files()
                )
            except exception.HeatException as ex:
                result = {"Error": str(ex)}
            if not isinstance(result, dict):
                result = {"Error": str(result)}
            if "Error" in result:
                raise ValueError("ERROR: %s" % result["Error"])
        except Exception as ex:
            raise exception.StackValidationFailed(
                message='Failed validating stack template using Heat endpoint at %s due to "%s"'
                % (location, ex)
            )

    @staticmethod
    def _unreachable(location, reason):
        raise exception.StackValidationFailed(
            message='Cannot establish connection to Heat endpoint at %s due to "%s"'
            % (location, reason)
        )

    def needs_replace_with_prop_diff(self, prop_diff, after):
        """A new region_name needs a new stack (there); everything else updates it."""
        if CONTEXT in prop_diff:
            before = (self.properties_data or {}).get(CONTEXT) or {}
            return (after.get(CONTEXT) or {}).get(REGION_NAME) != before.get(REGION_NAME)
        return False

    # -- the child ---------------------------------------------------------------------------

    def child_template(self):
        tmpl = self.properties[TEMPLATE]
        if isinstance(tmpl, str):
            tmpl = template_format.parse(tmpl)
        return tmpl

    def child_params(self):
        return dict(self.properties[PARAMETERS] or {})

    def child_timeout(self):
        return self.properties[TIMEOUT] or self.stack.timeout_mins

    def get_reference_id(self):
        return self.resource_id if self.resource_id is not None else self.name

    def get_attribute(self, key, *path):
        if key == NAME_ATTR and not path:
            row = self._child_row()
            return row.name if row is not None else self.physical_resource_name()
        if key == OUTPUTS:
            value = self.child_outputs()
            for part in path:
                value = value.get(part) if isinstance(value, dict) else None
            return value
        return super().get_attribute(key, *path)


def resource_mapping():
    return {"OS::Heat::Stack": RemoteStack}
