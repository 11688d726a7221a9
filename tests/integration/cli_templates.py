"""Templates the CLI suites write to disk and pass to ``openstack ... -t`` (as text, so
that the client parses them as it would a user's file)."""

import pathlib

DEMO = """\
heat_template_version: 2016-10-14
description: demo
parameters:
  p:
    type: string
    default: x
  secret:
    type: string
    default: s3
    hidden: true
resources:
  r:
    type: OS::Heat::TestResource
    properties:
      value: {get_param: p}
  n:
    type: OS::Heat::None
    depends_on: r
outputs:
  o:
    description: out o
    value: {get_attr: [r, output]}
  ref:
    value: {get_resource: r}
"""

ENV = """\
parameters:
  p: fromenv
"""

# the update target of DEMO: n removed, r kept (its value changes)
DEMO2 = """\
heat_template_version: 2016-10-14
description: demo2
parameters:
  p:
    type: string
    default: x
resources:
  r:
    type: OS::Heat::TestResource
    properties:
      value: {get_param: p}
outputs:
  o:
    value: {get_attr: [r, output]}
"""

FAIL = """\
heat_template_version: 2016-10-14
resources:
  ok:
    type: OS::Heat::TestResource
  bad:
    type: OS::Heat::TestResource
    properties:
      fail: true
    depends_on: ok
"""

CHILD = """\
heat_template_version: 2016-10-14
parameters:
  v:
    type: string
    default: c
resources:
  leaf:
    type: OS::Heat::TestResource
    properties:
      value: {get_param: v}
outputs:
  out:
    value: {get_attr: [leaf, output]}
"""

PARENT = """\
heat_template_version: 2016-10-14
resources:
  kid:
    type: child.yaml
    properties:
      v: hello
  top:
    type: OS::Heat::None
outputs:
  o:
    value: {get_attr: [kid, out]}
"""

# a resource that takes a while, so that a stack can be caught IN_PROGRESS
SLOW = """\
heat_template_version: 2016-10-14
resources:
  slow:
    type: OS::Heat::TestResource
    properties:
      action_wait_secs: {create: 30, update: 30}
"""

# a delete that lasts a few seconds: `stack delete --wait` polls the events by the stack's
# name, which a finished delete no longer resolves (the CLI then prints nothing, as it would
# against Heat); a TestResource of demo.yaml was sometimes gone before the first poll
SLOW_DELETE = """\
heat_template_version: 2016-10-14
resources:
  r:
    type: OS::Heat::TestResource
    properties:
      action_wait_secs: {delete: 3}
"""

META = """\
heat_template_version: 2016-10-14
resources:
  m:
    type: OS::Heat::None
    metadata:
      role: db
      ports: [1, 2]
"""

# an environment that pauses resource r of demo.yaml before it is created
HOOK_ENV = """\
resource_registry:
  resources:
    r:
      hooks: pre-create
"""

# an update of this one takes a few seconds (stack cancel can catch it)
# an update that lasts update_wait seconds (long enough to be cancelled on a loaded machine);
# the update of its rollback goes back to update_wait 0
SLOW_UPDATE = """\
heat_template_version: 2016-10-14
parameters:
  v:
    type: string
    default: a
  update_wait:
    type: number
    default: 0
resources:
  slow:
    type: OS::Heat::TestResource
    properties:
      value: {get_param: v}
      action_wait_secs: {create: 0, update: {get_param: update_wait}}
outputs:
  v:
    value: {get_attr: [slow, output]}
"""

# two faults: Heat reports the unknown type before the missing parameter value
BAD_TYPE = """\
heat_template_version: 2016-10-14
parameters:
  req:
    type: string
resources:
  r:
    type: OS::Heat::Nope
"""

# against DEMO (created with p=a): r gets a new value while update_replace is on, which
# TestResource replaces (Heat's preview asks the plugin: needs_replace_with_prop_diff),
# n changes type (a replacement), extra is new
DEMO_CHANGES = """\
heat_template_version: 2016-10-14
parameters:
  p:
    type: string
    default: x
resources:
  r:
    type: OS::Heat::TestResource
    properties:
      value: {get_param: p}
      update_replace: true
  n:
    type: OS::Heat::RandomString
  extra:
    type: OS::Heat::None
"""

# DEMO with properties on the OS::Heat::None: Heat neither updates nor replaces it
DEMO_NONE_PROPS = DEMO.replace(
    "    depends_on: r\n", "    depends_on: r\n    properties: {foo: bar}\n"
)

# an output that cannot be resolved
OUTPUT_ERROR = """\
heat_template_version: 2016-10-14
resources:
  r:
    type: OS::Heat::TestResource
outputs:
  listy:
    value: {list_join: [",", {get_attr: [r, output]}]}
"""

FILES = {
    "demo.yaml": DEMO,
    "env.yaml": ENV,
    "demo2.yaml": DEMO2,
    "fail.yaml": FAIL,
    "child.yaml": CHILD,
    "parent.yaml": PARENT,
    "slow.yaml": SLOW,
    "slow_delete.yaml": SLOW_DELETE,
    "meta.yaml": META,
    "hook_env.yaml": HOOK_ENV,
    "slow_update.yaml": SLOW_UPDATE,
    "bad_type.yaml": BAD_TYPE,
    "demo_changes.yaml": DEMO_CHANGES,
    "demo_none_props.yaml": DEMO_NONE_PROPS,
    "output_error.yaml": OUTPUT_ERROR,
}


def write_all(directory):
    directory = pathlib.Path(directory)
    for name, text in FILES.items():
        (directory / name).write_text(text)
    return directory
