"""HOT: the Heat Orchestration Template format, every version Heat 27 knows.

Each version is a class with its own function table; later versions start from the
previous table (functions added, replaced, or ``Removed``), kept in the order Heat lists
them (GET /template_versions/<v>/functions).

    tmpl = Template({'heat_template_version': 'rocky', 'resources': {...}})
    type(tmpl).__name__ == 'HOTemplate20180831'
"""

import collections.abc
import functools

from heat_lite.common import exception
from heat_lite.engine import function, parameters, rsrc_defn, template, template_common
from heat_lite.engine.cfn import functions as cfn_funcs
from heat_lite.engine.hot import condition_functions as cond_funcs
from heat_lite.engine.hot import functions as hot_funcs
from heat_lite.engine.hot import list_functions as list_funcs
from heat_lite.engine.hot import string_functions as str_funcs

# the order Heat lists the functions of HOT 2014-10-16 and later in
_LISTING_ORDER = (
    "get_attr",
    "get_file",
    "get_param",
    "get_resource",
    "list_join",
    "repeat",
    "resource_facade",
    "str_replace",
    "Fn::Select",
    "digest",
    "str_split",
    "map_merge",
    "yaql",
    "map_replace",
    "if",
    "filter",
    "str_replace_strict",
    "make_url",
    "list_concat",
    "str_replace_vstrict",
    "list_concat_unique",
    "contains",
)
_CFN_FUNCTIONS = (
    "Fn::GetAZs",
    "Fn::Join",
    "Fn::Split",
    "Fn::Replace",
    "Fn::Base64",
    "Fn::MemberListToMap",
    "Fn::ResourceFacade",
    "Ref",
)


def prepare():
    """What the HOT functions build at their first use, built now (template.load_plugins):
    the yaql parser (PLY generates its tables, ~80 ms; the engine's first k8s tree took
    1.43 s, the next ones 1.0-1.1)."""
    hot_funcs.Yaql.yaql_parser()


def _table(base, **changes):
    """``base`` with ``changes`` applied, in Heat's listing order (hidden ones last)."""
    merged = {**base, **changes}
    listed = {n: merged[n] for n in _LISTING_ORDER if n in merged}
    return {**listed, **{n: f for n, f in merged.items() if n not in listed}}


FUNCTIONS_20130523 = {
    "Fn::GetAZs": cfn_funcs.GetAZs,
    "get_param": hot_funcs.GetParam,
    "get_resource": hot_funcs.GetResource,
    "Ref": cfn_funcs.Ref,
    "get_attr": hot_funcs.GetAttThenSelect,
    "Fn::Select": cfn_funcs.Select,
    "Fn::Join": cfn_funcs.Join,
    "list_join": str_funcs.Join,
    "Fn::Split": cfn_funcs.Split,
    "str_replace": str_funcs.Replace,
    "Fn::Replace": cfn_funcs.Replace,
    "Fn::Base64": cfn_funcs.Base64,
    "Fn::MemberListToMap": cfn_funcs.MemberListToMap,
    "resource_facade": hot_funcs.ResourceFacade,
    "Fn::ResourceFacade": cfn_funcs.ResourceFacade,
    "get_file": hot_funcs.GetFile,
}
FUNCTIONS_20141016 = _table(
    FUNCTIONS_20130523,
    get_attr=hot_funcs.GetAtt,
    **{name: function.Removed for name in _CFN_FUNCTIONS},
)
FUNCTIONS_20150430 = _table(FUNCTIONS_20141016, repeat=list_funcs.Repeat, digest=hot_funcs.Digest)
FUNCTIONS_20151015 = _table(
    FUNCTIONS_20150430,
    get_attr=hot_funcs.GetAttAllAttributes,
    list_join=str_funcs.JoinMultiple,
    str_replace=str_funcs.ReplaceJson,
    str_split=str_funcs.StrSplit,
    **{"Fn::Select": function.Removed},
)
FUNCTIONS_20160408 = _table(FUNCTIONS_20151015, map_merge=list_funcs.MapMerge)
FUNCTIONS_20161014 = _table(
    FUNCTIONS_20160408,
    repeat=list_funcs.RepeatWithMap,
    yaql=hot_funcs.Yaql,
    map_replace=list_funcs.MapReplace,
    **{"if": cond_funcs.If},
)
FUNCTIONS_20170224 = _table(
    FUNCTIONS_20161014,
    filter=list_funcs.Filter,
    str_replace_strict=str_funcs.ReplaceJsonStrict,
)
FUNCTIONS_20170901 = _table(
    FUNCTIONS_20170224,
    repeat=list_funcs.RepeatWithNestedLoop,
    make_url=str_funcs.MakeURL,
    list_concat=list_funcs.ListConcat,
    str_replace_vstrict=str_funcs.ReplaceJsonVeryStrict,
    list_concat_unique=list_funcs.ListConcatUnique,
    contains=list_funcs.Contains,
)
FUNCTIONS_20210416 = _table(FUNCTIONS_20170901, **{"if": cond_funcs.IfNullable})

