"""Heat's exception tree: one ``msg_fmt`` per class, the HTTP code chosen by the API.

Names and messages follow heat/common/exception.py so that clients see the same
``error.type`` and ``error.message``. Every class here may cross RPC (the module is in
the transport's allowed_remote_exmods), so the API can map it back to a status code.

    >>> str(EntityNotFound(entity='Stack', name='foo'))
    'The Stack (foo) could not be found.'
"""


class HeatException(Exception):
    """Base: formats ``msg_fmt`` with the keyword arguments given."""

    msg_fmt = "An unknown exception occurred."
    error_code = None

    def __init__(self, **kwargs):
        # kwargs (not args) are what oslo.messaging sends to rebuild the exception
        self.kwargs = kwargs
        try:
            self.message = self.msg_fmt % kwargs
        except (KeyError, TypeError, ValueError):
            self.message = self.msg_fmt
        super().__init__()

    def __str__(self):
        return self.message


class HeatExceptionWithPath(HeatException):
    """``<error>: <path>: <message>``, the path dotted (list indexes in brackets)."""

    msg_fmt = "%(error)s%(path)s%(message)s"

    def __init__(self, error=None, path=None, message=None):
        self.error = error or ""
        if path is None:
            self.path = []
        elif isinstance(path, (list, tuple)):
            self.path = list(path)
        else:
            self.path = [path]
        result_path = ""
        for item in self.path:
            if isinstance(item, int) or str(item).isdigit():
                result_path += "[%s]" % item
            elif result_path:
                result_path += ".%s" % item
            else:
                result_path = str(item)
        self.error_message = message or ""
        super().__init__(
            error=("%s: " % self.error) if self.error else "",
            path=("%s: " % result_path) if result_path else "",
            message=self.error_message,
        )
        # As Heat's: self.kwargs holds the formatted parts ("<error>: ", "<path>: "), which
        # oslo.messaging sends to rebuild the exception on the other side of RPC, where they
        # are formatted again - Heat's doubled separator ("Property error: : a.b: : msg")
        # in every error that crossed an RPC call (API answers, nested stacks' failures).


class StackValidationFailed(HeatExceptionWithPath):
    def __init__(self, error=None, path=None, message=None, resource=None):
        self.resource = resource
        super().__init__(error=error, path=path, message=message)


class InvalidTemplateVersion(HeatException):
    msg_fmt = "The template version is invalid: %(explanation)s"


class InvalidTemplateSection(HeatException):
    msg_fmt = "The template section is invalid: %(section)s"


class InvalidTemplateReference(HeatException):
    msg_fmt = 'The specified reference "%(resource)s" (in %(key)s) is incorrect.'


class InvalidTemplateAttribute(HeatException):
    msg_fmt = "The Referenced Attribute (%(resource)s %(key)s) is incorrect."


class TemplateOutputError(HeatException):
    """A nested stack's output, read as its parent resource's attribute, has an error."""

    msg_fmt = "Error in %(resource)s output %(attribute)s: %(message)s"


class AttributeResolutionError(HeatException):
    """An attribute whose value could not be resolved when its resource completed: reading
    it raises the error it had then (carried in the node data as text)."""

    msg_fmt = "%(message)s"


class UnknownUserParameter(HeatException):
    msg_fmt = "The Parameter (%(key)s) was not defined in template."


class UserParameterMissing(HeatException):
    msg_fmt = "The Parameter (%(key)s) was not provided."


class InvalidSchemaError(HeatException):
    msg_fmt = "%(message)s"


class CircularDependencyException(HeatException):
    msg_fmt = "Circular Dependency Found: %(cycle)s"


class Invalid(HeatException):
    msg_fmt = "Data supplied was not valid: %(reason)s"


class NotSupported(HeatException):
    msg_fmt = "%(feature)s is not supported."


class RequestLimitExceeded(HeatException):
    msg_fmt = "Request limit exceeded: %(message)s"


def stack_limit_exceeded(limit):
    """Heat's error for a project at max_stacks_per_tenant."""
    return RequestLimitExceeded(
        message="You have reached the maximum stacks per tenant, %d. Please delete some "
        "stacks." % limit
    )


def resource_limit_exceeded():
    """Heat's error for a stack tree over max_resources_per_stack."""
    return RequestLimitExceeded(message="Maximum resources per stack exceeded.")


class StackExists(HeatException):
    msg_fmt = "The Stack (%(stack_name)s) already exists."


class EntityNotFound(HeatException):
    msg_fmt = "The %(entity)s (%(name)s) could not be found."

    def __init__(self, entity=None, name=None, **kwargs):
        self.entity = entity
        self.name = name
        super().__init__(entity=entity, name=name, **kwargs)


