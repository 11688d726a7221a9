import copy
import datetime
import gc
import weakref

import pytest
import yaml

from heat_lite.common import exception, template_format
from heat_lite.engine import function, rsrc_defn
from heat_lite.engine.template import Template

pytestmark = pytest.mark.unit

ALL_VERSIONS = (
    "2013-05-23, 2014-10-16, 2015-04-30, 2015-10-15, 2016-04-08, 2016-10-14, 2017-02-24, "
    "2017-09-01, 2018-03-02, 2018-08-31, 2021-04-16, newton, ocata, pike, queens, rocky, wallaby"
)


class FakeStack:
    """Just enough of the function stack protocol for template-level tests."""

    def __init__(self, tmpl, params=None):
        self.t = tmpl if isinstance(tmpl, Template) else Template(tmpl)
        self.parameters = self.t.parameters(None, params or {})

    def has_resource(self, name):
        return name in self.t.resource_definitions(self)

    def resource_reference(self, name):
        return name

    def resource_attribute(self, name, attr, *path):
        return "%s.%s" % (name, attr)

    def all_resource_attributes(self, name):
        return {}

    def resource_attribute_names(self, name):
        return None


def hot(resources=None, version="2018-08-31", **sections):
    tmpl = {"heat_template_version": version, **sections}
    if resources is not None:
        tmpl["resources"] = resources
    return Template(tmpl)


def stack_of(resources=None, version="2018-08-31", params=None, **sections):
    return FakeStack(hot(resources, version, **sections), params)


def invalid_version(data):
    with pytest.raises(exception.InvalidTemplateVersion) as err:
        Template(data)
    return str(err.value)


# -- versions


@pytest.mark.parametrize(
    "declared,canonical,class_name",
    [
        ("2013-05-23", "2013-05-23", "HOTemplate20130523"),
        ("2014-10-16", "2014-10-16", "HOTemplate20141016"),
        ("2015-04-30", "2015-04-30", "HOTemplate20150430"),
        ("2015-10-15", "2015-10-15", "HOTemplate20151015"),
        ("2016-04-08", "2016-04-08", "HOTemplate20160408"),
        ("2016-10-14", "2016-10-14", "HOTemplate20161014"),
        ("newton", "2016-10-14", "HOTemplate20161014"),
        ("2017-02-24", "2017-02-24", "HOTemplate20170224"),
        ("ocata", "2017-02-24", "HOTemplate20170224"),
        ("2017-09-01", "2017-09-01", "HOTemplate20170901"),
        ("pike", "2017-09-01", "HOTemplate20170901"),
        ("2018-03-02", "2018-03-02", "HOTemplate20180302"),
        ("queens", "2018-03-02", "HOTemplate20180302"),
        ("2018-08-31", "2018-08-31", "HOTemplate20180831"),
        ("rocky", "2018-08-31", "HOTemplate20180831"),
        ("2021-04-16", "2021-04-16", "HOTemplate20210416"),
        ("wallaby", "2021-04-16", "HOTemplate20210416"),
    ],
)
def test_versions(declared, canonical, class_name):
    tmpl = Template({"heat_template_version": declared})
    assert type(tmpl).__name__ == class_name
    assert tmpl.version == ("heat_template_version", canonical)


def test_version_as_date_object():
    data = yaml.safe_load("heat_template_version: 2018-08-31\n")
    assert isinstance(data["heat_template_version"], datetime.date)
    tmpl = Template(data)
    assert tmpl.version == ("heat_template_version", "2018-08-31")
    assert tmpl.t["heat_template_version"] == "2018-08-31"


def test_unknown_version():
    assert invalid_version({"heat_template_version": "2099-01-01"}) == (
        'The template version is invalid: "heat_template_version: 2099-01-01". '
        '"heat_template_version" should be one of: ' + ALL_VERSIONS
    )