CONDITION_FUNCTIONS_20161014 = {
    "get_param": hot_funcs.GetParam,
    "equals": cond_funcs.Equals,
    "not": cond_funcs.Not,
    "and": cond_funcs.And,
    "or": cond_funcs.Or,
}
CONDITION_FUNCTIONS_20170901 = {
    **CONDITION_FUNCTIONS_20161014,
    "yaql": hot_funcs.Yaql,
    "contains": list_funcs.Contains,
}


class HOTemplate20130523(template_common.CommonTemplate):
    """HOT 2013-05-23; also the base of every later version."""

    CANONICAL_VERSION = "2013-05-23"
    FORMAT_TYPE = "hot"
    SECTIONS = (VERSION, DESCRIPTION, PARAMETER_GROUPS, PARAMETERS, RESOURCES, OUTPUTS) = (
        "heat_template_version",
        "description",
        "parameter_groups",
        "parameters",
        "resources",
        "outputs",
    )
    CONDITIONS = "conditions"
    SECTIONS_NO_DIRECT_ACCESS = frozenset([PARAMETERS, VERSION])
    RESOURCE_KEYS = (
        RES_TYPE,
        RES_PROPERTIES,
        RES_METADATA,
        RES_DEPENDS_ON,
        RES_DELETION_POLICY,
        RES_UPDATE_POLICY,
        RES_DESCRIPTION,
    ) = (
        "type",
        "properties",
        "metadata",
        "depends_on",
        "deletion_policy",
        "update_policy",
        "description",
    )
    RES_EXTERNAL_ID, RES_CONDITION = "external_id", "condition"
    OUTPUT_KEYS = (OUTPUT_DESCRIPTION, OUTPUT_VALUE) = ("description", "value")
    OUTPUT_CONDITION = None
    param_schema_class = parameters.Schema
    functions = FUNCTIONS_20130523

    def validate(self):
        """Top-level sections, then the keys of every resource."""
        self._check_sections()
        resources = self.t.get(self.RESOURCES) or {}
        if not isinstance(resources, collections.abc.Mapping):
            raise exception.StackValidationFailed(
                message="'%s' object has no attribute 'items'" % type(resources).__name__
            )
        for _name, snippet in sorted(resources.items(), key=lambda i: str(i[0])):
            self._validate_resource_keys(snippet)

    def _validate_resource_keys(self, snippet):
        missing_type = "Each resource must contain a type key."
        if not snippet:
            raise exception.StackValidationFailed(message=missing_type)
        if not isinstance(snippet, collections.abc.Mapping):
            raise exception.StackValidationFailed(
                message='"resources" must contain a map of resource maps. '
                "Found a [%s] instead" % type(snippet)
            )
        for key in snippet:
            if key not in self.RESOURCE_KEYS:
                raise exception.StackValidationFailed(
                    message='"%s" is not a valid keyword inside a resource definition' % key
                )
        if self.RES_TYPE not in snippet:
            raise exception.StackValidationFailed(message=missing_type)

    def _check_resource_keywords(self, snippet):
        invalid = set(snippet) - set(self.RESOURCE_KEYS)
        if invalid:
            raise ValueError(
                "Invalid keyword(s) inside a resource definition: %s" % ", ".join(invalid)
            )


