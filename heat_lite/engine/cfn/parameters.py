"""CFN template parameters: the ``Parameters`` schema keys and the AWS pseudo parameters.

    Parameters:
      KeyName: {Type: String, Default: default, AllowedPattern: '[a-z]+', MaxLength: 16,
                ConstraintDescription: 'lower case letters only'}
      Size: {Type: Number, MinValue: 1, MaxValue: 10, NoEcho: 'true'}

Pseudo parameters (as Heat 27 has them): ``AWS::StackId`` (the stack's ARN, 'None'
before the stack exists), ``AWS::StackName`` and ``AWS::Region`` (always Heat's
default, 'ap-southeast-1').
"""

from heat_lite.common import exception
from heat_lite.engine import constraints as constr
from heat_lite.engine import parameters

PARAMETER_KEYS = (
    TYPE,
    DEFAULT,
    NO_ECHO,
    ALLOWED_VALUES,
    ALLOWED_PATTERN,
    MAX_LENGTH,
    MIN_LENGTH,
    MAX_VALUE,
    MIN_VALUE,
    DESCRIPTION,
    CONSTRAINT_DESCRIPTION,
    LABEL,
) = (
    "Type",
    "Default",
    "NoEcho",
    "AllowedValues",
    "AllowedPattern",
    "MaxLength",
    "MinLength",
    "MaxValue",
    "MinValue",
    "Description",
    "ConstraintDescription",
    "Label",
)

REGIONS = (
    "us-east-1",
    "us-west-1",
    "us-west-2",
    "sa-east-1",
    "eu-west-1",
    "ap-southeast-1",
    "ap-northeast-1",
)
DEFAULT_REGION = "ap-southeast-1"


def _num(schema_dict, key):
    value = schema_dict.get(key)
    return None if value is None else constr.str_to_num(value)


class Schema(parameters.Schema):
    """The schema of one CFN parameter; type names String, Number, CommaDelimitedList,
    Json and Boolean."""

    TYPES = (STRING, NUMBER, LIST, MAP, BOOLEAN) = (
        "String",
        "Number",
        "CommaDelimitedList",
        "Json",
        "Boolean",
    )

    @classmethod
    def from_dict(cls, param_name, schema_dict):
        parameters.check_dict(schema_dict, PARAMETER_KEYS, "parameter (%s)" % param_name)
        if TYPE not in schema_dict:
            raise exception.InvalidSchemaError(
                message="Missing parameter type for parameter: %s" % param_name
            )
        return cls(
            schema_dict[TYPE],
            description=schema_dict.get(DESCRIPTION),
            default=schema_dict.get(DEFAULT),
            constraints=list(cls._cfn_constraints(schema_dict)),
            hidden=str(schema_dict.get(NO_ECHO, "false")).lower() == "true",
            label=schema_dict.get(LABEL),
        )

    @staticmethod
    def _cfn_constraints(schema_dict):
        desc = schema_dict.get(CONSTRAINT_DESCRIPTION)
        if MIN_VALUE in schema_dict or MAX_VALUE in schema_dict:
            yield constr.Range(_num(schema_dict, MIN_VALUE), _num(schema_dict, MAX_VALUE), desc)
        if MIN_LENGTH in schema_dict or MAX_LENGTH in schema_dict:
            yield constr.Length(_num(schema_dict, MIN_LENGTH), _num(schema_dict, MAX_LENGTH), desc)
        if ALLOWED_VALUES in schema_dict:
            yield constr.AllowedValues(schema_dict[ALLOWED_VALUES], desc)
        if ALLOWED_PATTERN in schema_dict:
            yield constr.AllowedPattern(schema_dict[ALLOWED_PATTERN], desc)


class CfnParameters(parameters.Parameters):
    """The parameters of a stack from a CFN template."""

    PSEUDO_PARAMETERS = (PARAM_STACK_ID, PARAM_STACK_NAME, PARAM_REGION) = (
        "AWS::StackId",
        "AWS::StackName",
        "AWS::Region",
    )

    @classmethod
    def _pseudo_parameters(cls, stack_identifier):
        stack_id = stack_identifier.arn() if stack_identifier is not None else "None"
        stack_name = stack_identifier and stack_identifier.stack_name
        yield parameters.StringParam(
            cls.PARAM_STACK_ID, Schema(Schema.STRING, "Stack ID", default=str(stack_id))
        )
        if stack_name:
            yield parameters.StringParam(
                cls.PARAM_STACK_NAME, Schema(Schema.STRING, "Stack Name", default=stack_name)
            )
            region = Schema(
                Schema.STRING,
                default=DEFAULT_REGION,
                constraints=[constr.AllowedValues(list(REGIONS))],
            )
            yield parameters.StringParam(cls.PARAM_REGION, region)

    @staticmethod
    def _stack_id(stack_identifier):
        return stack_identifier.arn()