def test_missing_version():
    expected = "The template version is invalid: Template version was not provided"
    assert invalid_version({"resources": {}}) == expected
    assert invalid_version({"heat_template_version": 20180831}) == expected


def test_ambiguous_version():
    message = invalid_version(
        {"heat_template_version": "2018-08-31", "HeatTemplateFormatVersion": "2012-12-12"}
    )
    assert message == (
        "The template version is invalid: Ambiguous versions "
        "(heat_template_version, HeatTemplateFormatVersion)"
    )


def test_cfn_versions_are_templates_too():
    assert type(Template({"AWSTemplateFormatVersion": "2010-09-09"})).__name__ == "CfnTemplate"
    assert type(Template({"HeatTemplateFormatVersion": "2012-12-12"})).__name__ == ("HeatTemplate")


# -- sections


def test_sections_and_description():
    tmpl = hot({}, description="hello")
    assert tmpl.description == "hello"
    assert hot({}).description == "No description"
    assert tmpl["resources"] == {}
    assert tmpl["outputs"] == {}
    with pytest.raises(KeyError):
        tmpl["parameters"]
    with pytest.raises(KeyError):
        tmpl["bogus"]
    assert set(tmpl) == {"description", "parameter_groups", "resources", "outputs"}
    assert len(tmpl) == 4


def test_unknown_section():
    with pytest.raises(exception.InvalidTemplateSection) as err:
        hot({}, foo=1).validate()
    assert str(err.value) == "The template section is invalid: foo"


def test_conditions_section_needs_2016_10_14():
    with pytest.raises(exception.InvalidTemplateSection, match="invalid: conditions$"):
        hot({}, "2016-04-08", conditions={}).validate()
    hot({}, "newton", conditions={}).validate()


@pytest.mark.parametrize(
    "resources,message",
    [
        (
            {"r": {"type": "T", "foo": 1}},
            '"foo" is not a valid keyword inside a resource definition',
        ),
        ({"r": {"properties": {}}}, "Each resource must contain a type key."),
        ({"r": None}, "Each resource must contain a type key."),
        (
            {"r": "x"},
            "\"resources\" must contain a map of resource maps. Found a [<class 'str'>] instead",
        ),
        (["a"], "'list' object has no attribute 'items'"),
    ],
)
def test_resource_keys(resources, message):
    with pytest.raises(exception.StackValidationFailed) as err:
        hot(resources).validate()
    assert str(err.value) == message


def test_condition_and_external_id_keys_need_2016_10_14():
    with pytest.raises(exception.StackValidationFailed, match='"condition" is not a valid'):
        hot({"r": {"type": "T", "condition": True}}, "2016-04-08").validate()
    hot({"r": {"type": "T", "condition": True, "external_id": "x"}}, "newton").validate()


# -- resource definitions


def test_resource_definitions():
    stack = stack_of(
        {
            "z": {"type": "T"},
            "a": {
                "type": "OS::Nova::Server",
                "properties": {"name": {"get_param": "OS::stack_id"}},
                "metadata": {"m": 1},
                "depends_on": "z",
                "deletion_policy": "Retain",
                "update_policy": {"batch": 1},
                "description": "web server",
            },
        }
    )
    defns = stack.t.resource_definitions(stack)
    assert list(defns) == ["z", "a"]
    a = defns["a"]
    assert a.name == "a" and a.resource_type == "OS::Nova::Server"
    assert a.depends_on == ["z"]
    assert a.deletion_policy() == "Retain"
    assert a.metadata() == {"m": 1}
    assert a.description == "web server"
    assert a.resolved_properties() == {"name": ""}
    assert a.required_resource_names() == {"z"}
    z = defns["z"]
    assert z.deletion_policy() == "Delete" and z.metadata() == {} and z.depends_on == []
    assert z.resolved_properties() == {}