class HOTemplate20141016(HOTemplate20130523):
    CANONICAL_VERSION = "2014-10-16"
    functions = FUNCTIONS_20141016


class HOTemplate20150430(HOTemplate20141016):
    CANONICAL_VERSION = "2015-04-30"
    functions = FUNCTIONS_20150430


class HOTemplate20151015(HOTemplate20150430):
    CANONICAL_VERSION = "2015-10-15"
    functions = FUNCTIONS_20151015


class HOTemplate20160408(HOTemplate20151015):
    CANONICAL_VERSION = "2016-04-08"
    functions = FUNCTIONS_20160408


class HOTemplate20161014(HOTemplate20160408):
    """Adds conditions (section, resource/output ``condition``, ``if``) and external_id."""

    CANONICAL_VERSION = "2016-10-14"
    SECTIONS = HOTemplate20160408.SECTIONS + (HOTemplate20160408.CONDITIONS,)
    SECTIONS_NO_DIRECT_ACCESS = HOTemplate20160408.SECTIONS_NO_DIRECT_ACCESS | {"conditions"}
    RESOURCE_KEYS = HOTemplate20160408.RESOURCE_KEYS + ("external_id", "condition")
    OUTPUT_CONDITION = "condition"
    OUTPUT_KEYS = HOTemplate20160408.OUTPUT_KEYS + (OUTPUT_CONDITION,)
    deletion_policies = {
        **HOTemplate20160408.deletion_policies,
        **{p.lower(): p for p in rsrc_defn.ResourceDefinition.DELETION_POLICIES},
    }
    functions = FUNCTIONS_20161014
    condition_functions = CONDITION_FUNCTIONS_20161014

    def _condition_parser_functions(self):
        # removed functions keep their own error; any other function is invalid here
        parser = {
            n: f if f is function.Removed else function.Invalid for n, f in self.functions.items()
        }
        parser.update(self.condition_functions)
        return parser

    def _condition_definitions(self):
        return self.t.get(self.CONDITIONS, {})

    def _rsrc_defn_args(self, stack, name, data):
        yield from super()._rsrc_defn_args(stack, name, data)
        parse = functools.partial(self.parse, stack)
        external_id = self._field(
            self.RES_EXTERNAL_ID, (str, function.Function), "string", name, data, parse
        )
        yield "external_id", external_id
        yield "condition", self._condition_field(stack, name, data, "string_or_boolean")


class HOTemplate20170224(HOTemplate20161014):
    CANONICAL_VERSION = "2017-02-24"
    functions = FUNCTIONS_20170224
    param_schema_class = parameters.Schema20170224


class HOTemplate20170901(HOTemplate20170224):
    CANONICAL_VERSION = "2017-09-01"
    functions = FUNCTIONS_20170901
    condition_functions = CONDITION_FUNCTIONS_20170901


class HOTemplate20180302(HOTemplate20170901):
    CANONICAL_VERSION = "2018-03-02"
    param_schema_class = parameters.Schema20180302


class HOTemplate20180831(HOTemplate20180302):
    CANONICAL_VERSION = "2018-08-31"


class HOTemplate20210416(HOTemplate20180831):
    CANONICAL_VERSION = "2021-04-16"
    functions = FUNCTIONS_20210416


_RELEASE_NAMES = {
    HOTemplate20161014: "newton",
    HOTemplate20170224: "ocata",
    HOTemplate20170901: "pike",
    HOTemplate20180302: "queens",
    HOTemplate20180831: "rocky",
    HOTemplate20210416: "wallaby",
}

for _cls in (
    HOTemplate20130523,
    HOTemplate20141016,
    HOTemplate20150430,
    HOTemplate20151015,
    HOTemplate20160408,
    HOTemplate20161014,
    HOTemplate20170224,
    HOTemplate20170901,
    HOTemplate20180302,
    HOTemplate20180831,
    HOTemplate20210416,
):
    template.register(
        _cls,
        template.HOT_VERSION_KEY,
        _cls.CANONICAL_VERSION,
        *filter(None, [_RELEASE_NAMES.get(_cls)]),
    )