class ResourceNotFound(EntityNotFound):
    msg_fmt = "The Resource (%(resource_name)s) could not be found in Stack %(stack_name)s."


class SnapshotNotFound(EntityNotFound):
    msg_fmt = "The Snapshot (%(snapshot)s) for Stack (%(stack)s) could not be found."


class ResourceTypeNotFound(StackValidationFailed):
    def __init__(self, type_name=None, **kwargs):
        self.type_name = type_name
        super().__init__(message="The Resource Type (%s) could not be found." % type_name)
        self.kwargs = {"type_name": type_name}


class NotFound(HeatException):
    def __init__(self, msg_fmt="Not found"):
        self.msg_fmt = msg_fmt
        super().__init__()
        self.kwargs = {"msg_fmt": msg_fmt}


class Forbidden(HeatException):
    msg_fmt = "You are not authorized to use %(action)s."

    def __init__(self, action="this action"):
        super().__init__(action=action)


class InvalidTenant(HeatException):
    msg_fmt = "Searching Tenant %(target)s from Tenant %(actual)s forbidden."


class ActionInProgress(HeatException):
    msg_fmt = "Stack %(stack_name)s already has an action (%(action)s) in progress."


class UpdateInProgress(HeatException):
    msg_fmt = "The resource %(resource_name)s is already being updated."


class CancelOperation(BaseException):
    """A running resource task was told to stop (stack deleted or abandoned while in
    progress). A BaseException, as Heat's, so handlers of Exception do not swallow it."""


class Timeout(Exception):
    """A resource task (or a hook's wait) ran past its deadline: Heat's scheduler.Timeout,
    which the resource's failure names (``Timeout: resources.<name>: Timed out``)."""

    def __init__(self):
        super().__init__("Timed out")


class ResourceFailure(HeatExceptionWithPath):
    """A resource action failed; str() is ``<ExcClass>: resources.<name>: <msg>``."""

    def __init__(self, exception_or_error, resource=None, action=None):
        self.resource = resource
        self.action = action or (resource.action if resource is not None else None)
        res_path = ["resources", resource.name] if resource is not None else []
        if isinstance(exception_or_error, ResourceFailure):
            self.exc = exception_or_error.exc
            error = exception_or_error.error
            message = exception_or_error.error_message
            path = exception_or_error.path
        elif isinstance(exception_or_error, Exception):
            self.exc = exception_or_error
            error = type(exception_or_error).__name__
            message = str(exception_or_error)
            path = res_path
        else:
            self.exc = None
            error = None
            message = exception_or_error
            path = res_path
        super().__init__(error=error, path=path, message=message)


class Error(HeatException):
    """A plain error with a message (Heat's ``exception.Error``)."""

    msg_fmt = "%(message)s"

    def __init__(self, msg=None, **kwargs):
        super().__init__(message=kwargs.get("message", msg))


class ResourceActionNotSupported(HeatException):
    msg_fmt = "%(action)s is not supported for resource."


class InvalidBreakPointHook(HeatException):
    msg_fmt = "%(message)s"


class _PropertiesError(HeatException):
    """Raised with the property names: ``PropertyUnspecifiedError('subnet', 'port')``."""

    def __init__(self, *props, **kwargs):
        super().__init__(props=", ".join(props) if props else kwargs.get("props", ""))


class PropertyUnspecifiedError(_PropertiesError):
    msg_fmt = "At least one of the following properties must be specified: %(props)s."


class ResourcePropertyConflict(_PropertiesError):
    msg_fmt = "Cannot define the following properties at the same time: %(props)s."


class ResourceInError(HeatException):
    msg_fmt = 'Went to status %(resource_status)s due to "%(status_reason)s"'


class UpdateReplace(Exception):
    """Raised by a resource whose update needs a replacement."""

    def __init__(self, resource_name="Unknown"):
        super().__init__("The Resource %s requires replacement." % resource_name)


class HTTPExceptionDisguise(Exception):
    """Lets a webob HTTP error pass through code that catches Exception."""

    def __init__(self, exception):
        self.exc = exception
        super().__init__(str(exception))


class InvalidExternalResourceDependency(HeatException):
    msg_fmt = "Invalid dependency with external %(resource_type)s resource: %(external_id)s"


class InvalidRestrictedAction(HeatException):
    """An action refused while something depends on its target (e.g. a software config
    used by a deployment). Heat 27 answers 500 for it; heat-lite maps it to 409."""

    msg_fmt = "%(message)s"


class EngineUnavailable(HeatException):
    """No engine would answer (none consumes the topic) or none answered in time: 503."""

    msg_fmt = "The orchestration engine is unavailable: %(reason)s"