@pytest.mark.parametrize(
    "resource,message",
    [
        ({"type": ["x"]}, "Resource r type type must be string"),
        ({"type": "T", "properties": ["a"]}, "Resource r properties type must be object"),
        ({"type": "T", "metadata": "x"}, "Resource r metadata type must be object"),
        ({"type": "T", "depends_on": [1]}, "Resource r depends_on must be a list of strings"),
        (
            {"type": "T", "depends_on": {"a": 1}},
            "Resource r depends_on type must be list or string",
        ),
        ({"type": "T", "deletion_policy": "Foo"}, 'Invalid deletion policy "Foo"'),
        ({"type": "T", "update_policy": "x"}, "Resource r update_policy type must be object"),
        ({"type": "T", "condition": [1]}, "Resource r condition type must be string_or_boolean"),
        ({"properties": {}}, "'Resource r is missing \"type\"'"),
        ({"type": "T", "foo": 1}, "Invalid keyword(s) inside a resource definition: foo"),
    ],
)
def test_resource_definition_errors(resource, message):
    stack = stack_of({})
    stack.t.t["resources"] = {"r": resource}
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.resource_definitions(stack)
    assert str(err.value) == message


def test_lowercase_deletion_policy_from_2016_10_14():
    stack = stack_of({"r": {"type": "T", "deletion_policy": "retain"}}, "2016-10-14")
    assert stack.t.resource_definitions(stack)["r"].deletion_policy() == "Retain"
    stack = stack_of({"r": {"type": "T", "deletion_policy": "retain"}}, "2016-04-08")
    with pytest.raises(exception.StackValidationFailed, match='Invalid deletion policy "retain"'):
        stack.t.resource_definitions(stack)


def test_deletion_policy_from_a_parameter():
    stack = stack_of(
        {"r": {"type": "T", "deletion_policy": {"get_param": "p"}}},
        parameters={"p": {"type": "string", "default": "Snapshot"}},
    )
    assert stack.t.resource_definitions(stack)["r"].deletion_policy() == "Snapshot"


def test_function_argument_error_path():
    stack = stack_of({"r": {"type": "T", "properties": {"salt": {"list_join": ","}}}})
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.resource_definitions(stack)
    assert str(err.value) == (
        'resources.r.properties.salt.list_join: Incorrect arguments to "list_join" should be: '
        '"list_join" : [ " ", [ "str1", "str2"] ...]'
    )


def test_definition_validate_path():
    stack = stack_of({"r": {"type": "T", "metadata": {"a": [{"Ref": "x"}]}}})
    defn = stack.t.resource_definitions(stack)["r"]
    with pytest.raises(exception.StackValidationFailed) as err:
        defn.validate()
    assert str(err.value) == (
        "resources.r.metadata.a[0].Ref: The template version is invalid: "
        "The function Ref is not supported in this version of HOT."
    )


def test_definition_properties_and_attrs():
    from heat_lite.engine.properties import Schema

    stack = stack_of(
        {
            "port": {"type": "T"},
            "web": {
                "type": "T",
                "properties": {
                    "ip": {"get_attr": ["port", "fixed_ips", 0, "ip_address"]},
                    "port": {"get_resource": "port"},
                    "bad": 1,
                },
                "metadata": {"all": {"get_attr": ["port"]}},
            },
        }
    )
    web = stack.t.resource_definitions(stack)["web"]
    assert web.required_resource_names() == {"port"}
    assert web.dep_attrs("port") == {("fixed_ips", 0, "ip_address"), ("*",)}
    assert web.dep_attrs("web") == set()
    assert web.all_dep_attrs() == {"port": {("fixed_ips", 0, "ip_address"), ("*",)}}
    props = web.properties({"ip": Schema(Schema.STRING), "port": Schema(Schema.STRING)})
    assert props["ip"] == "port.fixed_ips" and props["port"] == "port"
    with pytest.raises(exception.StackValidationFailed) as err:
        props.validate()
    assert str(err.value) == "Property error: resources.web.properties: Unknown Property bad"


def test_definition_equality_and_render():
    stack = stack_of({"a": {"type": "T", "properties": {"x": {"get_param": "OS::stack_id"}}}})
    defn = stack.t.resource_definitions(stack)["a"]
    assert defn.render_hot() == {"type": "T", "properties": {"x": {"get_param": "OS::stack_id"}}}
    again = stack.t.resource_definitions(stack)["a"]
    assert defn == again and hash(defn) == hash(again)
    other = rsrc_defn.ResourceDefinition("a", "U")
    assert defn != other


def test_external_resource_cannot_depend():
    stack = stack_of(
        {"r": {"type": "T", "external_id": "x", "depends_on": "s"}, "s": {"type": "T"}}
    )
    defn = stack.t.resource_definitions(stack)["r"]
    assert defn.deletion_policy() == "Retain"
    with pytest.raises(exception.InvalidExternalResourceDependency) as err:
        defn.required_resource_names()
    assert str(err.value) == "Invalid dependency with external T resource: x"


def test_add_and_remove_resources():
    stack = stack_of({"a": {"type": "T"}})
    defn = rsrc_defn.ResourceDefinition("b", "U", properties={"p": 1}, depends=["a", "gone"])
    stack.t.add_resource(defn)
    assert stack.t.t["resources"]["b"] == {"type": "U", "properties": {"p": 1}, "depends_on": ["a"]}
    stack.t.remove_resource("b")
    stack.t.remove_all_resources()
    assert stack.t.t["resources"] == {}


# -- dependencies


def dependency_error(resources, exc=exception.InvalidTemplateReference):
    stack = stack_of(resources)
    with pytest.raises(exc) as err:
        stack.t.dependencies(stack)
    return str(err.value)


def test_dependency_order():
    stack = stack_of(
        {
            "web": {"type": "T", "properties": {"p": {"get_attr": ["port", "ip"]}}},
            "port": {"type": "T", "properties": {"n": {"get_resource": "net"}}},
            "net": {"type": "T"},
            "lonely": {"type": "T"},
            "after": {"type": "T", "depends_on": ["web", "net"]},
        }
    )
    deps = stack.t.dependencies(stack)
    order = list(deps)
    assert order.index("net") < order.index("port") < order.index("web") < order.index("after")
    assert deps.requires("after") == {"web", "net"}
    assert "lonely" in deps.leaves()


def test_bad_references():
    assert dependency_error({"a": {"type": "T", "properties": {"foo": {"get_resource": "c"}}}}) == (
        'The specified reference "c" (in a.Properties.foo) is incorrect.'
    )
    assert (
        dependency_error(
            {
                "a": {
                    "type": "T",
                    "properties": {"s": {"list_join": [",", [{"get_attr": ["c", "x"]}]]}},
                }
            }
        )
        == 'The specified reference "c" (in a.Properties.s.list_join[1][0]) is incorrect.'
    )
    assert dependency_error({"a": {"type": "T", "metadata": {"x": {"get_attr": ["c", "x"]}}}}) == (
        'The specified reference "c" (in a.Metadata.x) is incorrect.'
    )
    assert dependency_error({"a": {"type": "T", "depends_on": "c"}}) == (
        'The specified reference "c" (in a) is incorrect.'
    )


def test_cycles():
    exc = exception.CircularDependencyException
    message = dependency_error(
        {"a": {"type": "T", "depends_on": "b"}, "b": {"type": "T", "depends_on": "a"}}, exc
    )
    assert message.startswith("Circular Dependency Found: ")
    assert "a" in message and "b" in message
    dependency_error({"r": {"type": "T", "properties": {"s": {"get_resource": "r"}}}}, exc)
    dependency_error(
        {
            "a": {"type": "T", "properties": {"s": {"get_resource": "b"}}},
            "b": {"type": "T", "properties": {"s": {"get_attr": ["c", "value"]}}},
            "c": {"type": "T", "depends_on": ["a"]},
        },
        exc,
    )


# -- conditions

CONDS = {"on": {"equals": [{"get_param": "env"}, "prod"]}, "off": {"not": "on"}}
PARAMS = {"env": {"type": "string", "default": "prod"}}


def cond_stack(resources, outputs=None, env="prod"):
    sections = {"conditions": CONDS, "parameters": PARAMS}
    if outputs:
        sections["outputs"] = outputs
    return stack_of(resources, params={"env": env}, **sections)


def test_conditional_resources():
    resources = {
        "always": {"type": "T", "depends_on": ["prod_only", "dev_only"]},
        "prod_only": {"type": "T", "condition": "on"},
        "dev_only": {"type": "T", "condition": "off"},
        "never": {"type": "T", "condition": False},
    }
    stack = cond_stack(resources)
    assert list(stack.t.resource_definitions(stack)) == ["always", "prod_only"]
    deps = stack.t.dependencies(stack)
    assert deps.requires("always") == {"prod_only"}
    stack = cond_stack(resources, env="dev")
    assert list(stack.t.resource_definitions(stack)) == ["always", "dev_only"]


def test_reference_to_disabled_resource_is_an_error():
    stack = cond_stack(
        {
            "a": {"type": "T", "properties": {"x": {"get_resource": "b"}}},
            "b": {"type": "T", "condition": "off"},
        }
    )
    with pytest.raises(exception.InvalidTemplateReference):
        stack.t.dependencies(stack)


def test_condition_errors():
    stack = cond_stack({"r": {"type": "T", "condition": "nope"}})
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.resource_definitions(stack)
    assert str(err.value) == 'resources.r.condition: Invalid condition "nope"'

    stack = stack_of({}, conditions={"c": {"not": "c"}, "d": [1]})
    conds = stack.t.conditions(stack)
    with pytest.raises(exception.StackValidationFailed) as err:
        conds.is_enabled("c")
    assert str(err.value) == 'Condition validation error: Circular definition for condition "c"'
    with pytest.raises(exception.StackValidationFailed) as err:
        conds.validate()
    assert (
        str(err.value)
        == 'Condition validation error: The definition of condition "d" is invalid: [1]'
    )

    stack = stack_of({}, conditions=["x"])
    with pytest.raises(exception.StackValidationFailed) as err:
        stack.t.conditions(stack)
    assert str(err.value) == (
        "Conditions validation error: Condition definitions must be a map. Found a list instead"
    )


def test_conditions_are_cached_per_stack():
    stack = cond_stack({})
    assert stack.t.conditions(stack) is stack.t.conditions(stack)
    assert stack.t.conditions(stack).names() == {"on", "off"}


def test_a_template_does_not_keep_the_stacks_it_parsed_conditions_for():
    # a worker's cached template serves every stack of its row, one after another: the
    # parsed conditions hold their stack, so they stay with the stack, not the template
    first = cond_stack({})
    tmpl = first.t
    first_conds = tmpl.conditions(first)
    second = FakeStack(tmpl, {"env": "test"})
    assert tmpl.conditions(second) is not first_conds
    assert tmpl.conditions(first) is first_conds
    gone = weakref.ref(first)
    del first, first_conds
    gc.collect()
    assert gone() is None


# -- outputs


def test_outputs():
    stack = cond_stack(
        {"a": {"type": "T"}},
        outputs={
            "ip": {"value": {"get_attr": ["a", "ip"]}, "description": "The IP"},
            "plain": {"value": [1]},
            "hidden": {"value": 1, "condition": "off"},
        },
    )
    outputs = stack.t.outputs(stack)
    assert list(outputs) == ["ip", "plain", "hidden"]
    ip = outputs["ip"]
    assert ip.get_value() == "a.ip"
    assert ip.description() == "The IP"
    assert ip.required_resource_names() == {"a"}
    assert ip.dep_attrs("a") == {("ip",)}
    assert ip.all_dep_attrs() == {"a": {("ip",)}}
    ip.validate()
    assert outputs["plain"].description() == "No description given"
    assert outputs["hidden"].get_value() is None
    assert outputs["ip"].render_hot() == {
        "value": {"get_attr": ["a", "ip"]},
        "description": "The IP",
    }


def test_output_errors():
    for outputs, message in (
        ({"o": "x"}, "outputs.o: Output definitions must be a map. Found a str instead"),
        (
            {"o": {"description": "x"}},
            "outputs.o: Each output definition must contain a value key.",
        ),
    ):
        stack = stack_of({}, outputs=outputs)
        with pytest.raises(exception.StackValidationFailed) as err:
            stack.t.outputs(stack)
        assert str(err.value) == "Output validation error: " + message


def test_output_with_broken_reference():
    stack = stack_of({}, outputs={"o": {"value": {"get_attr": ["c", "x"]}}})
    output = stack.t.outputs(stack)["o"]
    assert output.required_resource_names() == set()
    with pytest.raises(exception.StackValidationFailed) as err:
        output.validate()
    assert str(err.value) == (
        'outputs.o.value.get_attr: The specified reference "c" (in unknown) is incorrect.'
    )


# -- parameters, empty templates, copies


def test_param_schemata_with_defaults():
    tmpl = hot({}, parameters={"p": {"type": "string"}})
    schemata = tmpl.param_schemata({"p": "x"})
    assert schemata["p"].default == "x" and not schemata["p"].required
    assert tmpl.t["parameters"] == {"p": {"type": "string"}}


def test_create_empty_template():
    empty = Template.create_empty_template()
    assert empty.version == ("heat_template_version", "2015-04-30")
    assert empty.t == {"heat_template_version": "2015-04-30"}
    assert Template.create_empty_template("rocky").version[1] == "2018-08-31"
    assert Template.create_empty_template(("heat_template_version", "2016-10-14")).version == (
        "heat_template_version",
        "2016-10-14",
    )
    full = hot({"a": {"type": "T"}}, parameters={"p": {"type": "string"}})
    emptied = Template.create_empty_template(from_template=full)
    assert emptied.t["resources"] == {} and "p" in emptied.t["parameters"]
    assert full.t["resources"] == {"a": {"type": "T"}}


def test_deepcopy_and_files():
    tmpl = Template({"heat_template_version": "2018-08-31"}, files={"f": "x"}, env={"e": 1})
    clone = copy.deepcopy(tmpl)
    assert clone.t == tmpl.t and clone.t is not tmpl.t
    assert clone.files == {"f": "x"} and clone.env == {"e": 1}


def test_parse_at_template_level_leaves_plain_data():
    tmpl = hot({})
    parsed = tmpl.parse(None, {"a": [1, {"b": "c"}], "n": None})
    assert parsed == {"a": [1, {"b": "c"}], "n": None}
    assert isinstance(tmpl.parse(None, {"get_param": "x"}), function.Function)


def test_end_to_end_from_yaml():
    text = """
heat_template_version: 2018-08-31
description: small stack
parameters:
  size: {type: number, default: 2, constraints: [{range: {min: 1, max: 4}}]}
resources:
  net: {type: OS::Neutron::Net}
  server:
    type: OS::Nova::Server
    properties:
      name: {str_replace: {template: web-$n, params: {$n: {get_param: size}}}}
      networks: [{network: {get_resource: net}}]
outputs:
  name: {value: {get_attr: [server, name]}}
"""
    stack = FakeStack(Template(template_format.parse(text)))
    stack.t.validate()
    stack.parameters.validate()
    defns = stack.t.resource_definitions(stack)
    assert defns["server"].resolved_properties() == {
        "name": "web-2",
        "networks": [{"network": "net"}],
    }
    assert list(stack.t.dependencies(stack)) == ["net", "server"]
    assert stack.t.outputs(stack)["name"].get_value() == "server.name"
